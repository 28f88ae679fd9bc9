#include "device/precision.h"

#include <ATen/autocast_mode.h>
#include <fmt/format.h>

#include <algorithm>
#include <chrono>

#include "config/choices.h"
#include "util/error.h"
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

namespace {

// int8 decoding: the instructions that make int8 products pay, and the engine that runs them.
void detect_int8(Capabilities& c, const std::string& flags) {
  const auto& engines = at::globalContext().supportedQEngines();
  if (std::find(engines.begin(), engines.end(), at::QEngine::ONEDNN) == engines.end()) {
    c.int8_why = "this LibTorch has no onednn quantized engine";
    return;
  }
  for (const char* flag : {"amx_int8", "avx512_vnni", "avx_vnni"}) {
    if (util::has_cpu_flags(flags, {flag})) {
      c.native_int8 = true;
      c.int8_why = std::string("this CPU has ") + flag;
      return;
    }
  }
  c.int8_why = "this CPU has none of amx_int8, avx512_vnni, avx_vnni";
}

}  // namespace

Capabilities detect_capabilities(torch::Device device) {
  Capabilities c;
  if (device.is_cuda()) {
    c.int8_why = "int8 decoding runs on a CPU only";
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
  detect_int8(c, flags);
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

namespace {

// What "auto" picks bf16 on, and what int8 decoding runs its other products in bf16 on.
bool auto_picks_bf16(const Capabilities& c) { return c.native_bf16 && c.bf16_pays; }

}  // namespace

bool int8_rest_in_bf16(torch::Device device) {
  if (device.is_cuda()) return false;
  static const bool pays = auto_picks_bf16(detect_capabilities(torch::kCPU));
  return pays;
}

PrecisionChoice choose_precision(const std::string& name, const Capabilities& capabilities,
                                 const std::string& key) {
  PrecisionChoice choice;
  const auto mode = config::precision_mode(name, key.c_str());
  if (mode == config::PrecisionMode::kInt8) {
    if (!capabilities.native_int8) {
      throw ConfigError(key + " int8 is not offered here: " + capabilities.int8_why);
    }
    choice.precision = Precision::kInt8;
    const bool bf16 = auto_picks_bf16(capabilities);
    choice.description = "int8 (asked for; " + capabilities.int8_why + "; the other products in " +
                         (bf16 ? "bf16" : "fp32") + ")";
  } else if (mode == config::PrecisionMode::kFp32) {
    choice.description = "fp32 (asked for)";
  } else if (mode == config::PrecisionMode::kBf16) {
    choice.precision = Precision::kBf16;
    choice.emulated = !capabilities.native_bf16;
    choice.description = "bf16 mixed precision (asked for; " + capabilities.why + ")";
  } else {
    const bool bf16 = auto_picks_bf16(capabilities);
    choice.precision = bf16 ? Precision::kBf16 : Precision::kFp32;
    choice.description =
        std::string(bf16 ? "bf16 mixed precision" : "fp32") + " (auto: " + capabilities.why + ")";
  }
  return choice;
}

std::string to_string(Precision precision) {
  switch (precision) {
    case Precision::kBf16:
      return "bf16";
    case Precision::kInt8:
      return "int8";
    default:
      return "fp32";
  }
}

AutocastGuard::AutocastGuard(torch::Device device, Precision precision)
    : active_(precision == Precision::kBf16 ||
              (precision == Precision::kInt8 && int8_rest_in_bf16(device))),
      cuda_(device.is_cuda()) {
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
