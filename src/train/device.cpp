#include "train/device.h"

#include "util/error.h"

namespace s2s::train {

torch::Device resolve_device(const std::string& name) {
  if (name == "auto") return torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  if (name == "cpu") return torch::kCPU;
  if (!torch::cuda::is_available()) {
    throw ConfigError("device: '" + name + "' asked for, but this LibTorch build sees no CUDA device");
  }
  return torch::Device(name);
}

void seed_everything(int64_t seed) { torch::manual_seed(static_cast<uint64_t>(seed)); }

void set_threads(int64_t threads) {
  if (threads > 0) torch::set_num_threads(static_cast<int>(threads));
}

}  // namespace s2s::train
