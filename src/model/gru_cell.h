#pragma once
// The decoder's GRUCell step (equations: model/gru.h) as one autograd node per step, its
// backward written out and its weight gradients left as products that one product over all
// steps adds into a buffer per weight (model/step_shared.h). Recorded op by op, a step leaves a
// dozen nodes, and autograd sums its [3H, I] and [3H, H] weight gradients into the totals with a
// pass each. Without autograd (decoding) the step runs the same arithmetic without a node.
//
// Shapes: B rows (those still decoding, a prefix of the batch), I input size, H hidden size.

#include <torch/torch.h>

#include <memory>

#include "model/int8_linear.h"
#include "model/step_shared.h"

namespace s2s::model {

// One cell's weights for the steps of one batch.
struct StepCell {
  StepShared w_ih, w_hh, b_ih, b_hh;                         // [3H, I], [3H, H], [3H], [3H]
  torch::Tensor w_ih_bf16, w_hh_bf16, b_ih_bf16, b_hh_bf16;  // bf16 copies, or undefined
  // int8 decoding (model/int8_linear.h): W_ih and W_hh in int8, or null; used where no
  // gradient is recorded.
  std::shared_ptr<const Int8Weight> int8_ih, int8_hh;
};

// `bf16`: the step's four products (W_ih x, W_hh h and their backward) in bf16, the weights
// cast once here; the gates, states and gradients stay fp32.
StepCell share_cell(torch::nn::GRUCellImpl& cell, bool bf16);

// x [B, I], h [B, H] -> h' [B, H] (fp32, or double for double weights).
torch::Tensor gru_cell_step(const StepCell& cell, const torch::Tensor& x, const torch::Tensor& h);

}  // namespace s2s::model
