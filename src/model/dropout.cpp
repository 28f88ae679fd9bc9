#include "model/dropout.h"

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/Parallel.h>

#include <mutex>

namespace s2s::model {
namespace {

// splitmix64 (Steele, Lea & Flood 2014): a bijective mix of a counter, good to 64 bits.
inline uint64_t splitmix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

uint64_t next_seed() {
  auto gen = at::detail::getDefaultCPUGenerator();
  const std::lock_guard<std::mutex> lock(gen.mutex());
  return at::check_generator<at::CPUGeneratorImpl>(gen)->random64();
}

}  // namespace

torch::Tensor dropout_mask(int64_t n, double p, uint64_t seed) {
  auto mask = torch::empty({n}, torch::kFloat);
  float* out = mask.data_ptr<float>();
  // keep iff u < (1 - p) 2^32, u uniform on [0, 2^32): probability 1 - p to within 2^-32.
  const auto threshold = static_cast<uint64_t>((1.0 - p) * 4294967296.0);
  const auto kept = static_cast<float>(1.0 / (1.0 - p));
  const int64_t pairs = (n + 1) / 2;
  at::parallel_for(0, pairs, 1 << 14, [&](int64_t begin, int64_t end) {
    for (int64_t j = begin; j < end; ++j) {
      const uint64_t r = splitmix64(seed + 0x9e3779b97f4a7c15ULL * static_cast<uint64_t>(j + 1));
      out[2 * j] = (r & 0xffffffffULL) < threshold ? kept : 0.0F;
      if (2 * j + 1 < n) out[2 * j + 1] = (r >> 32) < threshold ? kept : 0.0F;
    }
  });
  return mask;
}

torch::Tensor dropout(const torch::Tensor& x, double p, bool training) {
  TORCH_CHECK(p >= 0 && p <= 1, "dropout probability has to be between 0 and 1, but got ", p);
  if (!training || p == 0 || x.numel() == 0) return x;
  if (p >= 1) return x * torch::zeros({}, x.options());
  if (!x.device().is_cpu()) {
    return torch::nn::functional::dropout(
        x, torch::nn::functional::DropoutFuncOptions().p(p).training(true));
  }
  auto mask = dropout_mask(x.numel(), p, next_seed()).view(x.sizes());
  if (x.scalar_type() != torch::kFloat) mask = mask.to(x.scalar_type());
  return x * mask;
}

torch::Tensor dropout(const torch::nn::Dropout& module, const torch::Tensor& x) {
  return model::dropout(x, module->options.p(), module->is_training());
}

}  // namespace s2s::model
