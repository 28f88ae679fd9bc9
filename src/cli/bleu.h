#pragma once
// `s2s bleu`: scores a file of translations against a file of references with sacreBLEU-2.6.0-
// compatible corpus BLEU (and chrF on request), printing sacreBLEU's line and signature or JSON.
// Several --ref files score with sacreBLEU's multi-reference rules (metrics/bleu.h, chrf.h).

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace s2s::cli {

struct BleuArgs {
  std::string hyp;                // hypotheses, one sentence a line (UTF-8)
  std::vector<std::string> refs;  // reference files, each line by line with the hypotheses
  std::string tokenize = "13a";   // sacreBLEU tokenizer: 13a, intl, char or none
  bool lowercase = false;         // case-insensitive BLEU (sacreBLEU's -lc)
  bool chrf_lowercase = false;    // case-insensitive chrF (sacreBLEU's --chrf-lowercase)
  std::string smooth = "exp";     // BLEU smoothing: exp, floor, add-k or none
  bool chrf = false;              // also report chrF
  bool json = false;              // one JSON object instead of text lines
};

// Registers the `bleu` subcommand on `app`; its callback runs run_bleu.
void setup_bleu(CLI::App& app);

// Reads the files, scores them and prints the result to stdout. Throws s2s::InputError for a
// missing file, invalid UTF-8, mismatched line counts, an empty reference or a reference file
// given twice.
void run_bleu(const BleuArgs& args);

}  // namespace s2s::cli
