#pragma once
// One decoder step of the additive score (model/scorer.h) as one pass each way, for the CPU in
// fp32. Torch-free, so that it compiles with OpenMP and per-CPU vector code, without the
// precompiled torch header.
//
// Row i of r, position s of S, hidden size A; k = W k the projected keys, u = U q the projected
// query, v the energy weights:
//   e_is = tanh(k_is + u_i) [A],  score_is = v . e_is
// and, given d_is = dL/dscore_is:
//   da_is = d_is v * (1 - e_is^2)      dL/dk_is = da_is,  dL/du_i = sum_s da_is,
//   dL/dv = sum_is d_is e_is.
// Recorded op by op (add, tanh, product with v; square, subtract, two multiplies, sum, the
// product for dv and the sum into the keys' buffer) the same takes about ten passes over the
// [r, S, A] energies at every step, the largest tensors of a step.

#include <cstdint>

namespace s2s::model {

struct AdditiveStep {
  int64_t rows = 0, len = 0, hidden = 0;  // r, S, A
};

// keys [r, S, A] (the first r rows of the shared keys), u [r, A], v [A] -> scores [r, S]; the
// energies e [r, S, A] when `energy` is not null (training keeps them for the backward).
void additive_step_forward(const float* keys, const float* u, const float* v,
                           const AdditiveStep& shape, float* energy, float* scores);

// energy [r, S, A], v [A], d_scores [r, S] -> d_keys [r, S, A] += dL/dk (the shared buffer),
// d_u [r, A] = dL/du, d_v [A] = dL/dv.
void additive_step_backward(const float* energy, const float* v, const float* d_scores,
                            const AdditiveStep& shape, float* d_keys, float* d_u, float* d_v);

}  // namespace s2s::model
