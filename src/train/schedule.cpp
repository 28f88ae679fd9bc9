#include "train/schedule.h"

#include <torch/torch.h>

#include <algorithm>
#include <cmath>

#include "util/strings.h"

namespace s2s::train {
namespace {

double constant(const config::TrainingConfig& /*t*/, double /*n*/, int64_t /*total*/, double lr) {
  return lr;
}

double inverse_sqrt(const config::TrainingConfig& t, double n, int64_t /*total*/, double lr) {
  return lr * std::sqrt(static_cast<double>(t.warmup_steps) / n);
}

double cosine(const config::TrainingConfig& t, double n, int64_t total, double lr) {
  // Progress p in [0, 1] through the updates after the warm-up (resumed or extended runs past
  // `total` stay at min_lr).
  const auto warmup = static_cast<double>(t.warmup_steps);
  const double span = std::max(static_cast<double>(total) - warmup, 1.0);
  const double p = std::clamp((n - warmup) / span, 0.0, 1.0);
  const double floor = std::min(t.min_lr, lr);
  return floor + (lr - floor) * 0.5 * (1.0 + std::cos(M_PI * p));
}

}  // namespace

const std::vector<ScheduleSpec>& schedule_registry() {
  static const std::vector<ScheduleSpec> registry = {{"constant", constant, false},
                                                     {"plateau", constant, true},
                                                     {"inverse_sqrt", inverse_sqrt, false},
                                                     {"cosine", cosine, false}};
  return registry;
}

std::vector<std::string> schedule_names() {
  std::vector<std::string> names;
  for (const auto& spec : schedule_registry()) names.emplace_back(spec.name);
  return names;
}

const ScheduleSpec& schedule_spec(const config::TrainingConfig& t) {
  for (const auto& spec : schedule_registry()) {
    if (t.lr_schedule == spec.name) return spec;
  }
  TORCH_CHECK(false, "unknown learning-rate schedule '", t.lr_schedule,
              "' (valid: ", util::join(schedule_names(), ", "), ")");
}

double scheduled_learning_rate(const config::TrainingConfig& t, int64_t step, int64_t total,
                               double lr) {
  const auto warmup = static_cast<double>(t.warmup_steps);
  const auto n = static_cast<double>(step + 1);
  if (n < warmup) return lr * n / warmup;
  return schedule_spec(t).after_warmup(t, n, total, lr);
}

}  // namespace s2s::train
