#include "model/gru_kernel.h"

#include "platform/vector_math.h"

namespace s2s::model {
namespace {

using platform::widen;

// Below this many hidden units (rows x H) a step runs on one thread: waking the others costs
// more than they save.
constexpr int64_t kParallelUnits = 8192;

template <bool kSave, typename T>
S2S_INLINE void forward_row(const T* gi, const T* gh, const float* h, int64_t hidden, float* saved,
                            float* next) {
#pragma omp simd
  for (int64_t k = 0; k < hidden; ++k) {
    const float rk = platform::sigmoid_approx(widen(gi[k]) + widen(gh[k]));
    const float zk = platform::sigmoid_approx(widen(gi[hidden + k]) + widen(gh[hidden + k]));
    const float gh_nk = widen(gh[2 * hidden + k]);
    const float nk = platform::tanh_approx(widen(gi[2 * hidden + k]) + rk * gh_nk);
    if (kSave) {  // r, z, n, gh_n
      saved[k] = rk;
      saved[hidden + k] = zk;
      saved[2 * hidden + k] = nk;
      saved[3 * hidden + k] = gh_nk;
    }
    next[k] = nk + zk * (h[k] - nk);
  }
}

// One row of the forward; `saved` may be null (decoding).
template <typename T>
S2S_INLINE void forward_row(const T* gi, const T* gh, const float* h, int64_t hidden, float* saved,
                            float* next) {
  if (saved != nullptr) {
    forward_row<true>(gi, gh, h, hidden, saved, next);
  } else {
    forward_row<false>(gi, gh, h, hidden, saved, next);
  }
}

S2S_VECTOR_CLONES void row_forward(const float* gi, const float* gh, const float* h, int64_t hidden,
                                   float* saved, float* next) {
  forward_row(gi, gh, h, hidden, saved, next);
}
S2S_VECTOR_CLONES void row_forward(const uint16_t* gi, const uint16_t* gh, const float* h,
                                   int64_t hidden, float* saved, float* next) {
  forward_row(gi, gh, h, hidden, saved, next);
}

template <bool kExtra>
S2S_INLINE void backward_row(const float* d_next, const float* d_next_extra, const float* saved,
                             const float* h, int64_t hidden, float* d_gi, float* d_gh, float* d_h) {
  const float *r = saved, *z = saved + hidden, *n = saved + 2 * hidden, *gh_n = saved + 3 * hidden;
#pragma omp simd
  for (int64_t k = 0; k < hidden; ++k) {
    const float dk = kExtra ? d_next[k] + d_next_extra[k] : d_next[k];
    const float d_n = dk * (1.0f - z[k]) * (1.0f - n[k] * n[k]);
    const float d_r = d_n * gh_n[k] * r[k] * (1.0f - r[k]);
    const float d_z = dk * (h[k] - n[k]) * z[k] * (1.0f - z[k]);
    d_gi[k] = d_r;
    d_gi[hidden + k] = d_z;
    d_gi[2 * hidden + k] = d_n;
    d_gh[k] = d_r;
    d_gh[hidden + k] = d_z;
    d_gh[2 * hidden + k] = d_n * r[k];
    d_h[k] = dk * z[k];
  }
}

// One row of the backward; `d_next_extra` may be null, the bf16 copies too (both or neither).
S2S_VECTOR_CLONES void row_backward(const float* d_next, const float* d_next_extra,
                                    const float* saved, const float* h, int64_t hidden, float* d_gi,
                                    float* d_gh, float* d_h, uint16_t* d_gi_bf16,
                                    uint16_t* d_gh_bf16) {
  if (d_next_extra != nullptr) {
    backward_row<true>(d_next, d_next_extra, saved, h, hidden, d_gi, d_gh, d_h);
  } else {
    backward_row<false>(d_next, d_next_extra, saved, h, hidden, d_gi, d_gh, d_h);
  }
  if (d_gi_bf16 == nullptr) return;
#pragma omp simd
  for (int64_t k = 0; k < 3 * hidden; ++k) {
    d_gi_bf16[k] = platform::to_bf16(d_gi[k]);
    d_gh_bf16[k] = platform::to_bf16(d_gh[k]);
  }
}

template <typename T>
void forward(const T* gi, const T* gh, const float* h, const GruKernelShape& shape, float* saved,
             float* next) {
  const int64_t hidden = shape.hidden;
#pragma omp parallel for schedule(static) if (shape.rows * hidden >= kParallelUnits)
  for (int64_t i = 0; i < shape.rows; ++i) {
    row_forward(gi + i * shape.gi_stride, gh + i * 3 * hidden, h + i * hidden, hidden,
                saved != nullptr ? saved + i * 4 * hidden : nullptr, next + i * hidden);
  }
}

}  // namespace

void gru_kernel_forward(const float* gi, const float* gh, const float* h,
                        const GruKernelShape& shape, float* saved, float* next) {
  forward(gi, gh, h, shape, saved, next);
}

void gru_kernel_forward(const uint16_t* gi, const uint16_t* gh, const float* h,
                        const GruKernelShape& shape, float* saved, float* next) {
  forward(gi, gh, h, shape, saved, next);
}

void gru_kernel_backward(const float* d_next, const float* d_next_extra,
                         int64_t d_next_extra_stride, const float* saved, const float* h,
                         const GruKernelShape& shape, const GruKernelGrads& out) {
  const int64_t hidden = shape.hidden, gates = 3 * hidden;
  const bool bf16 = out.d_gi_bf16 != nullptr && out.d_gh_bf16 != nullptr;
#pragma omp parallel for schedule(static) if (shape.rows * hidden >= kParallelUnits)
  for (int64_t i = 0; i < shape.rows; ++i) {
    row_backward(d_next + i * hidden,
                 d_next_extra != nullptr ? d_next_extra + i * d_next_extra_stride : nullptr,
                 saved + i * 4 * hidden, h + i * hidden, hidden, out.d_gi + i * out.d_gi_stride,
                 out.d_gh + i * gates, out.d_h + i * hidden,
                 bf16 ? out.d_gi_bf16 + i * gates : nullptr,
                 bf16 ? out.d_gh_bf16 + i * gates : nullptr);
  }
}

}  // namespace s2s::model
