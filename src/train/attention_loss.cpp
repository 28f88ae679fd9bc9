#include "train/attention_loss.h"

#include <algorithm>

namespace s2s::train {

torch::Tensor coverage_loss(const torch::Tensor& attention) {
  const auto a = attention.to(torch::kFloat);
  const auto coverage = a.cumsum(/*dim=*/1) - a;  // c_t: the steps before t, [B, T, m, S]
  return torch::minimum(a, coverage).sum() / static_cast<double>(a.size(2));
}

torch::Tensor guided_alignment_loss(const torch::Tensor& attention, const torch::Tensor& gold,
                                    config::GuidedAlignmentLoss loss,
                                    config::AlignmentHeads heads) {
  const auto a = (heads == config::AlignmentHeads::kFirst ? attention.select(/*dim=*/2, 0)
                                                          : attention.mean(/*dim=*/2))
                     .to(torch::kFloat);  // [B, T, S]
  const auto g = gold.to(a.device(), torch::kFloat);
  if (loss == config::GuidedAlignmentLoss::kCrossEntropy) return -(g * (a + 1e-6).log()).sum();
  const auto linked = g.sum(/*dim=*/2, /*keepdim=*/true).gt(0).to(torch::kFloat);  // [B, T, 1]
  return ((a - g).square() * linked).sum() / 2.0;
}

double guided_alignment_weight(const config::GuidedAlignmentConfig& guided, int64_t step) {
  if (guided.decay_steps <= 0) return guided.weight;
  const double left = 1.0 - static_cast<double>(step) / static_cast<double>(guided.decay_steps);
  return guided.weight * std::max(0.0, left);
}

}  // namespace s2s::train
