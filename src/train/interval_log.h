#pragma once
// The training log between validations: running means of the loss, the target tokens per second
// and (hard attention) the REINFORCE statistics since the last log line, the progress bar, and a
// log line with its metrics.jsonl "train" event every training.log_every steps, after the first
// step (so that a log that is not a terminal shows life within seconds) and at least once a
// minute. It also keeps the training's clock.

#include <chrono>
#include <cstdint>
#include <nlohmann/json.hpp>

#include "checkpoint/checkpoint.h"
#include "config/config.h"
#include "train/reinforce.h"
#include "train/train_step.h"
#include "util/jsonl_writer.h"
#include "util/progress.h"

namespace s2s::train {

// Epochs count from 1; a validation at the end of an epoch belongs to that epoch.
int64_t display_epoch(const checkpoint::TrainingState& state);

class IntervalLog {
 public:
  // Starts the clocks and the progress bar of a training that begins (or resumes) at `state`
  // and plans `planned_steps` updates in all. `metrics` outlives the log.
  IntervalLog(const config::Config& config, util::JsonlWriter& metrics,
              const checkpoint::TrainingState& state, int64_t planned_steps);

  // After each update: `step` (its loss, tokens and REINFORCE statistics) joins the running
  // means; the bar is redrawn and a log line written when one is due. `state` counts the update
  // already; `lr` is the rate it used.
  void add(const StepResult& step, const checkpoint::TrainingState& state, double lr);
  // Clears the progress bar so that a log line can be printed cleanly.
  void clear_bar() { bar_.clear(); }

  double seconds() const;                           // this run's training seconds
  int64_t tokens() const { return total_tokens_; }  // this run's target tokens, every rank's
  double elapsed_s() const;  // training seconds, those of earlier runs of a resumed run included

 private:
  // The log line and its event, after which the running means start again.
  void write(const checkpoint::TrainingState& state, double lr, double mean_loss,
             double tokens_per_second);
  void log_reinforce(nlohmann::json& event) const;

  using Clock = std::chrono::steady_clock;
  int64_t log_every_;
  bool samples_attention_;  // hard attention trained with REINFORCE
  util::JsonlWriter& metrics_;
  util::ProgressBar bar_;
  int64_t planned_steps_;  // the ETA's total
  int64_t start_step_;     // the step this run began at (> 0 when resumed)
  double start_elapsed_;   // training seconds before this run (resumed runs)
  Clock::time_point train_start_, interval_start_, last_log_;
  // Running means since the last log line.
  double loss_ = 0.0;
  int64_t steps_ = 0, tokens_ = 0;
  int64_t total_tokens_ = 0;  // since this run began
  ReinforceStats reinforce_;  // sums over the interval (hard attention)
};

}  // namespace s2s::train
