#pragma once
// The attention context of one decoder step, context_r = sum_s a[r, s] V[r, s, :], with the
// gradient of V summed in place over all steps.
//
// V [R, S, D] is fixed for a sentence and read at every step t by the rows still decoding, a
// prefix [0, r_t). Recorded op by op, each step's backward makes dV_t = a_t^T g_t [r_t, S, D],
// pads it to [R, S, D] with zeros (the backward of the prefix view) and adds that to the running
// sum: three passes over all of V per step. Here each step adds a_t^T g_t into one buffer in
// place (baddbmm_), and the buffer becomes V's gradient once, after the last step's backward.
//
// Shapes: R rows (sentences x heads), S source length, D value size, r <= R rows of this step.

#include <torch/torch.h>

namespace s2s::model {

struct StepValues {
  torch::Tensor values;  // [R, S, D]
  torch::Tensor grad;    // [R, S, D] fp32 sum of the steps' gradients; undefined: plain bmm
};

// Wraps values [R, S, D] for weighted_sum(): when autograd records (grad mode on, values
// needing a gradient), the steps' gradients go to one buffer; otherwise nothing is added.
StepValues share_across_steps(const torch::Tensor& values);

// mix [r, S] (rows sum to 1, or one-hot), values.values [R >= r, S, D] -> context [r, D]
// over the first r rows.
torch::Tensor weighted_sum(const torch::Tensor& mix, const StepValues& values);

}  // namespace s2s::model
