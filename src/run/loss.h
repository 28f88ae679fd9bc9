#pragma once
// Token-level cross-entropy over a batch of target sequences, padding ignored.
//
// Shapes: B batch, T target length, V vocabulary.

#include <torch/torch.h>

namespace s2s::run {

struct LossResult {
  torch::Tensor loss;       // scalar: mean label-smoothed cross-entropy per real token (backward)
  double nll_sum = 0.0;     // summed negative log-likelihood, no smoothing (for perplexity)
  int64_t tokens = 0;       // real target tokens
  torch::Tensor token_nll;  // [B, T] -log p(y_t), 0 at padding (keeps the graph)
};

// logits [N, V] for the positions token_index [N] (b * T + t) of targets [B, T], as the model's
// forward returns them; <pad> targets are ignored. With label smoothing eps the target
// distribution is (1 - eps) on the gold token plus eps / V spread uniformly (Szegedy et al. 2016).
LossResult sequence_loss(const torch::Tensor& logits, const torch::Tensor& token_index,
                         const torch::Tensor& targets, double label_smoothing);

}  // namespace s2s::run
