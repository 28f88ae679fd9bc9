#pragma once
// One decoder step of the additive score (Bahdanau et al. 2015, eq. A.1.2; model/scorer.h) as
// one autograd node. The equations below are the only statement of them; the scorer and the
// fused kernel (model/additive_kernel.h) cite "equations: model/additive_step.h".
//
// Row i of r, position s of S, A the energy size; k = W k the projected keys (once a sentence),
// u = U q the projected query (once a step), v [A] the energy weights:
//   e_is = tanh(k_is + u_i)  [A],   score_is = v . e_is
// and, given d_is = dL/dscore_is:
//   da_is = d_is v (1 - e_is^2),   dL/dk_is = da_is,   dL/du_i = sum_s da_is,
//   dL/dv = sum_is d_is e_is.
// The step reads the first r rows of keys shared by all steps (model/step_shared.h); its node
// adds dL/dk into their buffer in place instead of returning it.
//
// Shapes: r rows of the step, R >= r rows of the shared keys, S source length, A energy size.

#include <torch/torch.h>

#include "model/step_shared.h"

namespace s2s::model {

// Whether the fused kernel takes these tensors: CPU fp32, contiguous keys. Others (double in the
// gradient tests, CUDA, reduced precision) take recorded tensor ops.
bool additive_kernel_applies(const torch::Tensor& u, const torch::Tensor& keys,
                             const torch::Tensor& v);

// Decoding (no autograd, additive_kernel_applies): u [r, A], keys [R, S, A], v [1, A] ->
// scores [r, S].
torch::Tensor additive_step_scores(const torch::Tensor& u, const torch::Tensor& keys,
                                   const torch::Tensor& v);

// Training: u [r, A], the shared keys (grad defined), v [1, A] -> scores [r, S], one node whose
// backward returns dL/du and dL/dv and adds dL/dk into keys.grad.
torch::Tensor additive_step_node(const torch::Tensor& u, const StepShared& keys,
                                 const torch::Tensor& v);

}  // namespace s2s::model
