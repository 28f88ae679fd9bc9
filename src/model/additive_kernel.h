#pragma once
// One decoder step of the additive score (equations: model/additive_step.h) as one pass each
// way, for the CPU in fp32. Torch-free, so that it compiles with OpenMP and per-CPU vector code,
// without the precompiled torch header. Recorded op by op (add, tanh, product with v; square,
// subtract, two multiplies, sum, the product for dv and the sum into the keys' buffer) the same
// takes about ten passes over the [r, S, A] energies at every step, the largest tensors of a
// step.
//
// Shapes: r rows of the step, S source length, A energy size.

#include <cstdint>

namespace s2s::model {

struct AdditiveKernelShape {
  int64_t rows = 0, len = 0, hidden = 0;  // r, S, A
};

// keys [r, S, A] (the first r rows of the shared keys), u [r, A], v [A] -> scores [r, S]; the
// energies e [r, S, A] when `energy` is not null (training keeps them for the backward).
void additive_kernel_forward(const float* keys, const float* u, const float* v,
                             const AdditiveKernelShape& shape, float* energy, float* scores);

// energy [r, S, A], v [A], d_scores [r, S] -> d_keys [r, S, A] += dL/dk (the shared buffer),
// d_u [r, A] = dL/du, d_v [A] = dL/dv.
void additive_kernel_backward(const float* energy, const float* v, const float* d_scores,
                              const AdditiveKernelShape& shape, float* d_keys, float* d_u,
                              float* d_v);

}  // namespace s2s::model
