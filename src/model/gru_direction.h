#pragma once
// One direction of one GRU layer over rows sorted by length, as a single autograd node: the
// forward steps and the backward through time are written out here rather than recorded op by
// op. Recorded, each step leaves a dozen small nodes, and the backward adds every step's
// [3H, H] weight gradient into W_hh's on its own; here the weight gradient is one product over
// all steps, as cuDNN computes it (measured in README "Performance").
//
// Forward (PyTorch's GRU, model/gru.h), gi = W_ih x_t + b_ih given, gh = W_hh h + b_hh:
//   r = sigmoid(gi_r + gh_r),  z = sigmoid(gi_z + gh_z),  n = tanh(gi_n + r * gh_n)
//   h' = (1 - z) * n + z * h
// Backward of one step, from dh' (the state's gradient from later steps and from the output):
//   dn = dh' (1 - z) (1 - n^2),  dr = dn gh_n r (1 - r),  dz = dh' (h - n) z (1 - z)
//   dgi = [dr, dz, dn],  dgh = [dr, dz, dn r],  dh = dh' z + dgh W_hh
// and, once after the loop, dW_hh = sum_t dgh_t^T h_t-1, db_hh = sum_t dgh_t.
//
// Shapes: B batch (rows sorted by length, longest first), S steps, H hidden size.

#include <torch/torch.h>

#include <vector>

namespace s2s::model {

struct GruDirectionOutput {
  torch::Tensor states;  // [B, S, H] fp32, zeros where a row is past its sentence
  torch::Tensor final;   // [B, H] each row's state after its own last step in this direction
};

// gi_all [B, S, 3H] every step's input projection (either precision); active[t] the rows inside
// their sentence at step t, a prefix of the batch. Rows outside keep their state (left to right)
// or their zero start (right to left). `bf16`: the hidden products W_hh h and dgh W_hh run in
// bf16 (W_hh cast once per call); the gates, the states and all gradients stay fp32.
GruDirectionOutput gru_direction(const torch::Tensor& gi_all, const torch::Tensor& w_hh,
                                 const torch::Tensor& b_hh, const std::vector<int64_t>& active,
                                 bool reverse, bool bf16);

}  // namespace s2s::model
