#include "train/optimizer.h"

namespace s2s::train {

std::unique_ptr<torch::optim::Optimizer> make_optimizer(const config::TrainingConfig& t,
                                                        std::vector<torch::Tensor> params) {
  if (t.optimizer == "sgd") {
    return std::make_unique<torch::optim::SGD>(params, torch::optim::SGDOptions(t.learning_rate)
                                                           .momentum(t.momentum)
                                                           .weight_decay(t.weight_decay));
  }
  return std::make_unique<torch::optim::Adam>(
      params, torch::optim::AdamOptions(t.learning_rate).weight_decay(t.weight_decay));
}

void set_learning_rate(torch::optim::Optimizer& optimizer, double lr) {
  for (auto& group : optimizer.param_groups()) group.options().set_lr(lr);
}

}  // namespace s2s::train
