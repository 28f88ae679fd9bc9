#include "run/cross_entropy_kernel.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace s2s::run {
namespace {

// The row functions below are compiled for AVX-512, AVX2 and the baseline, one chosen once at
// load time; everything they call is inlined into each.
#define S2S_VECTOR_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#define S2S_INLINE inline __attribute__((always_inline))

S2S_INLINE float from_bits(uint32_t bits) { return __builtin_bit_cast(float, bits); }
S2S_INLINE uint32_t to_bits(float f) { return __builtin_bit_cast(uint32_t, f); }

S2S_INLINE float widen(float x) { return x; }
S2S_INLINE float widen(uint16_t bf16) { return from_bits(static_cast<uint32_t>(bf16) << 16); }

// fp32 -> bf16 rounded to nearest even (finite values; the loss checks finiteness upstream).
template <typename T>
S2S_INLINE T narrow(float x);
template <>
S2S_INLINE float narrow<float>(float x) {
  return x;
}
template <>
S2S_INLINE uint16_t narrow<uint16_t>(float x) {
  const uint32_t bits = to_bits(x);
  return static_cast<uint16_t>((bits + 0x7FFFu + ((bits >> 16) & 1u)) >> 16);
}

// exp(x) for x <= 0 as plain arithmetic the compiler vectorizes (a call to std::exp would
// not): x = k ln 2 + r, |r| <= ln(2)/2, exp(r) by Cephes' degree-6 polynomial (relative error
// about 2e-7), 2^k from the exponent bits. Below -87 (exp < 1.7e-38) it returns exp(-87).
S2S_INLINE float exp_nonpositive(float x) {
  x = std::max(x, -87.0f);
  // k = round(x / ln 2) (half away from zero): truncation of a value <= 0 shifted by -1/2.
  const auto k_int = static_cast<int32_t>(x * 1.44269504f - 0.5f);
  const auto k = static_cast<float>(k_int);
  const float r = (x - k * 0.693359375f) + k * 2.12194440e-4f;
  float p = 1.9875691500e-4f;
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  p = p * r * r + r + 1.0f;
  return p * from_bits(static_cast<uint32_t>(k_int + 127) << 23);
}

template <typename T>
S2S_INLINE void forward_row(const T* x, int64_t vocab, int64_t gold, float& lse, float& nll,
                            float& uniform) {
  float top = -std::numeric_limits<float>::infinity();
#pragma omp simd reduction(max : top)
  for (int64_t v = 0; v < vocab; ++v) top = std::max(top, widen(x[v]));
  // Sums in double: summed in order over thousands of words (unvectorized builds), fp32 ones
  // drift by 1e-5 relative, which the gradient p = exp(x - lse) carries.
  double sum_exp = 0.0, sum = 0.0;
#pragma omp simd reduction(+ : sum_exp, sum)
  for (int64_t v = 0; v < vocab; ++v) {
    const float xv = widen(x[v]);
    sum_exp += static_cast<double>(exp_nonpositive(xv - top));
    sum += static_cast<double>(xv);
  }
  lse = top + static_cast<float>(std::log(sum_exp));
  nll = lse - widen(x[gold]);
  uniform = lse - static_cast<float>(sum / static_cast<double>(vocab));
}

template <typename T>
S2S_INLINE void backward_row(const T* x, int64_t vocab, int64_t gold, float lse, float a, float b,
                             T* grad) {
  const float scale = a + b, floor = b / static_cast<float>(vocab);
#pragma omp simd
  for (int64_t v = 0; v < vocab; ++v) {
    grad[v] = narrow<T>(scale * exp_nonpositive(widen(x[v]) - lse) - floor);
  }
  grad[gold] = narrow<T>(scale * exp_nonpositive(widen(x[gold]) - lse) - floor - a);
}

S2S_VECTOR_CLONES void row_forward(const float* x, int64_t vocab, int64_t gold, float& lse,
                                   float& nll, float& uniform) {
  forward_row(x, vocab, gold, lse, nll, uniform);
}
S2S_VECTOR_CLONES void row_forward(const uint16_t* x, int64_t vocab, int64_t gold, float& lse,
                                   float& nll, float& uniform) {
  forward_row(x, vocab, gold, lse, nll, uniform);
}
S2S_VECTOR_CLONES void row_backward(const float* x, int64_t vocab, int64_t gold, float lse, float a,
                                    float b, float* grad) {
  backward_row(x, vocab, gold, lse, a, b, grad);
}
S2S_VECTOR_CLONES void row_backward(const uint16_t* x, int64_t vocab, int64_t gold, float lse,
                                    float a, float b, uint16_t* grad) {
  backward_row(x, vocab, gold, lse, a, b, grad);
}

template <typename T>
void forward(const T* logits, const CrossEntropyRows& r, float* nll, float* uniform) {
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < r.rows; ++i) {
    row_forward(logits + i * r.vocab, r.vocab, r.gold[i], r.lse[i], nll[i], uniform[i]);
  }
}

template <typename T>
void backward(const T* logits, const CrossEntropyRows& r, const float* d_nll,
              const float* d_uniform, T* grad) {
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < r.rows; ++i) {
    row_backward(logits + i * r.vocab, r.vocab, r.gold[i], r.lse[i], d_nll[i], d_uniform[i],
                 grad + i * r.vocab);
  }
}

}  // namespace

void cross_entropy_forward(const float* logits, const CrossEntropyRows& r, float* nll,
                           float* uniform) {
  forward(logits, r, nll, uniform);
}
void cross_entropy_forward(const uint16_t* logits, const CrossEntropyRows& r, float* nll,
                           float* uniform) {
  forward(logits, r, nll, uniform);
}
void cross_entropy_backward(const float* logits, const CrossEntropyRows& r, const float* d_nll,
                            const float* d_uniform, float* grad) {
  backward(logits, r, d_nll, d_uniform, grad);
}
void cross_entropy_backward(const uint16_t* logits, const CrossEntropyRows& r, const float* d_nll,
                            const float* d_uniform, uint16_t* grad) {
  backward(logits, r, d_nll, d_uniform, grad);
}

}  // namespace s2s::run
