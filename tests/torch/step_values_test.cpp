// The in-place sum of the attention values' gradient over decoder steps (model/step_values.h)
// against the same steps recorded op by op: equal contexts and gradients, in double.

#include "model/step_values.h"

#include <gtest/gtest.h>
#include <torch/torch.h>

namespace s2s {
namespace {

// Three steps over a shrinking prefix of rows (as rows whose target ended leave the batch), each
// with its own weights; the loss mixes the contexts with fixed random factors.
struct Steps {
  torch::Tensor values;              // [4, 5, 3] leaf
  std::vector<torch::Tensor> mixes;  // [r_t, 5] leaves
  std::vector<torch::Tensor> factors;
};

Steps make_steps() {
  torch::manual_seed(5);
  Steps s;
  s.values = torch::randn({4, 5, 3}, torch::kDouble).requires_grad_();
  for (const int64_t rows : {4, 3, 1}) {
    s.mixes.push_back(torch::softmax(torch::randn({rows, 5}, torch::kDouble), 1).requires_grad_());
    s.factors.push_back(torch::randn({rows, 3}, torch::kDouble));
  }
  return s;
}

std::vector<torch::Tensor> gradients(const Steps& s, bool shared) {
  const auto wrapped =
      shared ? model::share_across_steps(s.values) : model::StepValues{s.values, {}};
  if (shared) {
    EXPECT_TRUE(wrapped.grad.defined());
  }
  torch::Tensor loss = torch::zeros({}, torch::kDouble);
  for (std::size_t t = 0; t < s.mixes.size(); ++t) {
    const auto context = model::weighted_sum(s.mixes[t], wrapped);
    const auto expected =
        torch::bmm(s.mixes[t].unsqueeze(1), s.values.narrow(0, 0, s.mixes[t].size(0))).squeeze(1);
    EXPECT_TRUE(torch::allclose(context, expected, 1e-12, 1e-14));
    loss = loss + (context * s.factors[t]).sum();
    if (t == 1) loss = loss + context.square().sum();  // a step whose gradient depends on it
  }
  std::vector<torch::Tensor> inputs{s.values};
  inputs.insert(inputs.end(), s.mixes.begin(), s.mixes.end());
  return torch::autograd::grad({loss}, inputs);
}

TEST(StepValuesTest, GradientsEqualTheRecordedSteps) {
  const auto s = make_steps();
  const auto recorded = gradients(s, /*shared=*/false);
  const auto summed = gradients(s, /*shared=*/true);
  ASSERT_EQ(summed.size(), recorded.size());
  for (std::size_t i = 0; i < summed.size(); ++i) {
    EXPECT_TRUE(torch::allclose(summed[i], recorded[i], 1e-12, 1e-14)) << "gradient " << i;
  }
  // Row 3 is read by the first step only: its gradient is that step's outer product.
  EXPECT_GT(summed[0][3].abs().sum().item<double>(), 0.0);
}

TEST(StepValuesTest, WithoutGradientsNothingIsBuffered) {
  const auto s = make_steps();
  const torch::NoGradGuard no_grad;
  EXPECT_FALSE(model::share_across_steps(s.values).grad.defined());
  EXPECT_FALSE(model::share_across_steps(torch::randn({2, 5, 3})).grad.defined());
}

}  // namespace
}  // namespace s2s
