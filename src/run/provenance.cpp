#include "run/provenance.h"

#include <torch/torch.h>
#include <torch/version.h>

#include <filesystem>

#include "data/corpus.h"
#include "platform/openblas.h"
#include "run/manifest.h"
#include "run/run_dir.h"
#include "util/logging.h"
#include "util/sha256.h"
#include "util/system.h"
#include "util/version.h"

namespace s2s::run {

std::vector<std::string> data_files(const config::Config& config) {
  const auto& d = config.data;
  std::vector<std::string> files;
  for (const auto* path : {&d.train, &d.valid, &d.test}) {
    if (path->empty()) continue;
    for (auto& f : data::corpus_files(corpus_spec(d, *path))) files.push_back(std::move(f));
  }
  for (const auto* path : {&d.train_alignments, &d.valid_alignments, &d.test_alignments}) {
    if (!path->empty()) files.push_back(*path);
  }
  return files;
}

nlohmann::json provenance(const config::Config& config, const std::vector<std::string>& files) {
  nlohmann::json p;
  p["program"] = {{"version", util::program_version()}, {"git_commit", util::git_commit()}};
  p["libtorch"] = TORCH_VERSION;
  p["blas"] = util::loaded_library("blas");
  p["blas_kernels"] = platform::openblas_kernels();
  p["cpu"] = util::cpu_model();
  p["threads"] = torch::get_num_threads();
  p["device"] = config.device;
  p["precision"] = "fp32";
  p["seed"] = config.seed;
  nlohmann::json data = nlohmann::json::object();
  for (const auto& f : files) {
    const auto digest = util::file_digest(f);
    data[std::filesystem::absolute(f).lexically_normal().string()] = {{"bytes", digest.bytes},
                                                                      {"sha256", digest.sha256}};
  }
  p["data"] = data;
  return p;
}

void record_provenance(const std::string& dir, const nlohmann::json& provenance) {
  update_manifest(dir, [&](nlohmann::json& manifest) { manifest["provenance"] = provenance; });
}

void warn_changed_files(const std::string& dir, const std::vector<std::string>& files) {
  const auto manifest = read_manifest(dir);
  if (!manifest.contains("provenance") || !manifest["provenance"].contains("data")) return;
  const auto& recorded = manifest["provenance"]["data"];
  for (const auto& f : files) {
    const auto key = std::filesystem::absolute(f).lexically_normal().string();
    if (!recorded.contains(key) || !std::filesystem::is_regular_file(f)) continue;
    const auto digest = util::file_digest(f);
    if (recorded[key].value("sha256", "") == digest.sha256) continue;
    util::logger("eval")->warn(
        "{} has changed since the run was trained (now {} bytes, sha256 {}; then {} bytes, "
        "sha256 {}): scores are not comparable with the run's",
        f, digest.bytes, digest.sha256.substr(0, 12), recorded[key].value("bytes", 0),
        recorded[key].value("sha256", "").substr(0, 12));
  }
}

}  // namespace s2s::run
