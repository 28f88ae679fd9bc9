#include "device/precision.h"

#include <ATen/autocast_mode.h>
#include <fmt/format.h>

#include <algorithm>
#include <chrono>

#include "config/choices.h"
#include "util/system.h"

#if S2S_CUDA
#include <ATen/cuda/CUDAContext.h>
#endif

namespace s2s::device {
namespace {

// GFLOP/s of a [512 x 512] x [512 x 4096] product (the shape class of the output layer; smaller
// ones favour bf16 by thread start-up) on the CPU in `dtype`: the best of 5 after 2 warm-ups
// (oneDNN compiles its bf16 kernels on the first call). Constant inputs: the global generator,
// seeded for training, is not touched.
double cpu_product_gflops(torch::ScalarType dtype) {
  constexpr int64_t m = 512, k = 512, n = 4096;
  const auto a = torch::full({m, k}, 0.5, torch::dtype(dtype));
  const auto b = torch::full({k, n}, 0.25, torch::dtype(dtype));
  double best = 1e30;
  for (int i = 0; i < 7; ++i) {
    const auto start = std::chrono::steady_clock::now();
    const auto c = torch::mm(a, b);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (i >= 2) best = std::min(best, seconds);
  }
  return 2.0 * m * k * n / std::max(best, 1e-9) / 1e9;
}

}  // namespace

void judge_bf16_speed(Capabilities& capabilities, double fp32_gflops, double bf16_gflops) {
  capabilities.bf16_pays = bf16_gflops >= kBf16Pays * fp32_gflops;
  capabilities.why += fmt::format(
      "; its products run at {:.0f} GFLOP/s in bf16, {:.0f} in fp32{}", bf16_gflops, fp32_gflops,
      capabilities.bf16_pays ? "" : fmt::format(": bf16 pays from {}x", kBf16Pays));
}

Capabilities detect_capabilities(torch::Device device) {
  Capabilities c;
  if (device.is_cuda()) {
#if S2S_CUDA
    const auto* p = at::cuda::getDeviceProperties(device.has_index() ? device.index() : 0);
    c.native_bf16 = p->major >= 8;
    c.why = "CUDA compute capability " + std::to_string(p->major) + "." + std::to_string(p->minor);
#else
    c.why = "CUDA capability unknown to this build";
#endif
    return c;
  }
  const auto flags = util::cpu_flags();
  for (const char* flag : {"amx_bf16", "avx512_bf16"}) {
    if (util::has_cpu_flags(flags, {flag})) {
      c.native_bf16 = true;
      c.why = std::string("this CPU has ") + flag;
      static const double fp32 = cpu_product_gflops(torch::kFloat);  // once per process
      static const double bf16 = cpu_product_gflops(torch::kBFloat16);
      judge_bf16_speed(c, fp32, bf16);
      return c;
    }
  }
  c.why = "this CPU has neither avx512_bf16 nor amx_bf16";
  return c;
}

PrecisionChoice choose_precision(const std::string& name, const Capabilities& capabilities) {
  PrecisionChoice choice;
  const auto mode = config::precision_mode(name, "precision");
  if (mode == config::PrecisionMode::kFp32) {
    choice.description = "fp32 (asked for)";
  } else if (mode == config::PrecisionMode::kBf16) {
    choice.precision = Precision::kBf16;
    choice.emulated = !capabilities.native_bf16;
    choice.description = "bf16 mixed precision (asked for; " + capabilities.why + ")";
  } else {
    const bool bf16 = capabilities.native_bf16 && capabilities.bf16_pays;
    choice.precision = bf16 ? Precision::kBf16 : Precision::kFp32;
    choice.description =
        std::string(bf16 ? "bf16 mixed precision" : "fp32") + " (auto: " + capabilities.why + ")";
  }
  return choice;
}

std::string to_string(Precision precision) {
  return precision == Precision::kBf16 ? "bf16" : "fp32";
}

AutocastGuard::AutocastGuard(torch::Device device, Precision precision)
    : active_(precision == Precision::kBf16), cuda_(device.is_cuda()) {
  if (!active_) return;
  if (cuda_) {
    was_enabled_ = at::autocast::is_enabled();
    old_dtype_ = at::autocast::get_autocast_gpu_dtype();
    at::autocast::set_autocast_gpu_dtype(at::kBFloat16);
    at::autocast::set_enabled(true);
  } else {
    was_enabled_ = at::autocast::is_cpu_enabled();
    old_dtype_ = at::autocast::get_autocast_cpu_dtype();
    at::autocast::set_autocast_cpu_dtype(at::kBFloat16);
    at::autocast::set_cpu_enabled(true);
  }
  at::autocast::increment_nesting();
}

AutocastGuard::~AutocastGuard() {
  if (!active_) return;
  // The bf16 copies of the weights live as long as the outermost autocast region.
  if (at::autocast::decrement_nesting() == 0) at::autocast::clear_cache();
  if (cuda_) {
    at::autocast::set_enabled(was_enabled_);
    at::autocast::set_autocast_gpu_dtype(old_dtype_);
  } else {
    at::autocast::set_cpu_enabled(was_enabled_);
    at::autocast::set_autocast_cpu_dtype(old_dtype_);
  }
}

}  // namespace s2s::device
