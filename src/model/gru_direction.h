#pragma once
// One direction of one encoder GRU layer (equations: model/gru.h) over rows sorted by length,
// as a single autograd node: the forward steps and the backward through time are written out
// here rather than recorded op by op. Recorded, each step leaves a dozen small nodes, and the
// backward adds every step's [3H, H] weight gradient into W_hh's on its own; here the weight
// gradient is one product over all steps, as cuDNN computes it (measured in README
// "Performance"). The input projections gi = W_ih x + b_ih of all steps come in as one product
// (model/gru.cpp), and their gradient dgi goes out as one, so W_ih's gradient is one product too.
//
// Shapes: B batch (rows sorted by length, longest first), S steps, H hidden size; B_t <= B the
// rows still inside their sentence at step t.

#include <torch/torch.h>

#include <vector>

namespace s2s::model {

struct GruDirectionOutput {
  torch::Tensor states;  // [B, S, H] fp32, zeros where a row is past its sentence
  torch::Tensor final;   // [B, H] each row's state after its own last step in this direction
};

// gi_all [B, S, 3H] every step's input projection (either precision); active[t] = B_t, the rows
// inside their sentence at step t, a prefix of the batch. Rows outside keep their state (left to
// right) or their zero start (right to left). `bf16`: the hidden products W_hh h and dgh W_hh
// run in bf16 (W_hh cast once per call); the gates, the states and all gradients stay fp32.
GruDirectionOutput gru_direction(const torch::Tensor& gi_all, const torch::Tensor& w_hh,
                                 const torch::Tensor& b_hh, const std::vector<int64_t>& active,
                                 bool reverse, bool bf16);

}  // namespace s2s::model
