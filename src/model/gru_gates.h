#pragma once
// The gate arithmetic of a GRU step (equations: model/gru.h) on tensors, given the step's
// products gi and gh, for the decoder's cell steps and the encoder's directions: the fused kernel
// (model/gru_kernel.h) for CPU fp32 states with fp32 or bf16 products, the same equations as
// tensor ops elsewhere (double in the gradient tests, CUDA).
//
// Two types meet here: `state_dtype`, that of h, the gates and their gradients (fp32, or
// double), and `product_dtype`, that of the matrix products gi, gh and of their operands (bf16
// under mixed precision, else the states' type). Names ending in _mm are in `product_dtype`.
//
// Shapes: B rows, H hidden size.

#include <torch/torch.h>

namespace s2s::model {

struct GruGatesForward {
  torch::Tensor saved;  // [B, 4H]: r, z, n and gh_n, for the backward
  torch::Tensor next;   // [B, H] h'
};

// gi [B, 3H] (rows may be strided), gh [B, 3H]: the products, in any type; h [B, H] in the
// states' type. `saved` is left undefined when `for_backward` is false.
GruGatesForward gru_gates_forward(const torch::Tensor& gi, const torch::Tensor& gh,
                                  const torch::Tensor& h, bool for_backward = true);

struct GruGatesBackward {
  torch::Tensor d_gi, d_gh;        // [B, 3H] in the states' type
  torch::Tensor d_h;               // [B, H] d z, the part of dL/dh outside the product dgh W_hh
  torch::Tensor d_gi_mm, d_gh_mm;  // d_gi, d_gh in `product_dtype`, for the products' backward
};

// d_next [B, H] = dL/dh' (plus `d_next_extra` when defined: [B, H], rows may be strided; the
// encoder's gradient from its output states), and the forward's `saved` and h -> the gradients.
GruGatesBackward gru_gates_backward(const torch::Tensor& d_next, const torch::Tensor& d_next_extra,
                                    const torch::Tensor& saved, const torch::Tensor& h,
                                    torch::ScalarType product_dtype);

}  // namespace s2s::model
