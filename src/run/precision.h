#pragma once
// Numeric precision: fp32, or bf16 mixed precision as users of torch.autocast know it — fp32
// master weights and optimizer state, matrix products (output layer, attention projections and
// scores, GRU input and hidden projections) in bf16, and softmax, log-softmax, the loss and the
// GRU gate non-linearities in fp32. bf16 keeps fp32's exponent range (unlike fp16), so no loss
// scaling is needed.
//
// "auto" picks bf16 where the device multiplies bf16 natively — a CPU with avx512_bf16 or AMX
// (Zen 4, Cooper Lake, Sapphire Rapids and later) or a CUDA GPU of compute capability 8.0 or
// more — and fp32 elsewhere. Asked for where it is not native, bf16 still runs, emulated and
// slow, with a warning.

#include <torch/torch.h>

#include <string>

namespace s2s::run {

enum class Precision { kFp32, kBf16 };

// Whether a device multiplies bf16 natively.
struct Capabilities {
  bool native_bf16 = false;
  std::string why;  // "this CPU has avx512_bf16", "CUDA compute capability 9.0", ...
};

// What this machine offers for `device`.
Capabilities detect_capabilities(torch::Device device);

struct PrecisionChoice {
  Precision precision = Precision::kFp32;
  std::string description;  // for the log: "bf16 (auto: this CPU has avx512_bf16)"
  bool emulated = false;    // bf16 asked for where it is not native
};

// "auto", "fp32" or "bf16" (validated by the config) on a device with `capabilities`.
PrecisionChoice choose_precision(const std::string& name, const Capabilities& capabilities);

// "fp32" or "bf16".
std::string to_string(Precision precision);

// bf16 autocast on `device` for the life of the guard when `precision` is kBf16 (nothing
// otherwise); restores the previous state and frees the cached bf16 copies of the weights.
class AutocastGuard {
 public:
  AutocastGuard(torch::Device device, Precision precision);
  ~AutocastGuard();
  AutocastGuard(const AutocastGuard&) = delete;
  AutocastGuard& operator=(const AutocastGuard&) = delete;

 private:
  bool active_ = false, cuda_ = false, was_enabled_ = false;
  at::ScalarType old_dtype_ = at::kFloat;
};

}  // namespace s2s::run
