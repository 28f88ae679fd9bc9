#include "checkpoint/average.h"

#include <algorithm>
#include <filesystem>
#include <regex>
#include <set>

#include "checkpoint/checkpoint.h"
#include "checkpoint/load_run.h"
#include "run/manifest.h"
#include "run/run_dir.h"
#include "util/error.h"

namespace s2s::checkpoint {
namespace {

// N of "step_N", or -1.
int64_t step_of(const std::string& name) {
  static const std::regex pattern("step_([0-9]{1,18})");
  std::smatch m;
  return std::regex_match(name, m, pattern) ? std::stoll(m[1].str()) : -1;
}

// Every floating-point parameter and buffer of `model`, in a fixed order.
std::vector<torch::Tensor> weights(torch::nn::Module& model) {
  std::vector<torch::Tensor> out;
  for (const auto& t : model.parameters()) out.push_back(t);
  for (const auto& t : model.buffers()) {
    if (t.is_floating_point()) out.push_back(t);
  }
  return out;
}

}  // namespace

std::vector<std::string> step_checkpoints(const std::string& run_dir) {
  const run::RunPaths paths(run_dir);
  std::vector<std::pair<int64_t, std::string>> found;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(paths.checkpoints(), ec)) {
    if (!entry.is_regular_file() || entry.path().extension() != ".pt") continue;
    const auto name = entry.path().stem().string();
    if (const int64_t step = step_of(name); step >= 0) found.emplace_back(step, name);
  }
  std::sort(found.begin(), found.end());
  std::vector<std::string> names;
  for (auto& [step, name] : found) names.push_back(std::move(name));
  return names;
}

bool is_checkpoint_name(const std::string& name) {
  static const std::regex allowed("[A-Za-z0-9_-]{1,100}");
  return std::regex_match(name, allowed);
}

std::string average_name_problem(const std::string& name) {
  if (!is_checkpoint_name(name)) {
    return "may hold letters, digits, '_' and '-' only, got '" + name + "'";
  }
  if (name == "best" || name == "last" || name == "pending" || name == kTrainingAverage ||
      step_of(name) >= 0) {
    return "'" + name + "' is a checkpoint training writes; choose another name";
  }
  return "";
}

std::string average_output(const std::string& run_dir, const std::string& out, bool overwrite) {
  if (const auto problem = average_name_problem(out); !problem.empty()) {
    throw UserError("--out " + problem);
  }
  const auto path = run::RunPaths(run_dir).checkpoint(out);
  if (std::filesystem::exists(path) && !overwrite) {
    throw InputError(path + ": exists; choose another --out or add --overwrite");
  }
  return path;
}

namespace {

// Writes the mean of the weights of `names` to `path` (a checkpoint of the run) and records it.
AverageResult write_average(const std::string& run_dir, const std::vector<std::string>& names,
                            const std::string& path) {
  const run::RunPaths paths(run_dir);
  AverageResult result{path, 0};
  // Averaging decodes nothing: any precision the config names is fine here.
  auto loaded = load_run(run_dir, names.front(), /*precision=*/"fp32");
  const auto signature = run_signature(loaded);
  const Vocabularies vocabularies{loaded.src_vocab, loaded.tgt_vocab, paths.src_vocab(),
                                  paths.tgt_vocab()};
  torch::NoGradGuard no_grad;
  std::vector<torch::Tensor> sums;
  TrainingState newest;
  for (const auto& name : names) {
    const auto state =
        load_checkpoint(paths.checkpoint(name), *loaded.model, nullptr, signature, &vocabularies);
    if (state.step >= newest.step) newest = state;
    // Loading puts the weights on the device they were saved from: sum on the CPU, in fp64.
    const auto tensors = weights(*loaded.model);
    if (sums.empty()) {
      for (const auto& t : tensors) sums.push_back(torch::zeros(t.sizes(), torch::kDouble));
    }
    for (std::size_t i = 0; i < tensors.size(); ++i) {
      sums[i] += tensors[i].detach().to(torch::kCPU, torch::kDouble);
    }
  }
  loaded.model->to(torch::kCPU);
  const auto tensors = weights(*loaded.model);
  const auto k = static_cast<double>(names.size());
  for (std::size_t i = 0; i < tensors.size(); ++i) tensors[i].copy_(sums[i] / k);
  save_checkpoint(result.path, *loaded.model, /*optimizer=*/nullptr, newest, signature,
                  &vocabularies);
  run::record_files(run_dir, {paths.relative(result.path)});
  result.step = newest.step;
  return result;
}

}  // namespace

AverageResult average_checkpoints(const std::string& run_dir, const std::vector<std::string>& names,
                                  const std::string& out, bool overwrite) {
  if (names.size() < 2) throw UserError("averaging needs at least 2 checkpoints");
  std::set<std::string> seen;
  for (const auto& name : names) {
    if (!seen.insert(name).second) throw UserError("checkpoint '" + name + "' is named twice");
  }
  return write_average(run_dir, names, average_output(run_dir, out, overwrite));
}

std::vector<std::string> average_last_steps(const std::string& run_dir, int64_t k) {
  auto names = step_checkpoints(run_dir);
  if (static_cast<int64_t>(names.size()) > k) names.erase(names.begin(), names.end() - k);
  if (names.size() < 2) return {};
  write_average(run_dir, names, run::RunPaths(run_dir).checkpoint(kTrainingAverage));
  return names;
}

}  // namespace s2s::checkpoint
