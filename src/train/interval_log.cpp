#include "train/interval_log.h"

#include <algorithm>
#include <cmath>

#include "util/logging.h"

namespace s2s::train {
namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int64_t display_epoch(const checkpoint::TrainingState& state) {
  return state.epoch_batch == 0 && state.step > 0 ? state.epoch : state.epoch + 1;
}

IntervalLog::IntervalLog(const config::Config& config, util::JsonlWriter& metrics,
                         const checkpoint::TrainingState& state, int64_t planned_steps)
    : log_every_(config.training.log_every),
      samples_attention_(config::samples_attention(config.model)),
      metrics_(metrics),
      bar_(planned_steps),
      planned_steps_(planned_steps),
      start_step_(state.step),
      start_elapsed_(state.elapsed_s),
      train_start_(Clock::now()),
      interval_start_(train_start_),
      last_log_(train_start_) {}

void IntervalLog::add(const StepResult& step, const checkpoint::TrainingState& state, double lr) {
  constexpr double kLogAtLeastEverySeconds = 60.0;
  loss_ += step.loss;
  ++steps_;
  tokens_ += step.tokens;
  total_tokens_ += step.tokens;
  reinforce_.reward += step.reinforce.reward;
  reinforce_.baseline += step.reinforce.baseline;
  reinforce_.term_variance += step.reinforce.term_variance;
  reinforce_.entropy += step.reinforce.entropy;
  const double elapsed = seconds_since(interval_start_);
  const double tokens_per_second = static_cast<double>(tokens_) / std::max(elapsed, 1e-9);
  const double mean_loss = loss_ / static_cast<double>(steps_);
  bar_.update(state.step, state.epoch, mean_loss, tokens_per_second);
  const bool first = state.step == start_step_ + 1;
  if (state.step % log_every_ != 0 && !first &&
      seconds_since(last_log_) < kLogAtLeastEverySeconds) {
    return;
  }
  write(state, lr, mean_loss, tokens_per_second);
}

void IntervalLog::write(const checkpoint::TrainingState& state, double lr, double mean_loss,
                        double tokens_per_second) {
  bar_.clear();
  const int64_t done = state.step - start_step_, total = planned_steps_;
  const double eta = seconds() / static_cast<double>(std::max<int64_t>(done, 1)) *
                     static_cast<double>(std::max<int64_t>(total - state.step, 0));
  util::logger("train")->info(
      "step {}/{} epoch {} loss {:.4f} ppl {} lr {:.2e} {:.0f} tgt tok/s, {} left", state.step,
      total, display_epoch(state), mean_loss, util::format_metric(std::exp(mean_loss)), lr,
      tokens_per_second, util::format_duration(eta));
  last_log_ = Clock::now();
  nlohmann::json event = {
      {"event", "train"},        {"step", state.step}, {"epoch", display_epoch(state)},
      {"loss", mean_loss},       {"lr", lr},           {"tgt_tokens_per_s", tokens_per_second},
      {"elapsed_s", elapsed_s()}};
  if (samples_attention_) log_reinforce(event);
  metrics_.write(event);
  loss_ = 0.0;
  steps_ = tokens_ = 0;
  reinforce_ = {};
  interval_start_ = Clock::now();
}

void IntervalLog::log_reinforce(nlohmann::json& event) const {
  const double n = static_cast<double>(std::max<int64_t>(steps_, 1));
  const ReinforceStats mean{reinforce_.reward / n, reinforce_.baseline / n,
                            reinforce_.term_variance / n, reinforce_.entropy / n};
  util::logger("reinforce")
      ->info("reward {:.3f} baseline {:.3f} term variance {:.3g} entropy {:.3f}", mean.reward,
             mean.baseline, mean.term_variance, mean.entropy);
  event["reward"] = mean.reward;
  event["baseline"] = mean.baseline;
  event["reinforce_variance"] = mean.term_variance;
  event["attention_entropy"] = mean.entropy;
}

double IntervalLog::seconds() const { return seconds_since(train_start_); }

double IntervalLog::elapsed_s() const { return start_elapsed_ + seconds(); }

}  // namespace s2s::train
