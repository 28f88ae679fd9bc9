#pragma once
// `s2s translate`: translates stdin to stdout with a trained run, one output line per input line
// in order (an empty line stays empty). Reads all of stdin first, then decodes in batches.

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>

namespace s2s::cli {

struct TranslateOptions {
  std::string run;                  // run directory
  int64_t beam = 0;                 // beam size; 0 = the run's evaluation.beam_size
  std::string checkpoint = "best";  // "best" or "last"
};

// Registers the `translate` subcommand on `app`; its callback runs run_translate.
void setup_translate(CLI::App& app);

void run_translate(const TranslateOptions& options);

}  // namespace s2s::cli
