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

// Weight-gradient products that steps leave for the collecting node: dW += sum_k a_k^T b_k,
// a_k [r_k, D_out], b_k [r_k, D_in]. Multiplied there once, as [D_out, N] x [N, D_in] with N
// the rows of every step, instead of once a step with K = r_k (a few dozen rows, where the
// product runs far below the machine's rate and the [D_out, D_in] sum is read and written
// again every step). The product runs in the pieces' type (bf16 under bf16 mixed precision)
// and is added to the fp32 sum.
struct PendingProducts : torch::CustomClassHolder {
  std::vector<torch::Tensor> left, right;  // a_k, b_k

  void add(const torch::Tensor& a, const torch::Tensor& b);
  // into += sum_k a_k^T b_k; then none are pending.
  void flush(torch::Tensor& into);
  // The object an autograd node saved with c10::IValue::make_capsule.
  static c10::intrusive_ptr<PendingProducts> from(const c10::IValue& capsule);
};

struct StepShared {
  torch::Tensor tensor;  // X [R, S, D]
  torch::Tensor grad;    // [R, S, D] the steps' gradient sum (fp32); undefined: steps record
  c10::intrusive_ptr<PendingProducts> pending;  // share_weight_across_steps only
};

// Wraps x [R, S, D]: when autograd records (grad mode on, x needing a gradient), steps that
// know the buffer (weighted_sum, the additive scorer) add their gradients into it.
StepShared share_across_steps(const torch::Tensor& x);

// The same for a weight W [D_out, D_in] whose steps add their gradients as pending products.
StepShared share_weight_across_steps(const torch::Tensor& w);

// The first r rows of a shared tensor, as a view that autograd records (for steps without an
// in-place sum of their own).
torch::Tensor step_rows(const StepShared& shared, int64_t r);

// The attention context: mix [r, S] (rows sum to 1, or one-hot), values [R >= r, S, D] ->
// context_r = sum_s mix[r, s] V[r, s, :] [r, D] over the first r rows.
torch::Tensor weighted_sum(const torch::Tensor& mix, const StepShared& values);

}  // namespace s2s::model
