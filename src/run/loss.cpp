#include "run/loss.h"

#include "data/vocab.h"

namespace s2s::run {

LossResult sequence_loss(const torch::Tensor& logits, const torch::Tensor& token_index,
                         const torch::Tensor& targets, double label_smoothing) {
  const auto flat_targets = targets.reshape({-1}).index_select(0, token_index);  // [N]
  // In fp32 whatever the logits' precision (bf16 under autocast): the loss needs the digits.
  const auto log_probs = torch::log_softmax(logits.to(torch::kFloat), /*dim=*/-1);  // [N, V]
  const auto mask = flat_targets.ne(data::Vocab::kPad);
  // -log p(gold) per decoded position: [N]
  const auto nll = -log_probs.gather(1, flat_targets.unsqueeze(1)).squeeze(1) * mask;
  LossResult r;
  r.tokens = mask.sum().item<int64_t>();
  const double denominator = static_cast<double>(std::max<int64_t>(r.tokens, 1));
  auto loss = nll.sum();
  if (label_smoothing > 0) {
    // Uniform part: -mean_v log p(v) at real positions.
    const auto smooth = -(log_probs.mean(/*dim=*/-1) * mask).sum();
    loss = (1.0 - label_smoothing) * loss + label_smoothing * smooth;
  }
  r.loss = loss / denominator;
  r.nll_sum = nll.sum().item<double>();
  r.token_nll = torch::zeros({targets.numel()}, nll.options())
                    .index_copy(0, token_index, nll)
                    .view_as(targets);
  return r;
}

}  // namespace s2s::run
