#pragma once
// `s2s study attention`: the parts of a = normalize(s(h, q)) beyond the scorer, measured side by
// side. Every combination of scorer x normalizer x variant trains from one config with the
// same seed and budget, decodes the test split, and becomes one row: test BLEU, chrF, AER,
// attention entropy, the share of exactly-zero weights, parameters and training tokens/s.
// The runs stay in --out, with one report page that shows them side by side.
//
//   s2s study attention [--config configs/default.json] [--scorers additive]
//       [--normalizers softmax,sparsemax,entmax15] [--variants none,coverage,local_m,...]
//       [--steps 700] [--window 3] [--guide-weight W] [--out runs/study-attention]
//       [--overwrite] [--csv FILE]

#include <CLI/CLI.hpp>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "config/config.h"

namespace s2s::cli {

struct StudyAttentionArgs {
  std::string config = "configs/default.json";
  std::vector<std::string> scorers = {"additive"};
  std::vector<std::string> normalizers = {"softmax", "sparsemax", "entmax15"};
  std::vector<std::string> variants = {"none", "coverage", "local_m", "local_p", "guided"};
  int64_t steps = 700;  // updates per run; 0 = the config's own budget
  int64_t window = 3;   // D of the local variants
  double guide_weight =
      0.1;  // lambda of the guided variant (chosen on validation: docs/results.md)
  std::string out = "runs/study-attention";
  bool overwrite = false;  // train again in run directories a study left there
  std::string csv;         // also write the rows here, "" = no CSV
};

// A variant of the study: what it changes in a config.
struct StudyVariant {
  const char* name;
  const char* help;
  std::function<void(config::Config&, const StudyAttentionArgs&)> apply;
};

// The variants, in the order help and errors list them.
const std::vector<StudyVariant>& study_variants();

// The config of one combination, validated (ConfigError / UserError naming the option).
config::Config study_attention_config(const StudyAttentionArgs& args, const std::string& scorer,
                                      const std::string& normalizer, const std::string& variant);

// Registers `attention` under `study`.
void setup_study_attention(CLI::App& study);

void run_study_attention(const StudyAttentionArgs& args);

}  // namespace s2s::cli
