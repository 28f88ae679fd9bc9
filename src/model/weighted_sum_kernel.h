#pragma once
// One decoder step of the attention context, c_r = sum_s a[r, s] V[r, s, :], as one pass each way
// for the CPU in fp32 (model/step_shared.h uses it). Torch-free, so that it compiles with OpenMP
// and per-CPU vector code. Why: LibTorch's CPU bmm of [r, 1, S] x [r, S, D] runs one small
// matrix product per row, each behind a select, a dispatch and a check (three quarters of its
// time on the reference model's shapes), and the backward took a bmm for d a and a broadcast
// addcmul_ for d V.
//
// Shapes: r rows of the step, S source length, D value size.

#include <cstdint>

namespace s2s::model {

struct WeightedSumShape {
  int64_t rows = 0, len = 0, size = 0;  // r, S, D
};

// mix [r, S], values [r, S, D] -> context [r, D].
void weighted_sum_forward(const float* mix, const float* values, const WeightedSumShape& shape,
                          float* context);

// mix [r, S], values [r, S, D], g = dL/dc [r, D] -> d_mix [r, S] = g V^T per row, and
// d_values [r, S, D] += a[r, s] g[r, :] (the shared buffer, model/step_shared.h).
void weighted_sum_backward(const float* mix, const float* values, const float* g,
                           const WeightedSumShape& shape, float* d_mix, float* d_values);

}  // namespace s2s::model
