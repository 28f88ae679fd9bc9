#pragma once
// Optimizers, chosen by `training.optimizer` from one registry, and the learning-rate setter the
// schedule uses. The trainer and the benchmark build theirs here.

#include <torch/torch.h>

#include <memory>
#include <string>
#include <vector>

#include "config/config.h"

namespace s2s::train {

// One optimizer of the registry: its name and how a config builds it.
struct OptimizerSpec {
  const char* name;
  std::unique_ptr<torch::optim::Optimizer> (*make)(const config::TrainingConfig& training,
                                                   std::vector<torch::Tensor> params);
};

// The registry, in the order help texts and errors list it.
const std::vector<OptimizerSpec>& optimizer_registry();
std::vector<std::string> optimizer_names();

// The optimizer named by training.optimizer (TORCH_CHECK; config validation rejects unknown
// names earlier).
std::unique_ptr<torch::optim::Optimizer> make_optimizer(const config::TrainingConfig& training,
                                                        std::vector<torch::Tensor> params);

void set_learning_rate(torch::optim::Optimizer& optimizer, double lr);

// The learning rate of update `step` (0-based) of `total` planned updates when the schedule's
// base rate is `lr` (the configured rate, or plateau's reduced one). With W = warmup_steps:
//   warm-up, step < W:           lr * (step + 1) / W
//   inverse_sqrt, step >= W:     lr * sqrt(W / (step + 1))   (Vaswani et al. 2017, fairseq)
//   cosine, step >= W:           m + (lr - m) * (1 + cos(pi * p)) / 2 with m = min_lr and
//                                p = (step + 1 - W) / (total - W): lr down to min_lr at the last
//                                update (Loshchilov & Hutter 2017 without restarts)
//   constant and plateau after:  lr
double scheduled_learning_rate(const config::TrainingConfig& training, int64_t step, int64_t total,
                               double lr);

}  // namespace s2s::train
