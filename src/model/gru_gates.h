#pragma once
// The gate arithmetic of a GRU step (equations in model/gru_kernel.h) on tensors, for the
// decoder's cell steps and the encoder's directions: the fused kernel for CPU fp32 states with
// fp32 or bf16 products, the same equations as tensor ops elsewhere (double in the gradient
// tests, CUDA).
//
// Shapes: n rows, H hidden size.

#include <torch/torch.h>

namespace s2s::model {

struct GateForward {
  torch::Tensor saved;  // [n, 4H]: r, z, c and gh_n, for the backward
  torch::Tensor next;   // [n, H] h'
};

// gi [n, 3H] (rows may be strided), gh [n, 3H]: the products, in any type; h [n, H] in the
// states' type (fp32, or double). `saved` is left undefined when `for_backward` is false.
GateForward gates_forward(const torch::Tensor& gi, const torch::Tensor& gh, const torch::Tensor& h,
                          bool for_backward = true);

struct GateBackward {
  torch::Tensor d_gi, d_gh;          // [n, 3H] in the states' type
  torch::Tensor d_h;                 // [n, H] d z, the part of dL/dh outside the product
  torch::Tensor d_gi_low, d_gh_low;  // d_gi, d_gh in the products' type
};

// d [n, H] = dL/dh' (plus `more`, when defined: [n, H], rows may be strided), and the forward's
// saved and h -> the gradients; `low` is the products' type.
GateBackward gates_backward(const torch::Tensor& d, const torch::Tensor& more,
                            const torch::Tensor& saved, const torch::Tensor& h,
                            torch::ScalarType low);

}  // namespace s2s::model
