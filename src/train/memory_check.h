#pragma once
// What a training will hold, checked at start-up against the memory available: the weights,
// gradients and optimizer state, the activations of the largest training batch, and the
// validation search (model/memory_model.h). A refusal is a ConfigError naming the keys to
// change, before the model is built.

#include <torch/torch.h>

#include "config/config.h"
#include "train/training_data.h"

namespace s2s::train {

void check_memory(const config::Config& config, const TrainingData& data, torch::Device device);

}  // namespace s2s::train
