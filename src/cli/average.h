#pragma once
// `s2s average --run DIR [--last 5 | --checkpoints step_800,step_900,...] [--out average]
// [--overwrite]`: averages the weights of checkpoints of one run (checkpoint/average.h) into
// DIR/checkpoints/<out>.pt, which `evaluate`, `translate` and `attention` load with
// --checkpoint <out>. The step checkpoints come from training.keep_step_checkpoints.

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>
#include <vector>

namespace s2s::cli {

struct AverageArgs {
  std::string run;
  int64_t last = 5;                      // the newest N step checkpoints
  std::vector<std::string> checkpoints;  // or these, by name
  std::string out = "average";
  bool overwrite = false;
};

void setup_average(CLI::App& app);

// Writes the average; returns its path.
std::string run_average(const AverageArgs& args);

}  // namespace s2s::cli
