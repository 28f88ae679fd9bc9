// The study experiments (experiments/study.h): the scaling rows show Var(q.k) = D and a saturated
// softmax without 1/sqrt(D), flat statistics with it; the deep stack explodes under N(0, 1),
// vanishes under N(0, 0.01^2) and stays O(1) under Xavier; everything repeats from the seed.
// No training here: training_study runs only from the CLI.

#include "experiments/study.h"

#include <ATen/CPUGeneratorImpl.h>
#include <gtest/gtest.h>
#include <torch/torch.h>

#include <cmath>
#include <string>
#include <vector>

namespace s2s::experiments {
namespace {

ScalingOptions small_scaling() {
  ScalingOptions o;
  o.dims = {16, 1024};
  o.samples = 500;
  return o;
}

TEST(ScalingStudyTest, VarianceIsDUnscaledAndOneScaled) {
  for (const auto& row : scaling_study(small_scaling())) {
    const auto d = static_cast<double>(row.dim);
    EXPECT_NEAR(row.var_unscaled / d, 1.0, 0.15) << "D = " << row.dim;
    EXPECT_NEAR(row.var_scaled, 1.0, 0.15) << "D = " << row.dim;
  }
}

TEST(ScalingStudyTest, UnscaledSoftmaxSaturatesScaledStaysFlat) {
  const auto rows = scaling_study(small_scaling());
  ASSERT_EQ(rows.size(), 2u);
  const auto& small = rows[0].dim == 16 ? rows[0] : rows[1];
  const auto& large = rows[0].dim == 16 ? rows[1] : rows[0];
  // The mean keeps the rare near-ties of the two largest scores; the typical query (median)
  // gets about a thousandth of the gradient at D = 1024.
  EXPECT_LT(large.unscaled.jacobian_norm, small.unscaled.jacobian_norm / 3.0);
  EXPECT_LT(large.unscaled.jacobian_median, small.unscaled.jacobian_median / 100.0);
  EXPECT_GT(large.unscaled.max_weight, 0.9);
  for (const double ratio : {large.scaled.jacobian_norm / small.scaled.jacobian_norm,
                             large.scaled.jacobian_median / small.scaled.jacobian_median}) {
    EXPECT_GT(ratio, 0.5);
    EXPECT_LT(ratio, 2.0);
  }
}

TEST(ScalingStudyTest, SameSeedSameRows) {
  const auto a = scaling_study(small_scaling());
  const auto b = scaling_study(small_scaling());
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].var_unscaled, b[i].var_unscaled);
    EXPECT_EQ(a[i].unscaled.entropy, b[i].unscaled.entropy);
    EXPECT_EQ(a[i].scaled.jacobian_norm, b[i].scaled.jacobian_norm);
  }
  auto other = small_scaling();
  other.seed = 2;
  EXPECT_NE(scaling_study(other)[0].var_unscaled, a[0].var_unscaled);
}

TEST(ScalingStudyTest, RowDependsOnlyOnSeedAndDim) {
  auto one = small_scaling();
  one.dims = {1024};
  EXPECT_EQ(scaling_study(one)[0].var_unscaled, scaling_study(small_scaling())[1].var_unscaled);
}

TEST(SoftmaxJacobianTest, MatchesAutograd) {
  torch::manual_seed(7);
  const auto s = torch::randn({5}, torch::kDouble).requires_grad_(true);
  const auto a = torch::softmax(s, /*dim=*/0);
  const auto j = softmax_jacobian(a.detach().unsqueeze(0)).squeeze(0);  // [5, 5]
  for (int64_t i = 0; i < 5; ++i) {
    const auto row = torch::autograd::grad({a[i]}, {s}, {}, /*retain_graph=*/true)[0];
    EXPECT_TRUE(torch::allclose(j[i], row, 1e-12, 1e-12)) << "row " << i;
  }
}

TEST(SoftmaxStatsTest, UniformAndOneHotLimits) {
  const int64_t n = 8;
  const auto uniform = softmax_stats(torch::zeros({3, n}, torch::kDouble));
  EXPECT_NEAR(uniform.max_weight, 1.0 / n, 1e-12);
  EXPECT_NEAR(uniform.entropy, std::log(static_cast<double>(n)), 1e-12);
  EXPECT_NEAR(uniform.jacobian_norm, std::sqrt(n - 1.0) / n, 1e-12);
  EXPECT_NEAR(uniform.jacobian_median, std::sqrt(n - 1.0) / n, 1e-12);
  auto peaked = torch::zeros({3, n}, torch::kDouble);
  peaked.select(/*dim=*/1, 0).fill_(1000.0);
  const auto one_hot = softmax_stats(peaked);
  EXPECT_NEAR(one_hot.max_weight, 1.0, 1e-12);
  EXPECT_NEAR(one_hot.entropy, 0.0, 1e-12);
  EXPECT_NEAR(one_hot.jacobian_norm, 0.0, 1e-12);
}

TEST(StackStudyTest, XavierKeepsVarianceNormalExplodesOrVanishes) {
  StackOptions o;
  o.depth = 12;
  o.width = 128;
  o.batch = 128;
  const auto rows = stack_study(o, {o.depth});
  ASSERT_EQ(rows.size(), stack_inits().size() * stack_activations().size());
  for (const auto& r : rows) {
    if (r.activation != "linear") continue;
    if (r.init == "xavier_uniform") {
      EXPECT_GE(r.activation_var, 0.05);
      EXPECT_LE(r.activation_var, 20.0);
    } else if (r.init == "normal(1)") {
      EXPECT_GT(r.activation_var, 1e6);
    } else {
      EXPECT_LT(r.activation_var, 1e-6);
    }
  }
}

TEST(StackStudyTest, LastLayerGradientIsR) {
  StackOptions o;
  o.depth = 4;
  o.width = 64;
  o.batch = 32;
  const auto rows = stack_study(o, {o.depth});
  // dLoss/dh_L = r for every sample, whatever the weights: one variance for every stack.
  for (const auto& r : rows) EXPECT_NEAR(r.gradient_var, rows[0].gradient_var, 1e-12);
}

TEST(StackStudyTest, SameSeedSameRowsAndReportedLayers) {
  StackOptions o;
  o.depth = 8;
  o.width = 32;
  o.batch = 16;
  const auto a = stack_study(o);
  const auto b = stack_study(o);
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].activation_var, b[i].activation_var);
    EXPECT_EQ(a[i].gradient_var, b[i].gradient_var);
  }
  EXPECT_EQ(layers_to_report(20), (std::vector<int64_t>{1, 5, 10, 20}));
  EXPECT_EQ(layers_to_report(2), (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(layers_to_report(1), (std::vector<int64_t>{1}));
}

TEST(StackStudyTest, XavierUniformVariance) {
  auto generator = at::detail::createCPUGenerator(3);
  const auto w = init_weight("xavier_uniform", 300, 200, generator);
  EXPECT_NEAR(w.var().item<double>(), 2.0 / 500.0, 0.05 * 2.0 / 500.0);
  EXPECT_THROW(init_weight("kaiming", 2, 2, generator), std::invalid_argument);
}

}  // namespace
}  // namespace s2s::experiments
