#include "train/attention_loss.h"

namespace s2s::train {

torch::Tensor coverage_loss(const torch::Tensor& attention) {
  const auto a = attention.to(torch::kFloat);
  const auto coverage = a.cumsum(/*dim=*/1) - a;  // c_t: the steps before t, [B, T, m, S]
  return torch::minimum(a, coverage).sum() / static_cast<double>(a.size(2));
}

}  // namespace s2s::train
