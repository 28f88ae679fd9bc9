#pragma once
// A generated task that a small attention model must really learn: sequence reversal over 10
// symbols, "c a f" -> "f a c" (lengths 3 to 8). Its word alignment is known: target j <- source
// n - 1 - j, so it can also check that attention learns where to look.

#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "config/config.h"

namespace s2s::test_support {

// Writes `n` pairs to PREFIX.src and PREFIX.tgt and, with `alignments`, their gold alignment in
// Pharaoh format to PREFIX.align. The same seed gives the same files.
inline void write_reverse_split(const std::filesystem::path& prefix, int n, uint32_t seed,
                                bool alignments = false) {
  std::mt19937 rng(seed);
  std::ofstream src(prefix.string() + ".src"), tgt(prefix.string() + ".tgt");
  std::ofstream align;
  if (alignments) align.open(prefix.string() + ".align");
  for (int i = 0; i < n; ++i) {
    const auto len = 3 + rng() % 6;
    std::vector<std::string> tokens;
    for (uint32_t j = 0; j < len; ++j) tokens.emplace_back(1, static_cast<char>('a' + rng() % 10));
    for (uint32_t j = 0; j < len; ++j) {
      src << (j > 0 ? " " : "") << tokens[j];
      tgt << (j > 0 ? " " : "") << tokens[len - 1 - j];
      if (alignments) align << (j > 0 ? " " : "") << len - 1 - j << "-" << j;
    }
    src << "\n";
    tgt << "\n";
    if (alignments) align << "\n";
  }
}

// The reversal task in `dir` (train: 3,000 pairs, valid: 100, test: 200) and a config that
// learns it in seconds on one thread: emb 32, hidden 64, batches of 32, whitespace tokens.
inline config::Config reverse_task_config(const std::filesystem::path& dir) {
  write_reverse_split(dir / "train", 3000, 1);
  write_reverse_split(dir / "valid", 100, 2);
  write_reverse_split(dir / "test", 200, 3);
  config::Config c;
  c.run_dir = (dir / "run").string();
  c.data.train = (dir / "train").string();
  c.data.valid = (dir / "valid").string();
  c.data.test = (dir / "test").string();
  c.data.tokenizer = "whitespace";
  c.model.emb_size = 32;
  c.model.hidden_size = 64;
  c.training.learning_rate = 3e-3;
  c.training.batch_size = 32;
  c.training.log_every = 1000;
  c.training.num_samples = 0;
  c.training.threads = 1;
  c.evaluation.heatmaps = 0;
  return c;
}

}  // namespace s2s::test_support
