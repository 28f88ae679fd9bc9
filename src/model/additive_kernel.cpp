#include "model/additive_kernel.h"

#include <omp.h>

#include <vector>

#include "platform/vector_math.h"

namespace s2s::model {
namespace {

// Below this many energies a step runs on one thread: waking the others costs more.
constexpr int64_t kParallelEnergies = 16384;

// Row i of the forward, keeping the energies when asked.
S2S_VECTOR_CLONES void forward_row(const float* keys, const float* u, const float* v, int64_t len,
                                   int64_t hidden, float* energy, float* scores) {
  for (int64_t s = 0; s < len; ++s) {
    const float* k = keys + s * hidden;
    float dot = 0.0f;
    if (energy != nullptr) {
      float* e = energy + s * hidden;
#pragma omp simd reduction(+ : dot)
      for (int64_t a = 0; a < hidden; ++a) {
        e[a] = platform::tanh_approx(k[a] + u[a]);
        dot += v[a] * e[a];
      }
    } else {
#pragma omp simd reduction(+ : dot)
      for (int64_t a = 0; a < hidden; ++a) dot += v[a] * platform::tanh_approx(k[a] + u[a]);
    }
    scores[s] = dot;
  }
}

// Row i of the backward: d_keys_s += da_s, d_u = sum_s da_s, d_v += sum_s d_s e_s.
S2S_VECTOR_CLONES void backward_row(const float* energy, const float* v, const float* d_scores,
                                    int64_t len, int64_t hidden, float* d_keys, float* d_u,
                                    float* d_v) {
#pragma omp simd
  for (int64_t a = 0; a < hidden; ++a) d_u[a] = 0.0f;
  for (int64_t s = 0; s < len; ++s) {
    const float d = d_scores[s];
    if (d == 0.0f) continue;  // weight 0 (padding, or off a sparse support) adds nothing
    const float* e = energy + s * hidden;
    float* dk = d_keys + s * hidden;
#pragma omp simd
    for (int64_t a = 0; a < hidden; ++a) {
      const float da = d * v[a] * (1.0f - e[a] * e[a]);
      dk[a] += da;
      d_u[a] += da;
      d_v[a] += d * e[a];
    }
  }
}

}  // namespace

void additive_kernel_forward(const float* keys, const float* u, const float* v,
                             const AdditiveKernelShape& shape, float* energy, float* scores) {
  const int64_t len = shape.len, hidden = shape.hidden, row_size = len * hidden;
#pragma omp parallel for schedule(static) if (shape.rows * row_size >= kParallelEnergies)
  for (int64_t i = 0; i < shape.rows; ++i) {
    forward_row(keys + i * row_size, u + i * hidden, v, len, hidden,
                energy != nullptr ? energy + i * row_size : nullptr, scores + i * len);
  }
}

void additive_kernel_backward(const float* energy, const float* v, const float* d_scores,
                              const AdditiveKernelShape& shape, float* d_keys, float* d_u,
                              float* d_v) {
  const int64_t len = shape.len, hidden = shape.hidden, row_size = len * hidden;
  const bool parallel = shape.rows * row_size >= kParallelEnergies;
  const int threads = parallel ? omp_get_max_threads() : 1;
  // Each thread sums its rows' d_v apart; the partial sums are added in thread order after, so
  // the result does not depend on which thread finished first.
  std::vector<float> partial(static_cast<std::size_t>(threads * hidden), 0.0f);
#pragma omp parallel num_threads(threads) if (parallel)
  {
    float* mine = partial.data() + omp_get_thread_num() * hidden;
#pragma omp for schedule(static)
    for (int64_t i = 0; i < shape.rows; ++i) {
      backward_row(energy + i * row_size, v, d_scores + i * len, len, hidden, d_keys + i * row_size,
                   d_u + i * hidden, mine);
    }
  }
  for (int64_t a = 0; a < hidden; ++a) {
    float sum = 0.0f;
    for (int t = 0; t < threads; ++t) sum += partial[static_cast<std::size_t>(t * hidden + a)];
    d_v[a] = sum;
  }
}

}  // namespace s2s::model
