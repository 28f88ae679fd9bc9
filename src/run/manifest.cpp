#include "run/manifest.h"

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>

#include "util/error.h"
#include "util/fs.h"
#include "util/lock.h"

namespace s2s::run {
namespace {

namespace fs = std::filesystem;
constexpr const char* kManifest = "manifest.json";
constexpr const char* kLock = "train.lock";

// A run directory written before manifests existed: config.json and checkpoints/.
bool is_legacy_run(const std::string& dir) {
  return fs::is_regular_file(dir + "/config.json") && fs::is_directory(dir + "/checkpoints");
}

// The files an earlier version wrote, by name.
std::vector<std::string> legacy_files(const std::string& dir) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& e : fs::recursive_directory_iterator(dir, ec)) {
    if (!e.is_regular_file()) continue;
    const auto rel = fs::relative(e.path(), dir).string();
    const auto name = e.path().filename().string();
    const bool known =
        rel == "config.json" || rel == "src_vocab.txt" || rel == "tgt_vocab.txt" ||
        rel == "metrics.jsonl" || rel == "train.log" || rel.rfind("checkpoints/", 0) == 0 ||
        rel.rfind("heatmaps/", 0) == 0 ||
        (rel.find('/') == std::string::npos &&
         (e.path().extension() == ".hyp" ||
          (name.size() > 12 && name.compare(name.size() - 12, 12, ".scores.json") == 0)));
    if (known) out.push_back(rel);
  }
  return out;
}

}  // namespace

nlohmann::json read_manifest(const std::string& dir) {
  const auto path = dir + "/" + kManifest;
  if (!fs::is_regular_file(path)) return nlohmann::json::object();
  auto j = nlohmann::json::parse(util::read_file(path), nullptr, /*allow_exceptions=*/false);
  if (!j.is_object()) throw InputError(path + ": not a valid manifest (invalid JSON)");
  return j;
}

void update_manifest(const std::string& dir, const std::function<void(nlohmann::json&)>& edit) {
  util::with_directory_lock(dir, [&] {
    auto manifest = read_manifest(dir);
    edit(manifest);
    util::write_file_atomic(dir + "/" + kManifest, manifest.dump(1) + "\n");
  });
}

RunDirKind inspect_run_dir(const std::string& dir) {
  std::error_code ec;
  const auto status = fs::status(dir, ec);
  if (!fs::exists(status)) return RunDirKind::kMissing;
  if (!fs::is_directory(status)) return RunDirKind::kNotDirectory;
  // The lock file alone is what a training that failed before writing anything leaves.
  bool empty = true;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    if (entry.path().filename() != kLock) empty = false;
  }
  if (empty) return RunDirKind::kEmpty;
  if (fs::is_regular_file(dir + "/" + kManifest) || is_legacy_run(dir)) return RunDirKind::kRun;
  return RunDirKind::kForeign;
}

std::vector<std::string> owned_files(const std::string& dir) {
  const auto manifest = read_manifest(dir);
  if (!manifest.contains("files")) {
    return is_legacy_run(dir) ? legacy_files(dir) : std::vector<std::string>{};
  }
  std::vector<std::string> out;
  for (const auto& f : manifest["files"]) {
    if (f.is_string()) out.push_back(f.get<std::string>());
  }
  return out;
}

void record_files(const std::string& dir, const std::vector<std::string>& files) {
  update_manifest(dir, [&](nlohmann::json& manifest) {
    std::set<std::string> all;
    if (manifest.contains("files")) {
      for (const auto& f : manifest["files"]) {
        if (f.is_string()) all.insert(f.get<std::string>());
      }
    }
    all.insert(files.begin(), files.end());
    all.insert(kManifest);
    manifest["files"] = std::vector<std::string>(all.begin(), all.end());
  });
}

void record_files_inside(const std::string& dir, const std::vector<std::string>& paths) {
  std::error_code ec;
  const auto root = fs::weakly_canonical(dir, ec);
  std::vector<std::string> inside;
  for (const auto& p : paths) {
    const auto rel = fs::weakly_canonical(p, ec).lexically_relative(root);
    if (!rel.empty() && *rel.begin() != "..") inside.push_back(rel.string());
  }
  if (!inside.empty()) record_files(dir, inside);
}

int remove_owned_files(const std::string& dir) {
  int removed = 0;
  std::set<fs::path> parents;
  std::error_code ec;
  for (const auto& rel : owned_files(dir)) {
    const fs::path path = fs::path(dir) / rel;
    // Never outside the run directory, whatever a manifest says.
    if (rel.empty() || fs::path(rel).is_absolute() || rel.find("..") != std::string::npos) continue;
    if (fs::is_regular_file(fs::symlink_status(path, ec)) && fs::remove(path, ec)) ++removed;
    for (auto p = path.parent_path(); p != fs::path(dir) && !p.empty(); p = p.parent_path()) {
      parents.insert(p);
    }
  }
  // Deepest first, so that a folder emptied of its subfolders goes too.
  for (auto it = parents.rbegin(); it != parents.rend(); ++it) {
    if (fs::is_directory(*it, ec) && fs::is_empty(*it, ec)) fs::remove(*it, ec);
  }
  fs::remove(fs::path(dir) / kManifest, ec);
  return removed;
}

}  // namespace s2s::run
