// Local attention (Luong et al. 2015, sec. 3.2; model.attention.local): local-m's window follows
// the target step and stops at the sentence's end; local-p's predicted center lies in the
// sentence and its Gaussian shapes the weights; both respect padding. Gradients, every scorer
// and normalizer: attention_test.cpp; beam search with the step: search_test.cpp.

#include <gtest/gtest.h>
#include <torch/torch.h>

#include <cmath>

#include "model/attention.h"

namespace s2s::model {
namespace {

constexpr int64_t kLen = 9;

torch::Tensor mask_of(const std::vector<int64_t>& lengths) {
  return torch::arange(kLen).unsqueeze(0) < torch::tensor(lengths).unsqueeze(1);
}

TEST(LocalAttentionTest, MonotonicWindowFollowsTheStepAndStopsAtTheEnd) {
  torch::manual_seed(1);
  Attention attention(AttentionOptions("dot", 6, 6).local(LocalAttention::kMonotonic).window(2));
  const std::vector<int64_t> lengths{9, 4};
  const auto memory = attention->prepare(torch::randn({2, kLen, 6}), mask_of(lengths));
  const auto query = torch::randn({2, 6});
  for (int64_t step = 0; step < 12; ++step) {
    const auto w = attention->forward(query, memory, {}, step).weights.squeeze(1);  // [2, S]
    for (int64_t b = 0; b < 2; ++b) {
      const int64_t center = std::min(step, lengths[static_cast<std::size_t>(b)] - 1);
      for (int64_t i = 0; i < kLen; ++i) {
        const bool inside = std::abs(i - center) <= 2 && i < lengths[static_cast<std::size_t>(b)];
        EXPECT_EQ(w[b][i].item<float>() > 0, inside)
            << "step " << step << " row " << b << " i " << i;
      }
      EXPECT_NEAR(w[b].sum().item<float>(), 1.0f, 1e-6);
    }
  }
}

TEST(LocalAttentionTest, PredictiveCenterIsInTheSentenceAndTheGaussianShapesTheWeights) {
  torch::manual_seed(2);
  const int64_t d = 3;
  Attention attention(AttentionOptions("dot", 6, 6).local(LocalAttention::kPredictive).window(d));
  attention->to(torch::kDouble);
  const std::vector<int64_t> lengths{9, 5};
  // Zero keys: every score is 0, so the weights are the Gaussian alone, renormalized.
  const auto memory =
      attention->prepare(torch::zeros({2, kLen, 6}, torch::kDouble), mask_of(lengths));
  const auto query = torch::randn({2, 6}, torch::kDouble) * 3;
  const auto w = attention->forward(query, memory).weights.squeeze(1);
  const auto params = attention->named_parameters();
  const auto p = (torch::tensor({8.0, 4.0}, torch::kDouble) *
                  torch::sigmoid(torch::tanh(query.matmul(params["position_proj.weight"].t()))
                                     .matmul(params["position_out.weight"].t())
                                     .squeeze(1)));
  const double sigma = d / 2.0;
  for (int64_t b = 0; b < 2; ++b) {
    const double center = p[b].item<double>();
    EXPECT_GE(center, 0.0);
    EXPECT_LE(center, static_cast<double>(lengths[static_cast<std::size_t>(b)] - 1));
    auto want = torch::zeros({kLen}, torch::kDouble);
    for (int64_t i = 0; i < lengths[static_cast<std::size_t>(b)]; ++i) {
      const double dist = static_cast<double>(i) - center;
      if (std::abs(dist) <= d) want[i] = std::exp(-dist * dist / (2 * sigma * sigma));
    }
    want = want / want.sum();
    EXPECT_TRUE(torch::allclose(w[b], want, 1e-12, 1e-12)) << w[b] << want;
  }
}

}  // namespace
}  // namespace s2s::model
