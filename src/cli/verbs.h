#pragma once
// The verbs of the `s2s` binary. Each verb lives in its own file as an arguments struct
// (<Verb>Args), a `setup_<verb>(CLI::App&)` that registers the subcommand, and a
// `run_<verb>(args)`.

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "checkpoint/load_run.h"
#include "eval/translate.h"

namespace s2s::cli {

// Registers every verb on `app`.
void setup_verbs(CLI::App& app);

// Checks that an option's text is an integer in [min, max]: "--beam must be an integer >= 1,
// got 'five'" instead of CLI11's range message.
CLI::Validator integer_in(int64_t min, int64_t max = INT64_MAX);
// The same for a finite number >= min: "--length-penalty must be a number >= 0, got '-1'".
CLI::Validator number_at_least(double min);

// What the verbs that decode with a trained run (evaluate, translate, attention) share.
struct RunArgs {
  std::string run;                    // run directory
  std::vector<std::string> ensemble;  // --ensemble: run directories decoded as one, or empty
  // "best", "last", "step_N" or an average's name; a comma-separated list is an ensemble of
  // those checkpoints (of every run of --ensemble).
  std::string checkpoint = "best";
  int64_t beam = 0;              // beam size; 0 = the run's evaluation.beam_size
  double length_penalty = -1.0;  // GNMT alpha; < 0 = the run's evaluation.length_penalty
  std::string beam_rule;         // "shrink" or "full"; empty = the run's evaluation.beam_rule
  double beam_prune = -1.0;      // nats; < 0 = the run's evaluation.beam_prune
  std::string precision;         // "auto", "fp32", "bf16", "int8"; empty = the run's

  // Where outputs go and which run's settings decode: --run, or the first run of --ensemble.
  const std::string& home() const { return ensemble.empty() ? run : ensemble.front(); }
  std::vector<std::string> checkpoints() const;  // --checkpoint split at commas
  // The model's name in output file names and scores.json: the checkpoints joined by '+'
  // ("best", "step_900+step_1362"); with --ensemble of several runs prefixed by
  // "ensemble<N>-<the first 8 hex digits of the SHA-256 of the runs' absolute paths>." so that
  // different ensembles never share a name.
  std::string model_label() const;
};

// Registers --run, --ensemble, --checkpoint, --beam, --length-penalty, --beam-rule,
// --beam-prune and --precision on `sub`.
void add_run_options(CLI::App* sub, RunArgs& args);
// The run or ensemble of `args` (checkpoint/load_run.h), with its members logged.
checkpoint::LoadedRun load_decoding_run(const RunArgs& args);
// Registers --split ("test" or "valid") on `sub`.
void add_split_option(CLI::App* sub, std::string& split);

// The run's evaluation settings, with the beam size of --beam and the length penalty of
// --length-penalty when given.
eval::TranslateOptions decode_options(const checkpoint::LoadedRun& run, const RunArgs& args);
// Refuses (ConfigError naming the keys and flags) a search with `options` of `sources` (empty:
// not known in advance, as long as evaluation.max_src_len allows) that cannot fit in memory
// (eval/search_memory.h), before decoding.
void check_decoding_memory(const checkpoint::LoadedRun& run, const eval::TranslateOptions& options,
                           const std::vector<std::vector<std::string>>& sources,
                           const std::string& what);

}  // namespace s2s::cli
