#include "loss/cross_entropy_kernel.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "platform/vector_math.h"

namespace s2s::loss {
namespace {

using platform::exp_nonpositive;

using platform::widen;

// The gradient in the logits' type (bf16 rounded to nearest even; the loss checks finiteness
// upstream).
template <typename T>
S2S_INLINE T narrow(float x);
template <>
S2S_INLINE float narrow<float>(float x) {
  return x;
}
template <>
S2S_INLINE uint16_t narrow<uint16_t>(float x) {
  return platform::to_bf16(x);
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

// The rows read and write x[gold] unchecked, so every gold index is checked here, once, before
// the parallel loop (an exception must not leave an OpenMP region): O(N) beside the O(N V)
// rows. Padding rows hold a real index too (Vocab::kPad, masked by the caller), so no index is
// exempt.
void check_gold(const CrossEntropyRows& r) {
  for (int64_t i = 0; i < r.rows; ++i) {
    const int64_t gold = r.gold[i];
    if (gold < 0 || gold >= r.vocab) {
      throw std::out_of_range(
          "cross-entropy: gold index " + std::to_string(gold) + " of row " + std::to_string(i) +
          " is outside the vocabulary [0, V) with V = " + std::to_string(r.vocab));
    }
  }
}

template <typename T>
void forward(const T* logits, const CrossEntropyRows& r, float* nll, float* uniform) {
  check_gold(r);
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < r.rows; ++i) {
    row_forward(logits + i * r.vocab, r.vocab, r.gold[i], r.lse[i], nll[i], uniform[i]);
  }
}

template <typename T>
void backward(const T* logits, const CrossEntropyRows& r, const float* d_nll,
              const float* d_uniform, T* grad) {
  check_gold(r);
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

}  // namespace s2s::loss
