#pragma once
// Training: data preparation, the loop, validation, early stopping, checkpoints.
// The loop itself is Trainer::train(); each detail is a named helper.

#include <torch/torch.h>

#include <memory>
#include <optional>
#include <string>

#include "config/config.h"
#include "model/seq2seq.h"
#include "run/batch.h"
#include "run/checkpoint.h"
#include "run/run_dir.h"
#include "train/reinforce.h"
#include "train/train_step.h"
#include "train/training_data.h"
#include "util/metrics_log.h"
#include "util/progress.h"

namespace s2s::train {

struct TrainOptions {
  bool resume = false;     // continue from <run_dir>/checkpoints/last.pt
  bool overwrite = false;  // start over in a run directory that already has checkpoints
};

struct ValidationResult {
  double loss = 0.0, ppl = 0.0, bleu = 0.0;
  std::string bleu_signature;
};

struct TrainSummary {
  int64_t steps = 0;
  double seconds = 0.0;
  std::optional<ValidationResult> best;
  int64_t parameters = 0;
  bool early_stopped = false;
};

class Trainer {
 public:
  Trainer(config::Config config, TrainOptions options);
  TrainSummary train();

 private:
  void prepare_run_dir();
  void prepare_data();
  void build_model();
  double train_step(const run::Batch& batch);
  void end_of_step(double loss, int64_t tokens);
  void log_reinforce(nlohmann::json& event);
  void validate_and_checkpoint();
  ValidationResult validate();
  bool improved(const ValidationResult& r);
  void update_learning_rate(bool improvement);
  void save(const std::string& name);
  bool should_stop() const;
  int64_t planned_steps() const;

  config::Config config_;
  TrainOptions options_;
  run::RunPaths paths_;
  torch::Device device_ = torch::kCPU;
  TrainingData data_;
  model::Seq2Seq model_{nullptr};
  std::unique_ptr<torch::optim::Optimizer> optimizer_;
  TrainStep step_;
  std::string signature_;
  run::TrainingState state_;
  TrainSummary summary_;
  util::MetricsLog metrics_;
  std::unique_ptr<util::ProgressBar> progress_;
  bool stop_ = false;
  int64_t last_validated_step_ = -1;
  // Running means since the last log line.
  double interval_loss_ = 0.0;
  int64_t interval_steps_ = 0, interval_tokens_ = 0;
  ReinforceStats interval_reinforce_;  // sums over the interval (hard attention)
  std::chrono::steady_clock::time_point interval_start_, train_start_;
};

}  // namespace s2s::train
