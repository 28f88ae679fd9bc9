#pragma once
// `s2s study scaling` and `s2s study init`: the experiments of experiments/study.h as aligned
// tables on stdout, and the same rows as CSV with --csv FILE. `s2s study attention` is in
// cli/study_attention.h.
//
//   s2s study scaling [--dims 16,32,...] [--keys 64] [--samples 2000] [--seed 1] [--csv FILE]
//   s2s study init [--depth 20] [--width 256] [--seed 1] [--csv FILE] [--train-steps 300]
//                  [--config configs/default_long.json] [--skip-training]

#include <CLI/CLI.hpp>
#include <string>

#include "experiments/study.h"

namespace s2s::cli {

struct StudyScalingArgs {
  experiments::ScalingOptions study;
  std::string csv;  // also write the rows here, "" = no CSV
};

struct StudyInitArgs {
  experiments::StackOptions stack;
  experiments::TrainingStudyOptions training;
  bool skip_training = false;  // only the deep-stack experiment
  std::string csv;             // also write the rows here (both experiments), "" = no CSV
};

// Registers `study` with its two subcommands on `app`.
void setup_study(CLI::App& app);

// Throw UserError naming the option for an out-of-range value.
void check_options(const StudyScalingArgs& args);
void check_options(const StudyInitArgs& args);

void run_study_scaling(const StudyScalingArgs& args);
void run_study_init(const StudyInitArgs& args);

}  // namespace s2s::cli
