#pragma once
// The run directory of one training, handled so that nothing is lost or mixed up:
//   1. check (no write): run_dir is not /, the home directory, the working directory or one of
//      its ancestors, and holds neither the config file (other than the run's own config.json)
//      nor a data file; run_dir is a directory or absent; --resume has a last.pt; a new run
//      goes only into an empty or absent directory, or with --overwrite into one holding a run
//      of this program; --resume takes only the config changes a resumed run can apply;
//   2. claim (after every input has been checked): lock the directory for the life of the
//      training (a second training there is refused, naming the holder's PID), remove the
//      previous run's files (--overwrite: only those this program wrote) or the leftovers of
//      a killed run (--resume), then write config.json and the vocabularies and record them.

#include <memory>
#include <string>
#include <vector>

#include "config/compare.h"
#include "config/config.h"
#include "data/vocab.h"
#include "run/run_dir.h"
#include "util/lock.h"

namespace s2s::train {

struct TrainOptions {
  bool resume = false;      // continue from <run_dir>/checkpoints/last.pt
  bool overwrite = false;   // start over in a run directory that holds a run
  std::string config_file;  // the config file given (-c), which run_dir must not hold
  // A new training takes its tokenizers and vocabularies from this run instead of building
  // them: the first member's, for the members of an ensemble (training.members). "" = its own.
  std::string vocabularies_from;
  // The command an interrupt message gives to go on; "" = s2s train -c <run_dir>/config.json
  // --resume. An ensemble's member gives the ensemble's command.
  std::string resume_command;
};

// --resume and --overwrite together: refused with one line (a run, or an ensemble's members).
void check_resume_flags(bool resume, bool overwrite);

class TrainingRunDir {
 public:
  // Step 1. Throws UserError with one line naming the directory, the flag or the config keys.
  TrainingRunDir(const config::Config& config, const TrainOptions& options);

  // --resume: the config changes the resumed training applies (all resumable by now).
  const std::vector<config::ConfigChange>& resumed_changes() const { return changes_; }

  // Step 2. `resume_step`: the step of the checkpoint a resumed run continues from, whose
  // later metrics.jsonl events are dropped (they are repeated after the resume).
  // `model_files` ({path, bytes}: SentencePiece models) are written with the vocabularies.
  void claim(const config::Config& config, const data::Vocab& src_vocab,
             const data::Vocab& tgt_vocab,
             const std::vector<std::pair<std::string, std::string>>& model_files,
             int64_t resume_step);

  // Records files (full paths inside the run directory) as written by this program.
  void record(const std::vector<std::string>& files) const;

  const run::RunPaths& paths() const { return paths_; }

 private:
  void check_location(const config::Config& config, const std::string& config_file) const;
  void check_new_run() const;
  // Removes the temporary files of listed files that a killed process left (run/manifest.h).
  void sweep_temporaries() const;
  void check_resume(const config::Config& config);

  run::RunPaths paths_;
  TrainOptions options_;
  std::vector<config::ConfigChange> changes_;
  std::unique_ptr<util::FileLock> lock_;
};

// Keeps the events of metrics.jsonl at `path` up to `step` (those after it are repeated by a
// run resumed from `step`); lines that are not JSON objects with a step are kept.
void truncate_metrics(const std::string& path, int64_t step);

}  // namespace s2s::train
