#pragma once
// Training: the inputs checked, the run directory claimed, the loop, validation, early
// stopping, checkpoints, interrupts and divergence. The loop itself is Trainer::train(); each
// detail is a named helper or a part of its own: the validation (train/validator.h), the
// checkpoints (train/checkpoint_keeper.h), the log between validations (train/interval_log.h),
// early stopping and the plateau schedule (train/early_stopping.h), and what rank 0 decides for
// the other processes (train/rank_decisions.h).

#include <torch/torch.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "batching/batch.h"
#include "checkpoint/checkpoint.h"
#include "config/config.h"
#include "model/seq2seq.h"
#include "run/run_dir.h"
#include "train/checkpoint_keeper.h"
#include "train/interval_log.h"
#include "train/rank_decisions.h"
#include "train/train_step.h"
#include "train/training_data.h"
#include "train/training_run_dir.h"
#include "train/validator.h"
#include "util/jsonl_writer.h"

namespace s2s::train {

struct TrainSummary {
  int64_t steps = 0;
  double seconds = 0.0;
  int64_t tokens = 0;  // target tokens trained on in `seconds` (every rank's)
  std::optional<ValidationResult> best;
  int64_t best_step = 0;  // the step of best.pt
  int64_t epochs = 0;     // epochs begun
  int64_t parameters = 0;
  bool early_stopped = false;
  std::vector<std::string> averaged;  // the step checkpoints averaged into average_last.pt
};

// A training loss above kExplodingLoss x ln(V), V the target vocabulary, is divergence: a
// uniform guess costs ln(V), and even a badly initialized model stays within a few dozen times
// that, while a learning rate that explodes the weights gives losses of 10^10 and more.
constexpr double kExplodingLoss = 100.0;

class Trainer {
 public:
  // Checks every input (config, run directory, corpora of every split, alignment files,
  // vocabularies, memory), then claims the run directory. Nothing is written before all checks
  // pass.
  Trainer(config::Config config, TrainOptions options);
  Trainer(const Trainer&) = delete;  // its parts hold references to its members
  Trainer& operator=(const Trainer&) = delete;
  // Trains until the epochs or max_steps are done or early stopping ends it, then averages the
  // newest step checkpoints (training.average_last). Throws util::Interrupted after saving
  // last.pt when SIGINT or SIGTERM arrives, and std::runtime_error naming the last good
  // checkpoint when the loss diverges.
  TrainSummary train();
  const run::RunPaths& paths() const { return run_dir_.paths(); }
  // False on the ranks other than 0 of a distributed training: they write nothing.
  bool main_rank() const { return ranks_.main(); }

 private:
  void prepare_data();
  void build_model();
  void start_run();
  StepResult train_step(const batching::Batch& batch);
  void maybe_checkpoint();
  void validate_and_checkpoint();
  void follow_validation();
  bool judge(const ValidationResult& r);
  void report_validation(const ValidationResult& r, bool improvement, double seconds);
  void save_validated(bool improvement);
  void save(const std::string& name);
  [[noreturn]] void diverged(const std::string& what, double value);
  [[noreturn]] void interrupted(int signal);
  bool should_stop() const;

  config::Config config_;
  TrainOptions options_;
  TrainingRunDir run_dir_;
  RankDecisions ranks_;
  torch::Device device_ = torch::kCPU;
  TrainingData data_;
  std::optional<Validator> validator_;  // built with the data
  model::Seq2Seq model_{nullptr};
  std::unique_ptr<torch::optim::Optimizer> optimizer_;
  std::optional<TrainStep> step_;           // built once the device and precision are known
  std::optional<CheckpointKeeper> keeper_;  // built with the model
  checkpoint::TrainingState state_;  // its learning_rate: the schedule's base (plateau lowers it)
  double lr_ = 0.0;                  // the rate of the last update: base, warm-up and schedule
  int64_t planned_steps_ = 0;        // updates the run plans to make in all (count_planned_steps)
  TrainSummary summary_;
  util::JsonlWriter metrics_;
  std::optional<IntervalLog> log_;  // from the start of train()
  bool stop_ = false;
  int64_t last_validated_step_ = -1;
};

}  // namespace s2s::train
