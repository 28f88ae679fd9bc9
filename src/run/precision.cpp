#include "run/precision.h"

#include <ATen/autocast_mode.h>

#include "util/system.h"

#if S2S_CUDA
#include <ATen/cuda/CUDAContext.h>
#endif

namespace s2s::run {
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
  const auto flags = " " + util::cpu_flags() + " ";
  for (const char* flag : {"amx_bf16", "avx512_bf16"}) {
    if (flags.find(std::string(" ") + flag + " ") != std::string::npos) {
      c.native_bf16 = true;
      c.why = std::string("this CPU has ") + flag;
      return c;
    }
  }
  c.why = "this CPU has neither avx512_bf16 nor amx_bf16";
  return c;
}

PrecisionChoice choose_precision(const std::string& name, const Capabilities& capabilities) {
  PrecisionChoice choice;
  if (name == "fp32") {
    choice.description = "fp32 (asked for)";
  } else if (name == "bf16") {
    choice.precision = Precision::kBf16;
    choice.emulated = !capabilities.native_bf16;
    choice.description = "bf16 mixed precision (asked for; " + capabilities.why + ")";
  } else {
    choice.precision = capabilities.native_bf16 ? Precision::kBf16 : Precision::kFp32;
    choice.description = std::string(capabilities.native_bf16 ? "bf16 mixed precision" : "fp32") +
                         " (auto: " + capabilities.why + ")";
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

}  // namespace s2s::run
