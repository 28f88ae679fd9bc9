// The in-place sum of the attention values' gradient over decoder steps (model/step_shared.h)
// against the same steps recorded op by op: equal contexts and gradients, in double.

#include "model/step_shared.h"

#include <gtest/gtest.h>
#include <torch/torch.h>

#include <limits>

#include "model/scorer.h"

namespace s2s {
namespace {

// Three steps over a shrinking prefix of rows (as rows whose target ended leave the batch), each
// with its own weights; the loss mixes the contexts with fixed random factors.
struct Steps {
  torch::Tensor values;              // [4, 5, 3] leaf
  std::vector<torch::Tensor> mixes;  // [r_t, 5] leaves
  std::vector<torch::Tensor> factors;
};

// In fp32 on a CPU the steps take the fused kernel (model/weighted_sum_kernel.h); `size` D > 1
// vector width exercises its vector loop, and a masked position (weight 0) its skip.
Steps make_steps(torch::ScalarType type = torch::kDouble, int64_t size = 3) {
  torch::manual_seed(5);
  Steps s;
  s.values = torch::randn({4, 5, size}, type).requires_grad_();
  for (const int64_t rows : {4, 3, 1}) {
    auto scores = torch::randn({rows, 5}, type);
    scores.select(1, 4).fill_(-std::numeric_limits<double>::infinity());
    s.mixes.push_back(torch::softmax(scores, 1).requires_grad_());
    s.factors.push_back(torch::randn({rows, size}, type));
  }
  return s;
}

std::vector<torch::Tensor> gradients(const Steps& s, bool shared) {
  const auto wrapped =
      shared ? model::share_across_steps(s.values) : model::StepShared{s.values, {}, {}};
  if (shared) {
    EXPECT_TRUE(wrapped.grad.defined());
  }
  const double tol = s.values.scalar_type() == torch::kDouble ? 1e-12 : 1e-5;
  torch::Tensor loss = torch::zeros({}, s.values.scalar_type());
  for (std::size_t t = 0; t < s.mixes.size(); ++t) {
    const auto context = model::weighted_sum(s.mixes[t], wrapped);
    const auto expected =
        torch::bmm(s.mixes[t].unsqueeze(1), s.values.narrow(0, 0, s.mixes[t].size(0))).squeeze(1);
    EXPECT_TRUE(torch::allclose(context, expected, tol, tol * 1e-2));
    loss = loss + (context * s.factors[t]).sum();
    if (t == 1) loss = loss + context.square().sum();  // a step whose gradient depends on it
  }
  std::vector<torch::Tensor> inputs{s.values};
  inputs.insert(inputs.end(), s.mixes.begin(), s.mixes.end());
  return torch::autograd::grad({loss}, inputs);
}

TEST(StepSharedTest, GradientsEqualTheRecordedSteps) {
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

TEST(StepSharedTest, FusedKernelInFp32EqualsTheRecordedSteps) {
  const auto s = make_steps(torch::kFloat, 37);
  const auto recorded = gradients(s, /*shared=*/false);
  const auto summed = gradients(s, /*shared=*/true);
  ASSERT_EQ(summed.size(), recorded.size());
  for (std::size_t i = 0; i < summed.size(); ++i) {
    EXPECT_TRUE(torch::allclose(summed[i], recorded[i], 1e-5, 1e-6)) << "gradient " << i;
  }
  // Without autograd the kernel alone gives the contexts.
  const torch::NoGradGuard no_grad;
  const auto context = model::weighted_sum(s.mixes[1], model::share_across_steps(s.values));
  EXPECT_TRUE(torch::allclose(
      context, torch::bmm(s.mixes[1].unsqueeze(1), s.values.narrow(0, 0, 3)).squeeze(1), 1e-5,
      1e-6));
}

TEST(StepSharedTest, WithoutGradientsNothingIsBuffered) {
  const auto s = make_steps();
  const torch::NoGradGuard no_grad;
  EXPECT_FALSE(model::share_across_steps(s.values).grad.defined());
  EXPECT_FALSE(model::share_across_steps(torch::randn({2, 5, 3})).grad.defined());
}

// The additive scorer's step node (model/additive_step.h) against its recorded score(): the same
// scores, and the same gradients for the keys, the queries and the scorer's weights.
TEST(StepSharedTest, AdditiveStepScoreEqualsTheRecordedScorer) {
  torch::manual_seed(6);
  model::AdditiveScorerImpl scorer(model::ScorerOptions(3, 4).hidden_size(5));
  scorer.to(torch::kDouble);
  const auto keys = torch::randn({4, 6, 5}, torch::kDouble).requires_grad_();  // W k
  std::vector<torch::Tensor> queries;
  for (const int64_t rows : {4, 2, 2}) {
    queries.push_back(torch::randn({rows, 4}, torch::kDouble).requires_grad_());
  }
  const auto run = [&](bool shared) {
    const auto k = shared ? model::share_across_steps(keys) : model::StepShared{keys, {}, {}};
    torch::Tensor loss = torch::zeros({}, torch::kDouble);
    for (const auto& q : queries) {
      const auto scores = scorer.score_step(q, k);
      EXPECT_TRUE(
          torch::allclose(scores, scorer.score(q, keys.narrow(0, 0, q.size(0))), 1e-12, 1e-14));
      loss = loss + torch::log_softmax(scores, 1).select(1, 0).sum();
    }
    std::vector<torch::Tensor> inputs{keys};
    inputs.insert(inputs.end(), queries.begin(), queries.end());
    for (const auto& p : scorer.parameters()) inputs.push_back(p);
    return torch::autograd::grad({loss}, inputs, {}, {}, false, /*allow_unused=*/true);
  };
  const auto recorded = run(false), summed = run(true);
  ASSERT_EQ(summed.size(), recorded.size());
  for (std::size_t i = 0; i < summed.size(); ++i) {
    if (!recorded[i].defined()) {  // W of the keys: not reached from projected keys
      EXPECT_FALSE(summed[i].defined() && summed[i].abs().sum().item<double>() > 0) << i;
      continue;
    }
    EXPECT_TRUE(torch::allclose(summed[i], recorded[i], 1e-12, 1e-14)) << "gradient " << i;
  }
}

}  // namespace
}  // namespace s2s
