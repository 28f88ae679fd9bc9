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

// The learning rate of update `step` (0-based) when the schedule's base rate is `lr` (the
// configured rate, or plateau's reduced one). With W = warmup_steps > 0:
//   warm-up, step < W:           lr * (step + 1) / W
//   inverse_sqrt, step >= W:     lr * sqrt(W / (step + 1))   (Vaswani et al. 2017, fairseq)
//   constant and plateau after:  lr
double scheduled_learning_rate(const config::TrainingConfig& training, int64_t step, double lr);

}  // namespace s2s::train
