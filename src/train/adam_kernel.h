#pragma once
// One Adam update of a parameter as one pass over its memory (train/adam.h uses it). Torch-free,
// so that it compiles with OpenMP and without the precompiled torch header.
//
// Per element, with the scalars of the update (t its 1-based count):
//   g' = c g + wd p,  c the gradient's scale (clipping's coefficient, 1 without)
//   m  = b1 m + (1 - b1) g'
//   v  = b2 v + (1 - b2) g'^2
//   p  = p - step_size m / (sqrt(v) / sqrt_bc2 + eps),  step_size = lr / (1 - b1^t),
//                                                       sqrt_bc2 = sqrt(1 - b2^t)
// the equations and the order of operations of LibTorch's optim::Adam (Kingma & Ba 2015, Alg. 1
// with epsilon outside the bias-corrected root).

#include <cstdint>

namespace s2s::train {

struct AdamScalars {
  double beta1, beta2, eps, weight_decay;
  double step_size;         // lr / (1 - beta1^t)
  double sqrt_bc2;          // sqrt(1 - beta2^t)
  double grad_scale = 1.0;  // c, as a value of the parameters' type (clipping's coefficient)
};

// p, g, m, v: n contiguous elements each. Parallel over the OpenMP threads for large n.
void adam_update(float* p, const float* g, float* m, float* v, int64_t n, const AdamScalars& s);
void adam_update(double* p, const double* g, double* m, double* v, int64_t n, const AdamScalars& s);

}  // namespace s2s::train
