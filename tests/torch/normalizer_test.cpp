// The attention normalizers (model/normalizer.h): known values (ties, one dominant score, all
// equal), agreement with the threshold found by bisection, the simplex constraint, exact zeros,
// masked positions, and the closed-form backward passes against central finite differences in
// double. Every test runs over the whole registry, so a new normalizer is tested without a line.

#include "model/normalizer.h"

#include <gtest/gtest.h>
#include <torch/torch.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "checkpoint/checkpoint.h"
#include "config/config.h"
#include "run/run_dir.h"

namespace s2s::model {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

torch::Tensor row(const std::vector<double>& values) {
  return torch::tensor(values, torch::kDouble).unsqueeze(0);
}

void expect_row(const torch::Tensor& got, const std::vector<double>& want,
                const std::string& what) {
  ASSERT_EQ(got.size(1), static_cast<int64_t>(want.size())) << what;
  for (std::size_t i = 0; i < want.size(); ++i) {
    EXPECT_NEAR(got[0][static_cast<int64_t>(i)].item<double>(), want[i], 1e-12)
        << what << ", position " << i;
  }
}

// The threshold tau with sum_i [x_i - tau]_+^p = 1 (p = 1: sparsemax on x = s; p = 2:
// 1.5-entmax on x = s / 2), by bisection on [max - 1, max] to machine precision, and the weights.
torch::Tensor by_bisection(const torch::Tensor& x, double power) {
  auto out = torch::empty_like(x);
  for (int64_t r = 0; r < x.size(0); ++r) {
    const auto xr = x[r];
    double hi = xr.max().item<double>(), lo = hi - 1.0;
    for (int i = 0; i < 200; ++i) {
      const double mid = 0.5 * (lo + hi);
      const double mass = (xr - mid).clamp_min(0).pow(power).sum().item<double>();
      (mass > 1.0 ? lo : hi) = mid;
    }
    out[r] = (xr - 0.5 * (lo + hi)).clamp_min(0).pow(power);
  }
  return out;
}

TEST(NormalizerTest, KnownValues) {
  // Ties: sparsemax splits the tied pair; 1.5-entmax on x = (0.5, 0.5, 0) solves
  // 2 (0.5 - tau)^2 + tau^2 = 1, tau = (2 - sqrt(10)) / 6, and keeps the third position.
  const double tau = (2.0 - std::sqrt(10.0)) / 6.0;
  expect_row(sparsemax(row({1, 1, 0})), {0.5, 0.5, 0}, "sparsemax, ties");
  expect_row(entmax15(row({1, 1, 0})),
             {(0.5 - tau) * (0.5 - tau), (0.5 - tau) * (0.5 - tau), tau * tau}, "entmax15, ties");
  // tau = 1.25: (2 - 1.25) + (1.5 - 1.25) = 1.
  expect_row(sparsemax(row({2, 1.5, 0})), {0.75, 0.25, 0}, "sparsemax, two in the support");
  for (const auto& spec : normalizer_registry()) {
    SCOPED_TRACE(spec.name);
    expect_row(spec.normalize(row({3, 3, 3, 3})), {0.25, 0.25, 0.25, 0.25}, "all equal");
    if (spec.sparse) {
      expect_row(spec.normalize(row({10, 0, -1})), {1, 0, 0}, "one dominant score");
    }
  }
}

// Rows at several scales, in double, against the threshold found by bisection.
TEST(NormalizerTest, SparseMapsEqualTheirBisectionSolution) {
  torch::manual_seed(5);
  for (const double scale : {0.1, 1.0, 4.0, 30.0}) {
    const auto scores = torch::randn({32, 23}, torch::kDouble) * scale;
    const auto want_sparsemax = by_bisection(scores, 1.0);
    const auto want_entmax = by_bisection(scores / 2.0, 2.0);
    EXPECT_TRUE(torch::allclose(sparsemax(scores), want_sparsemax, 0, 1e-12)) << scale;
    EXPECT_TRUE(torch::allclose(entmax15(scores), want_entmax, 0, 1e-12)) << scale;
  }
}

TEST(NormalizerTest, WeightsLieOnTheSimplexAndSparseOnesHaveExactZeros) {
  torch::manual_seed(6);
  const auto scores = torch::randn({64, 17}) * 4.0;  // float, as in training
  for (const auto& spec : normalizer_registry()) {
    SCOPED_TRACE(spec.name);
    const auto a = spec.normalize(scores);
    EXPECT_EQ(a.scalar_type(), torch::kFloat);
    EXPECT_TRUE((a >= 0).all().item<bool>());
    EXPECT_TRUE(torch::allclose(a.sum(-1), torch::ones({64}), 0, 1e-5));
    const double zeros = a.eq(0).to(torch::kDouble).mean().item<double>();
    if (spec.sparse) {
      EXPECT_GT(zeros, 0.3);  // at this spread of scores most positions are left out
      EXPECT_TRUE((a.amax(-1) > 0).all().item<bool>());  // the argmax is always in the support
    } else {
      EXPECT_EQ(zeros, 0.0);
    }
    // bf16 scores are normalized in float.
    EXPECT_TRUE(torch::allclose(spec.normalize(scores.to(torch::kBFloat16)),
                                spec.normalize(scores.to(torch::kBFloat16).to(torch::kFloat)), 0,
                                1e-6));
  }
}

// Padding arrives as -inf: weight exactly 0, gradient exactly 0, and the real positions get the
// weights the unpadded row would.
TEST(NormalizerTest, MaskedPositionsGetExactlyZeroWeightAndGradient) {
  torch::manual_seed(7);
  const auto real = torch::randn({4, 5}, torch::kDouble);
  const auto padded = torch::cat({real, torch::full({4, 3}, -kInf, torch::kDouble)}, 1);
  for (const auto& spec : normalizer_registry()) {
    SCOPED_TRACE(spec.name);
    const auto scores = padded.clone().requires_grad_();
    const auto a = spec.normalize(scores);
    EXPECT_TRUE(a.narrow(1, 5, 3).eq(0).all().item<bool>());
    EXPECT_TRUE(torch::allclose(a.narrow(1, 0, 5), spec.normalize(real), 0, 1e-14));
    (a * torch::randn_like(a)).sum().backward();
    EXPECT_TRUE(scores.grad().narrow(1, 5, 3).eq(0).all().item<bool>());
    EXPECT_TRUE(torch::isfinite(scores.grad()).all().item<bool>());
  }
}

// d/ds of a random linear functional of a = normalize(s), closed form against central differences.
TEST(NormalizerTest, GradientsMatchFiniteDifferences) {
  torch::manual_seed(8);
  for (const auto& spec : normalizer_registry()) {
    SCOPED_TRACE(spec.name);
    for (const double scale : {0.5, 3.0}) {
      const auto base = torch::randn({6, 9}, torch::kDouble) * scale;
      const auto probe = torch::randn({6, 9}, torch::kDouble);
      auto scores = base.clone().requires_grad_();
      (spec.normalize(scores) * probe).sum().backward();
      const auto analytic = scores.grad();
      constexpr double kStep = 1e-6;
      for (int64_t i = 0; i < base.numel(); ++i) {
        auto up = base.clone(), down = base.clone();
        up.view({-1})[i] += kStep;
        down.view({-1})[i] -= kStep;
        const double numeric =
            ((spec.normalize(up) - spec.normalize(down)) * probe).sum().item<double>() /
            (2 * kStep);
        ASSERT_NEAR(analytic.view({-1})[i].item<double>(), numeric, 1e-7)
            << "element " << i << " at scale " << scale;
      }
    }
  }
}

// The backward passes are closed forms: the gradient graph holds one node, not a sort.
TEST(NormalizerTest, BackwardIsOneNodeNotTheSort) {
  for (const auto& spec : normalizer_registry()) {
    if (!spec.sparse) continue;
    const auto scores = torch::randn({2, 4}, torch::kDouble).requires_grad_();
    const auto a = spec.normalize(scores);
    const auto node = a.grad_fn();
    ASSERT_TRUE(node) << spec.name;
    EXPECT_EQ(node->next_edges().size(), 1u) << spec.name;
    // Straight to the leaf's gradient accumulator: nothing recorded between.
    EXPECT_NE(node->next_edges()[0].function->name().find("AccumulateGrad"), std::string::npos)
        << spec.name << ": " << node->next_edges()[0].function->name();
  }
}

TEST(NormalizerTest, LogWeightsAreMinusInfinityOffTheSupportWithoutNan) {
  const auto scores = row({2, 1.5, 0}).requires_grad_();
  const auto log_a = log_weights(sparsemax(scores));
  EXPECT_NEAR(log_a[0][0].item<double>(), std::log(0.75), 1e-12);
  EXPECT_EQ(log_a[0][2].item<double>(), -kInf);
  log_a.select(1, 0).sum().backward();  // REINFORCE's log a at a chosen position
  EXPECT_TRUE(torch::isfinite(scores.grad()).all().item<bool>());
}

// A checkpoint records its normalizer (decoding it with another would change every weight) but
// not the default, so that runs from before the key still load.
TEST(NormalizerTest, CheckpointsNameTheNormalizerUnlessItIsSoftmax) {
  config::ModelConfig m;
  const auto softmax = run::model_signature(m, 10, 10);
  for (const char* key : {"normalizer", "coverage", "local", "window"}) {  // keys added later
    EXPECT_EQ(softmax.find(key), std::string::npos) << key;
  }
  m.attention.normalizer = "entmax15";
  const auto entmax = run::model_signature(m, 10, 10);
  EXPECT_NE(entmax.find("\"normalizer\":\"entmax15\""), std::string::npos);
  EXPECT_EQ(checkpoint::signature_difference(entmax, softmax),
            "attention.normalizer \"entmax15\" vs (none)");
}

TEST(NormalizerTest, UnknownNamesListTheValidOnes) {
  try {
    normalizer_spec("frobnicate");
    FAIL() << "found a normalizer named frobnicate";
  } catch (const c10::Error& e) {
    EXPECT_NE(std::string(e.what()).find("softmax, sparsemax, entmax15"), std::string::npos);
  }
}

}  // namespace
}  // namespace s2s::model
