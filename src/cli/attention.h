#pragma once
// `s2s attention`: decodes the first sentences of a split and writes their attention as CSV
// heatmaps (one file per sentence and head) plus an index.jsonl sidecar (eval/heatmap.h).

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>

#include "cli/verbs.h"

namespace s2s::cli {

struct AttentionArgs : RunArgs {
  std::string split = "test";  // "test" or "valid"
  std::string out;             // output directory (created)
  int64_t limit = 10;          // the first N sentences of the split
  bool words = false;          // SentencePiece runs: merge pieces into words (eval/pieces.h)
};

// Registers the `attention` subcommand on `app`; its callback runs run_attention.
void setup_attention(CLI::App& app);

// UserError for a model without attention (model.attention.scorer = none).
void run_attention(const AttentionArgs& args);

}  // namespace s2s::cli
