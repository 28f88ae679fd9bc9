#include "train/adam_kernel.h"

#include <cmath>

namespace s2s::train {
namespace {

// Below this many elements one thread does the update: waking the others costs more.
constexpr int64_t kParallelFrom = 1 << 15;

template <typename T>
void update(T* p, const T* g, T* m, T* v, int64_t n, const AdamScalars& s) {
  const T b1 = static_cast<T>(s.beta1), b2 = static_cast<T>(s.beta2);
  const T a1 = static_cast<T>(1 - s.beta1), a2 = static_cast<T>(1 - s.beta2);
  const T eps = static_cast<T>(s.eps), wd = static_cast<T>(s.weight_decay);
  const T step = static_cast<T>(s.step_size), root = static_cast<T>(s.sqrt_bc2);
  const T c = static_cast<T>(s.grad_scale);  // g * c rounds as grad.mul_(c) would
#pragma omp parallel for schedule(static) if (n >= kParallelFrom)
  for (int64_t i = 0; i < n; ++i) {
    const T gi = g[i] * c + wd * p[i];
    const T mi = b1 * m[i] + a1 * gi;
    const T vi = b2 * v[i] + a2 * gi * gi;
    m[i] = mi;
    v[i] = vi;
    p[i] -= step * (mi / (std::sqrt(vi) / root + eps));
  }
}

}  // namespace

void adam_update(float* p, const float* g, float* m, float* v, int64_t n, const AdamScalars& s) {
  update(p, g, m, v, n, s);
}

void adam_update(double* p, const double* g, double* m, double* v, int64_t n,
                 const AdamScalars& s) {
  update(p, g, m, v, n, s);
}

}  // namespace s2s::train
