#pragma once
// A generated task that a small attention model must really learn: sequence reversal over 10
// symbols, "c a f" -> "f a c" (lengths 3 to 8). Its word alignment is known: target j <- source
// n - 1 - j, so it can also check that attention learns where to look.

#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

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

}  // namespace s2s::test_support
