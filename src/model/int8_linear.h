#pragma once
// int8 decoding (evaluation.precision "int8", device/precision.h): the decoder's large products
// — the output layer and the GRU cells' W_ih x and W_hh h — with int8 weights.
//
//   y = x W^T + b,  W [N, K] stored as q_nk = round(W_nk / s_n) in [-127, 127],
//   s_n = max_k |W_nk| / 127 (symmetric, one scale per output row);
//   x [M, K] quantized per call to uint8 over [-R, R] (step 2R / 255), R the smallest power of
//   two >= max |x|; the products accumulated in int32 and dequantized to fp32.
//
// The kernels are LibTorch's dynamically quantized linear (`apply_dynamic`) on its onednn
// quantized engine (the engine Debian's LibTorch has on x86; it has no FBGEMM), which runs the
// int8 products on VNNI (avx512_vnni, avx_vnni) or AMX int8 where the CPU has them. That engine
// takes x's scale from its min and max and compiles a kernel for each scale and row count it
// meets: with x's own range that is a compilation per call, and the int8 products ran no
// faster than bf16's (docs/performance.md "int8 decoding"). So x goes in with two more rows,
// -R and R, which fix its range to a power of two, and zero rows up to a multiple of
// kRowMultiple (kManyRowMultiple past kFewRows rows: teacher-forced scoring sends a batch's
// every target position at once): a few dozen kernels, compiled once. The price is at most twice
// the step of x's own range.
//
// Training never runs here: the weights stay fp32 and are quantized once, when a decoding first
// needs them, and again only after they change.
//
// Shapes: M rows (sentences or hypotheses), K input size, N output size.

#include <torch/torch.h>

#include <memory>
#include <mutex>

namespace s2s::model {

// Row counts go to the engine rounded up to a multiple of kRowMultiple, or of kManyRowMultiple
// past kFewRows.
constexpr int64_t kRowMultiple = 8;
constexpr int64_t kFewRows = 128;
constexpr int64_t kManyRowMultiple = 64;
// The smallest R (an all-zero input still gets a scale).
constexpr double kSmallestRange = 1.0 / 256;

// R above: the smallest power of two >= max |x|, at least kSmallestRange.
double input_range(const torch::Tensor& x);

// int8 decoding on this thread for the guard's lifetime when `on` (nothing otherwise): the
// decoder's products named above run in int8 while no gradient is recorded. Where int8 is
// offered is device/precision.h's to say; on: selects the onednn quantized engine.
class Int8Scope {
 public:
  explicit Int8Scope(bool on);
  ~Int8Scope();
  Int8Scope(const Int8Scope&) = delete;
  Int8Scope& operator=(const Int8Scope&) = delete;

 private:
  bool previous_ = false;
};

// Whether this thread decodes in int8 now (an Int8Scope is on and grad mode is off).
bool int8_decoding();

// One weight's int8 form, packed for the engine. Built on first use and rebuilt when the
// weight's storage or version counter changes (an optimizer step, a loaded checkpoint), so a
// model that keeps training and validating never decodes with stale weights. Safe to share
// between threads that decode with one model (`s2s serve`'s workers).
class Int8Weight {
 public:
  Int8Weight();
  ~Int8Weight();
  Int8Weight(const Int8Weight&) = delete;
  Int8Weight& operator=(const Int8Weight&) = delete;

  // x [..., K] -> x W^T + b [..., N] in fp32 (b [N] or undefined); W [N, K] fp32.
  torch::Tensor linear(const torch::Tensor& x, const torch::Tensor& weight,
                       const torch::Tensor& bias) const;

 private:
  struct Packed;
  std::shared_ptr<const Packed> packed(const torch::Tensor& weight,
                                       const torch::Tensor& bias) const;

  mutable std::mutex mutex_;
  mutable std::shared_ptr<const Packed> packed_;
};

// W's int8 rows and their scales, as Int8Weight stores them: q [N, K] int8, scales [N] fp32
// with W ~= q * scales[:, None] (for tests and the docs' error bound: |W - q s| <= s / 2).
struct Int8Rows {
  torch::Tensor q, scales;
};
Int8Rows quantize_rows(const torch::Tensor& weight);

}  // namespace s2s::model
