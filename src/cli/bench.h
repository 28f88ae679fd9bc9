#pragma once
// `s2s bench -c CONFIG [--set k=v]... [--steps 30] [--warmup 5] [--decode-sentences 1000]
//            [--beam 5] [--weights CHECKPOINT] [--scorers all|LIST] [--json]`:
// how fast the config's model trains and decodes on this machine, per attention scorer, with
// the yardsticks to read the numbers against (a matrix-product probe of the practical peak, the
// model's counted FLOPs, peak memory). The data is prepared exactly as `s2s train` prepares it;
// nothing is written to disk. One JSON object per scorer with --json, else a table.

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>
#include <vector>

namespace s2s::cli {

struct BenchArgs {
  std::string config;                  // JSON config file
  std::vector<std::string> overrides;  // --set section.key=value, applied in order
  int64_t steps = 30;                  // timed training updates
  int64_t warmup = 5;                  // untimed updates before them
  int64_t decode_sentences = 1000;     // first M validation sentences decoded
  int64_t beam = 5;                    // beam search timed with this K; 1 = greedy only
  std::string scorers;                 // "" = the config's, "all", or "dot,additive,..."
  // Decode with these trained weights (a checkpoint of `s2s train` on the same config) instead
  // of the barely trained bench model, whose hypotheses end at once under beam search.
  std::string weights;
  bool json = false;  // one JSON object per scorer on stdout
  // Also where a training step and a decoded sentence spend their time, by component
  // (experiments/breakdown.h), from a second, observed pass.
  bool breakdown = false;
};

void setup_bench(CLI::App& app);

// The scorers asked for: `list` empty gives `configured`; "all" every scorer. An unknown name
// is a ConfigError listing the valid ones.
std::vector<std::string> bench_scorers(const std::string& list, const std::string& configured);

void run_bench(const BenchArgs& args);

}  // namespace s2s::cli
