#pragma once
// "auto" | "cpu" | "cuda" | "cuda:N" -> torch::Device. Nothing else in the code assumes CPU.

#include <torch/torch.h>

#include <string>

namespace s2s::train {

// "auto" picks CUDA when available. Asking for CUDA on a machine without it is a ConfigError.
torch::Device resolve_device(const std::string& name);

// Seeds LibTorch's generators (CPU and CUDA) from the config seed.
void seed_everything(int64_t seed);

// Sets LibTorch's intra-op threads; 0 keeps the default (all cores).
void set_threads(int64_t threads);

}  // namespace s2s::train
