#pragma once
// Numeric precision: fp32, or bf16 mixed precision as users of torch.autocast know it — fp32
// master weights and optimizer state, matrix products in bf16, and softmax, log-softmax and the
// loss in fp32. On a CPU only the output layer's product runs in bf16 (model::CpuAutocastOff
// keeps the per-step products of the recurrence in fp32, where bf16 does not pay); on CUDA all
// of them, the GRU gate non-linearities staying fp32. bf16 keeps fp32's exponent range (unlike
// fp16), so no loss scaling is needed.
//
// "auto" picks bf16 where the device multiplies bf16 natively — a CPU with avx512_bf16 or AMX
// (Zen 4, Cooper Lake, Sapphire Rapids and later) or a CUDA GPU of compute capability 8.0 or
// more — and it pays: on a CPU, where a product in bf16 runs at least kBf16Pays times as fast
// as in fp32 (measured once per process, ~0.2 s). Below that the bf16 path's casts and fp32
// gate arithmetic cost more than its products gain (docs/performance.md "bf16 mixed
// precision"); a CPU whose fp32 products run on AVX-512 kernels can be faster in fp32 outright.
// fp32 elsewhere. Asked for where it is not native, bf16 still runs, emulated and slow, with a
// warning.
//
// int8 (evaluation.precision only, never chosen by "auto": its quality depends on the model,
// docs/performance.md "int8 decoding"): the decoder's output layer and GRU products with int8
// weights (model/int8_linear.h), on a CPU with int8 dot-product instructions (avx512_vnni,
// avx_vnni or amx_int8) and LibTorch's onednn quantized engine; refused elsewhere. The other
// products (encoder, attention) run in bf16 where "auto" would pick bf16, else in fp32.

#include <torch/torch.h>

#include <string>

namespace s2s::device {

enum class Precision { kFp32, kBf16, kInt8 };

// How fast bf16 products must be against fp32 ones for "auto" to pick bf16 on a CPU.
constexpr double kBf16Pays = 1.25;

// Whether a device multiplies bf16 natively, and whether that pays.
struct Capabilities {
  bool native_bf16 = false;
  bool bf16_pays = true;     // false: native, but not kBf16Pays times as fast as fp32 here
  std::string why;           // "this CPU has avx512_bf16", "CUDA compute capability 9.0", ...
  bool native_int8 = false;  // int8 decoding offered (see above)
  std::string int8_why;      // "this CPU has avx512_vnni", or why not
};

// bf16_pays and why for a CPU with native bf16 products, from the GFLOP/s of one product shape
// in fp32 and in bf16.
void judge_bf16_speed(Capabilities& capabilities, double fp32_gflops, double bf16_gflops);

// What this machine offers for `device`.
Capabilities detect_capabilities(torch::Device device);

struct PrecisionChoice {
  Precision precision = Precision::kFp32;
  std::string description;  // for the log: "bf16 (auto: this CPU has avx512_bf16)"
  bool emulated = false;    // bf16 asked for where it is not native
};

// "auto", "fp32", "bf16" or "int8" (validated by the config) on a device with `capabilities`;
// int8 where it is not offered: ConfigError naming `key` and why.
PrecisionChoice choose_precision(const std::string& name, const Capabilities& capabilities,
                                 const std::string& key = "evaluation.precision");

// "fp32", "bf16" or "int8".
std::string to_string(Precision precision);

// Whether int8 decoding on `device` runs its other products in bf16 (see above; once per process).
bool int8_rest_in_bf16(torch::Device device);

// bf16 autocast on `device` for the life of the guard when `precision` is kBf16, or kInt8 where
// int8_rest_in_bf16 (nothing otherwise; int8's own products are model::Int8Scope's); restores
// the previous state and frees the cached bf16 copies of the weights.
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

}  // namespace s2s::device
