#pragma once
// The optimizer of a config (Adam or SGD) and its learning-rate setter, shared by the trainer
// and the benchmark.

#include <torch/torch.h>

#include <memory>
#include <vector>

#include "config/config.h"

namespace s2s::train {

std::unique_ptr<torch::optim::Optimizer> make_optimizer(const config::TrainingConfig& training,
                                                        std::vector<torch::Tensor> params);

void set_learning_rate(torch::optim::Optimizer& optimizer, double lr);

}  // namespace s2s::train
