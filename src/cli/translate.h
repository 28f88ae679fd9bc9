#pragma once
// `s2s translate`: translates stdin to stdout with a trained run, one output line per input
// line, in order (an empty line stays empty). Lines are translated as they arrive: the first
// waiting line starts a batch, which takes the lines already there (up to
// evaluation.batch_size) and waits at most --wait-ms for more; every output line is flushed at
// once. So it answers a person typing and streams through a pipe. --input FILE and --output FILE
// read and write files instead, the same way (warnings then name FILE:LINE).
//
// With --n-best K (default: the run's evaluation.n_best), each input line gives K lines
//   LINE<TAB>RANK<TAB>SCORE<TAB>TRANSLATION
// LINE the 1-based input line, RANK 1..K, SCORE the length-normalized log-probability that
// ranks them (beam search; K <= the beam size). Source words the model has never seen are
// counted: per line with -v, and in a summary at the end.

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>

#include "cli/verbs.h"

namespace s2s::cli {

struct TranslateArgs : RunArgs {
  int64_t n_best = 0;    // hypotheses per line; 0 = the run's evaluation.n_best
  int64_t wait_ms = 50;  // how long a started batch waits for more lines
  std::string input;     // read from this file ("" = stdin)
  std::string output;    // write to this file ("" = stdout)
};

// Registers the `translate` subcommand on `app`; its callback runs run_translate.
void setup_translate(CLI::App& app);

void run_translate(const TranslateArgs& args);

}  // namespace s2s::cli
