#pragma once
// `s2s evaluate`: decodes a split of a trained run (every sentence, no length filtering) and
// reports BLEU with its sacreBLEU signature, chrF, teacher-forced loss and perplexity, and, for a
// model with attention, the mean attention entropy and (with gold alignments) the AER.
// Writes <run>/<split>.hyp and <run>/<split>.scores.json.

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>

#include "cli/verbs.h"

namespace s2s::cli {

struct EvaluateArgs : RunArgs {
  std::string split = "test";  // "test" or "valid"
  bool json = false;           // print the scores JSON instead of text
};

// Registers the `evaluate` subcommand on `app`; its callback runs run_evaluate.
void setup_evaluate(CLI::App& app);

void run_evaluate(const EvaluateArgs& args);

}  // namespace s2s::cli
