#pragma once
// Per-sentence tensors that every decoder step reads (the attention values V, the additive
// scorer's projected keys W k), with their gradients summed in place over the steps.
//
// Such a tensor X [R, S, D] is read at step t by the rows still decoding, a prefix [0, r_t).
// Recorded op by op, each step's backward makes its dX_t [r_t, S, D], pads it to [R, S, D] with
// zeros (the backward of the prefix view) and adds that to the running sum: three passes over
// all of X per step. Here each step adds dX_t into one buffer in place, and the buffer becomes
// X's gradient once, after the last step's backward (the collecting node sits before every
// step in the graph, so autograd runs it after all of them).
//
// Shapes: R rows (sentences x heads), S source length, D feature size, r <= R rows of a step.

#include <torch/torch.h>

namespace s2s::model {

struct StepShared {
  torch::Tensor tensor;  // X [R, S, D]
  torch::Tensor grad;    // [R, S, D] the steps' gradient sum (fp32); undefined: steps record
};

// Wraps x [R, S, D]: when autograd records (grad mode on, x needing a gradient), steps that
// know the buffer (weighted_sum, the additive scorer) add their gradients into it.
StepShared share_across_steps(const torch::Tensor& x);

// The first r rows of a shared tensor, as a view that autograd records (for steps without an
// in-place sum of their own).
torch::Tensor step_rows(const StepShared& shared, int64_t r);

// The attention context: mix [r, S] (rows sum to 1, or one-hot), values [R >= r, S, D] ->
// context_r = sum_s mix[r, s] V[r, s, :] [r, D] over the first r rows.
torch::Tensor weighted_sum(const torch::Tensor& mix, const StepShared& values);

}  // namespace s2s::model
