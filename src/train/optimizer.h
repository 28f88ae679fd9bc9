#pragma once
// Optimizers, chosen by `training.optimizer` from one registry, and the learning-rate setter the
// schedules (train/schedule.h) use. The trainer and the benchmark build theirs here.

#include <torch/torch.h>

#include <memory>
#include <string>
#include <vector>

#include "config/config.h"
#include "train/schedule.h"  // the rate set_learning_rate sets

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

}  // namespace s2s::train
