#pragma once
// `s2s evaluate`: decodes a split of a trained run (every sentence, no length filtering) and
// reports BLEU with its sacreBLEU signature, chrF, teacher-forced loss and perplexity, and, for a
// model with attention, the mean attention entropy and (with gold alignments) the AER.
// Writes PREFIX.hyp and PREFIX.scores.json, PREFIX named after what produced them,
// <run>/evaluations/<split>.<checkpoint>.<greedy|beamK[.lpA]> (.lpA: a --length-penalty other
// than the run's), or given with --out: an evaluation never replaces the results `train` wrote
// (<run>/test.hyp, test.scores.json), nor one made with other settings. `--src FILE [--ref
// FILE]...` decodes and scores a file outside the config instead (evaluate_file.cpp).

#include <CLI/CLI.hpp>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli/verbs.h"
#include "metrics/bleu.h"
#include "metrics/chrf.h"

namespace s2s::cli {

struct EvaluateArgs : RunArgs {
  std::string split = "test";     // "test" or "valid"
  std::string src;                // a file to decode instead of a split ("" = the split)
  std::vector<std::string> refs;  // its reference files (none: decode only)
  bool json = false;              // print the scores JSON instead of text
  std::string out;                // output prefix; "" = the default name above
};

// The scores of one evaluation, as run_evaluate wrote them (PREFIX.scores.json).
struct EvaluateResult {
  std::string hyp_path, scores_path;
  double bleu = 0.0, chrf = 0.0;
  std::string decode;  // "greedy" or "beam K"
};

// Registers the `evaluate` subcommand on `app`; its callback runs run_evaluate.
void setup_evaluate(CLI::App& app);

EvaluateResult run_evaluate(const EvaluateArgs& args);
// `evaluate --src FILE [--ref FILE]...` (evaluate_file.cpp): writes PREFIX.hyp, and with
// references PREFIX.scores.json (BLEU and chrF, sacreBLEU's multi-reference rules).
EvaluateResult run_evaluate_file(const EvaluateArgs& args);

// The "bleu" and "chrf" objects of a scores.json, and its checkpoint and decoding settings.
nlohmann::ordered_json bleu_json(const metrics::BleuResult& bleu);
nlohmann::ordered_json chrf_json(const metrics::ChrfResult& chrf);
// "checkpoint" is the model's label (RunArgs::model_label); an ensemble adds "ensemble": its
// runs and checkpoints; "precision" the decoding's (fp32, bf16 or int8).
void add_decoding(nlohmann::ordered_json& json, const RunArgs& args,
                  const eval::TranslateOptions& options);
// --length-penalty when it differs from the run's (named in file names), else -1.
double named_length_penalty(const checkpoint::LoadedRun& run, const RunArgs& args);
// --beam-rule and --beam-prune when they differ from the run's (named in file names), as
// ".RULE" and ".pruneD", else "".
std::string named_beam_options(const checkpoint::LoadedRun& run, const RunArgs& args);
// --precision when it differs from the run's evaluation.precision, as ".int8" (named in file
// names whatever the beam), else "".
std::string named_precision(const checkpoint::LoadedRun& run, const RunArgs& args);

// <run>/evaluations/<split>.<checkpoint>.<greedy|beamK>, with .lpA appended for beam search
// when length_penalty >= 0 and `beam_options` (named_beam_options) appended (the caller passes them
// only when they differ from the run's).
std::string evaluation_prefix(const std::string& run, const std::string& split,
                              const std::string& checkpoint, int64_t beam, double length_penalty,
                              const std::string& beam_options = "");

}  // namespace s2s::cli
