#pragma once
// Training: the inputs checked, the run directory claimed, the loop, validation, early
// stopping, checkpoints, interrupts and divergence. The loop itself is Trainer::train(); each
// detail is a named helper.

#include <torch/torch.h>

#include <chrono>
#include <memory>
#include <optional>
#include <string>

#include "config/config.h"
#include "model/seq2seq.h"
#include "run/batch.h"
#include "run/checkpoint.h"
#include "run/precision.h"
#include "run/run_dir.h"
#include "train/distributed.h"
#include "train/reinforce.h"
#include "train/train_step.h"
#include "train/training_data.h"
#include "train/training_run_dir.h"
#include "util/metrics_log.h"
#include "util/progress.h"

namespace s2s::train {

struct ValidationResult {
  double loss = 0.0, ppl = 0.0, bleu = 0.0;
  std::string bleu_signature;
};

struct TrainSummary {
  int64_t steps = 0;
  double seconds = 0.0;
  std::optional<ValidationResult> best;
  int64_t best_step = 0;  // the step of best.pt
  int64_t epochs = 0;     // epochs begun
  int64_t parameters = 0;
  bool early_stopped = false;
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
  // Trains until the epochs or max_steps are done or early stopping ends it. Throws
  // util::Interrupted after saving last.pt when SIGINT or SIGTERM arrives, and
  // std::runtime_error naming the last good checkpoint when the loss diverges.
  TrainSummary train();
  const run::RunPaths& paths() const { return run_dir_.paths(); }
  // False on the ranks other than 0 of a distributed training: they write nothing.
  bool main_rank() const { return main(); }

 private:
  void connect();
  int64_t threads() const;
  void synchronize_ranks();
  bool main() const { return !dist_ || dist_->main(); }
  void share_validation(bool diverged);
  void follow_validation();
  void prepare_data();
  void check_evaluation_inputs() const;
  void build_model();
  void check_memory() const;
  void start_run();
  // The step's loss and its target tokens (over every rank).
  std::pair<double, int64_t> train_step(const run::Batch& batch);
  void end_of_step(double loss, int64_t tokens);
  void log_reinforce(nlohmann::json& event);
  void maybe_checkpoint();
  void validate_and_checkpoint();
  ValidationResult validate();
  bool improved(const ValidationResult& r);
  void update_learning_rate(bool improvement);
  void save(const std::string& name);
  void discard_pending();
  bool exploding(double loss) const;
  [[noreturn]] void diverged(const std::string& what, double value);
  [[noreturn]] void interrupted(int signal);
  int64_t display_epoch() const;
  double elapsed_s() const;  // training seconds, those of earlier runs of a resumed run included
  bool should_stop() const;
  int64_t count_planned_steps() const;

  config::Config config_;
  TrainOptions options_;
  TrainingRunDir run_dir_;
  torch::Device device_ = torch::kCPU;
  TrainingData data_;
  std::vector<std::vector<std::string>> valid_sources_;  // cut to evaluation.max_src_len
  run::EncodedCorpus valid_forced_;  // the validation pairs teacher forcing scores
  model::Seq2Seq model_{nullptr};
  std::unique_ptr<torch::optim::Optimizer> optimizer_;
  std::unique_ptr<Distributed> dist_;  // several processes; null for one
  int step_interrupt_ = 0;             // a signal any rank received, from the last step
  std::optional<TrainStep> step_;      // built once the device and precision are known
  run::PrecisionChoice train_precision_, eval_precision_;
  std::string signature_;
  run::TrainingState state_;  // its learning_rate: the schedule's base (plateau lowers it)
  double lr_ = 0.0;           // the rate of the last update: base, warm-up and schedule
  TrainSummary summary_;
  util::MetricsLog metrics_;
  std::unique_ptr<util::ProgressBar> progress_;
  bool stop_ = false;
  int64_t last_validated_step_ = -1;
  int64_t last_saved_step_ = -1;  // the step of checkpoints/last.pt
  int64_t pending_step_ = -1;     // the step of checkpoints/pending.pt, -1 if none
  int64_t start_step_ = 0;        // the step this run began at (> 0 when resumed)
  int64_t planned_steps_ = 0;     // updates the run plans to make in all (count_planned_steps)
  double start_elapsed_ = 0.0;    // training seconds before this run (resumed runs)
  // Running means since the last log line.
  double interval_loss_ = 0.0;
  int64_t interval_steps_ = 0, interval_tokens_ = 0;
  ReinforceStats interval_reinforce_;  // sums over the interval (hard attention)
  std::chrono::steady_clock::time_point interval_start_, train_start_, last_save_time_, last_log_;
};

}  // namespace s2s::train
