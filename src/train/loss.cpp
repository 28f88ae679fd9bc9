#include "train/loss.h"

#include "data/vocab.h"

namespace s2s::train {

LossResult sequence_loss(const torch::Tensor& logits, const torch::Tensor& targets,
                         double label_smoothing) {
  namespace F = torch::nn::functional;
  const auto flat_logits = logits.reshape({-1, logits.size(-1)});
  const auto flat_targets = targets.reshape({-1});
  const auto log_probs = torch::log_softmax(flat_logits, /*dim=*/-1);
  const auto mask = flat_targets.ne(data::Vocab::kPad);
  // -log p(gold) per position: [B*T]
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
  r.token_nll = nll.view_as(targets);
  return r;
}

}  // namespace s2s::train
