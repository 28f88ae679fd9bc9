#pragma once
// `s2s train -c CONFIG [--set section.key=value]... [--resume] [--overwrite]`: trains a model,
// then evaluates the best checkpoint on the test split and writes attention heatmaps for the
// first test sentences, so that one command is the whole job. With training.members = N it
// trains N models (run_dir/member1 ... memberN, seeds seed ... seed + N - 1, the first one's
// tokenizers) and decodes the test split with each and with their ensemble.

#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <vector>

#include "cli/evaluate.h"
#include "config/config.h"
#include "run/run_dir.h"

namespace s2s::cli {

struct TrainArgs {
  std::string config;                  // JSON config file
  std::vector<std::string> overrides;  // --set section.key=value, applied in order
  bool resume = false;                 // continue from <run_dir>/checkpoints/last.pt
  bool overwrite = false;              // start over in a run_dir that already has a run
  bool skip_test = false;              // do not evaluate on the test split afterwards
  int64_t nproc = 1;                   // local worker processes (data parallel, c10d/Gloo)
};

void setup_train(CLI::App& app);

// What a training writes about its test split: test.hyp and test.scores.json, and the
// heatmaps of its first sentences (evaluation.heatmaps, when the model has attention).
struct TestResults {
  std::optional<EvaluateResult> scores;
  bool heatmaps = false;
};
TestResults run_test(const config::Config& config, const run::RunPaths& paths,
                     const std::string& checkpoint);

void run_train(const TrainArgs& args);

}  // namespace s2s::cli
