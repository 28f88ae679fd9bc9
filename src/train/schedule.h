#pragma once
// Learning-rate schedules, chosen by `training.lr_schedule` from one registry. Every schedule
// shares the linear warm-up; the registry entry gives the rate after it, and whether the base
// rate drops when validation stops improving (plateau). With W = warmup_steps, n = step + 1:
//   warm-up, n < W:     lr * n / W
//   constant:           lr
//   plateau:            lr, the base rate multiplied by lr_decay after lr_patience validations
//                       without improvement, never below min_lr (the trainer applies it)
//   inverse_sqrt:       lr * sqrt(W / n)   (Vaswani et al. 2017, fairseq)
//   cosine:             m + (lr - m) * (1 + cos(pi * p)) / 2 with m = min_lr and
//                       p = (n - W) / (total - W): lr down to min_lr at the last planned update
//                       (Loshchilov & Hutter 2017 without restarts)

#include <cstdint>
#include <string>
#include <vector>

#include "config/config.h"

namespace s2s::train {

// One schedule of the registry.
struct ScheduleSpec {
  const char* name;
  // The rate of update n >= W (1-based) of `total` planned, base rate `lr`.
  double (*after_warmup)(const config::TrainingConfig& training, double n, int64_t total,
                         double lr);
  bool reduces_on_plateau;  // the trainer lowers the base rate when validation stalls
};

// The registry, in the order help texts and errors list it.
const std::vector<ScheduleSpec>& schedule_registry();
std::vector<std::string> schedule_names();
// The entry named by training.lr_schedule (TORCH_CHECK; config validation rejects unknown
// names earlier).
const ScheduleSpec& schedule_spec(const config::TrainingConfig& training);

// The learning rate of update `step` (0-based) of `total` planned updates when the schedule's
// base rate is `lr` (the configured rate, or plateau's reduced one): the warm-up, then the
// schedule's formula above.
double scheduled_learning_rate(const config::TrainingConfig& training, int64_t step, int64_t total,
                               double lr);

}  // namespace s2s::train
