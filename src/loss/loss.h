#pragma once
// Token-level cross-entropy over a batch of target sequences, padding ignored.
//
// Shapes: B batch, T target length, V vocabulary.

#include <torch/torch.h>

namespace s2s::loss {

struct LossResult {
  torch::Tensor loss;       // scalar: mean label-smoothed cross-entropy per real token (backward)
  double nll_sum = 0.0;     // summed negative log-likelihood, no smoothing (for perplexity)
  int64_t tokens = 0;       // real target tokens
  torch::Tensor token_nll;  // [B, T] -log p(y_t), 0 at padding (keeps the graph)
};

// The two per-row terms of the loss for logits [N, V] and gold [N] (int64): nll = -log p(gold)
// and uniform = -mean_v log p(v) (undefined unless want_uniform; the fused path always gives
// it), both [N] in fp32 (double for double logits). fp32 and bf16 logits on a CPU take one
// fused pass a row each way (loss/cross_entropy_kernel.h); others LibTorch's log_softmax.
struct CrossEntropyTerms {
  torch::Tensor nll, uniform;
};
CrossEntropyTerms cross_entropy_terms(const torch::Tensor& logits, const torch::Tensor& gold,
                                      bool want_uniform);

// logits [N, V] for the positions token_index [N] (b * T + t) of targets [B, T], as the model's
// forward returns them; <pad> targets are ignored. With label smoothing eps the target
// distribution is (1 - eps) on the gold token plus eps / V spread uniformly (Szegedy et al. 2016).
LossResult sequence_loss(const torch::Tensor& logits, const torch::Tensor& token_index,
                         const torch::Tensor& targets, double label_smoothing);

}  // namespace s2s::loss
