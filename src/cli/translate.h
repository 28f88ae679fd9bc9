#pragma once
// `s2s translate`: translates stdin to stdout with a trained run, one output line per input line
// in order (an empty line stays empty). Reads all of stdin first, then decodes in batches.

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>

#include "cli/verbs.h"

namespace s2s::cli {

struct TranslateArgs : RunArgs {};

// Registers the `translate` subcommand on `app`; its callback runs run_translate.
void setup_translate(CLI::App& app);

void run_translate(const TranslateArgs& args);

}  // namespace s2s::cli
