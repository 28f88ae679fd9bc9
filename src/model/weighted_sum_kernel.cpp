#include "model/weighted_sum_kernel.h"

#include "platform/vector_math.h"

namespace s2s::model {
namespace {

// Below this many values a step runs on one thread: waking the others costs more.
constexpr int64_t kParallelValues = 16384;

S2S_VECTOR_CLONES void forward_row(const float* mix, const float* values, int64_t len, int64_t size,
                                   float* context) {
#pragma omp simd
  for (int64_t d = 0; d < size; ++d) context[d] = 0.0f;
  for (int64_t s = 0; s < len; ++s) {
    const float a = mix[s];  // 0 at padding; still multiplied, as bmm does (NaN stays NaN)
    const float* v = values + s * size;
#pragma omp simd
    for (int64_t d = 0; d < size; ++d) context[d] += a * v[d];
  }
}

S2S_VECTOR_CLONES void backward_row(const float* mix, const float* values, const float* g,
                                    int64_t len, int64_t size, float* d_mix, float* d_values) {
  for (int64_t s = 0; s < len; ++s) {
    const float a = mix[s];
    const float* v = values + s * size;
    float* dv = d_values + s * size;
    float dot = 0.0f;
#pragma omp simd reduction(+ : dot)
    for (int64_t d = 0; d < size; ++d) {
      dot += g[d] * v[d];
      dv[d] += a * g[d];
    }
    d_mix[s] = dot;
  }
}

}  // namespace

void weighted_sum_forward(const float* mix, const float* values, const WeightedSumShape& shape,
                          float* context) {
  const int64_t len = shape.len, size = shape.size, row_size = len * size;
#pragma omp parallel for schedule(static) if (shape.rows * row_size >= kParallelValues)
  for (int64_t i = 0; i < shape.rows; ++i) {
    forward_row(mix + i * len, values + i * row_size, len, size, context + i * size);
  }
}

void weighted_sum_backward(const float* mix, const float* values, const float* g,
                           const WeightedSumShape& shape, float* d_mix, float* d_values) {
  const int64_t len = shape.len, size = shape.size, row_size = len * size;
#pragma omp parallel for schedule(static) if (shape.rows * row_size >= kParallelValues)
  for (int64_t i = 0; i < shape.rows; ++i) {
    backward_row(mix + i * len, values + i * row_size, g + i * size, len, size, d_mix + i * len,
                 d_values + i * row_size);
  }
}

}  // namespace s2s::model
