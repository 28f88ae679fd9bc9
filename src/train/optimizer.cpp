#include "train/optimizer.h"

#include "train/adam.h"
#include "util/strings.h"

namespace s2s::train {
namespace {

std::unique_ptr<torch::optim::Optimizer> make_adam(const config::TrainingConfig& t,
                                                   std::vector<torch::Tensor> params) {
  return std::make_unique<FusedAdam>(
      params, torch::optim::AdamOptions(t.learning_rate).weight_decay(t.weight_decay));
}

std::unique_ptr<torch::optim::Optimizer> make_sgd(const config::TrainingConfig& t,
                                                  std::vector<torch::Tensor> params) {
  return std::make_unique<torch::optim::SGD>(
      params,
      torch::optim::SGDOptions(t.learning_rate).momentum(t.momentum).weight_decay(t.weight_decay));
}

}  // namespace

const std::vector<OptimizerSpec>& optimizer_registry() {
  static const std::vector<OptimizerSpec> registry = {{"adam", make_adam}, {"sgd", make_sgd}};
  return registry;
}

std::vector<std::string> optimizer_names() {
  std::vector<std::string> names;
  for (const auto& spec : optimizer_registry()) names.emplace_back(spec.name);
  return names;
}

std::unique_ptr<torch::optim::Optimizer> make_optimizer(const config::TrainingConfig& t,
                                                        std::vector<torch::Tensor> params) {
  for (const auto& spec : optimizer_registry()) {
    if (t.optimizer == spec.name) return spec.make(t, std::move(params));
  }
  TORCH_CHECK(false, "unknown optimizer '", t.optimizer,
              "' (valid: ", util::join(optimizer_names(), ", "), ")");
}

void set_learning_rate(torch::optim::Optimizer& optimizer, double lr) {
  for (auto& group : optimizer.param_groups()) group.options().set_lr(lr);
}

}  // namespace s2s::train
