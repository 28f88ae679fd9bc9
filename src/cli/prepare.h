#pragma once
// `s2s prepare -c CONFIG [--set section.key=value]... [--overwrite]`: tokenizes the training
// split once into a prepared corpus (run/prepare.h) that `train` with data.prepared = true reads
// through mmap, as fairseq-preprocess does for fairseq-train. Prints where it is and what it
// holds; a corpus already prepared with the same settings is checked and reused, or replaced
// with --overwrite.

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace s2s::cli {

struct PrepareArgs {
  std::string config;
  std::vector<std::string> overrides;
  bool overwrite = false;
};

void setup_prepare(CLI::App& app);

// Returns the prepared corpus's directory.
std::string run_prepare(const PrepareArgs& args);

}  // namespace s2s::cli
