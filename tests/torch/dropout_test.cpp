// The counter-based dropout (model/dropout.h): the kept fraction and the scale, independence of
// the two halves of a draw, the same masks for a seed on any number of threads, its gradient,
// and the identities (eval mode, p = 0) and p = 1.

#include "model/dropout.h"

#include <ATen/Parallel.h>
#include <gtest/gtest.h>
#include <torch/torch.h>

namespace s2s {
namespace {

TEST(DropoutTest, KeepsOneMinusPScaledByItsInverse) {
  torch::manual_seed(1);
  const int64_t n = 1 << 20;
  for (const double p : {0.1, 0.3, 0.5}) {
    const auto y = model::dropout(torch::ones({n}), p, /*training=*/true);
    const auto kept = y.ne(0);
    // Binomial: the kept fraction's standard deviation is below 0.0005 at n = 2^20.
    EXPECT_NEAR(kept.to(torch::kDouble).mean().item<double>(), 1 - p, 0.0025) << "p " << p;
    const auto values = y.masked_select(kept);
    EXPECT_TRUE(torch::allclose(values, torch::full_like(values, 1.0 / (1.0 - p))));
    // The two halves of one 64-bit draw decide neighbours: both kept as often as chance says.
    const auto pairs = kept.view({n / 2, 2});
    const auto both = pairs.select(1, 0).logical_and(pairs.select(1, 1));
    EXPECT_NEAR(both.to(torch::kDouble).mean().item<double>(), (1 - p) * (1 - p), 0.0035);
  }
}

TEST(DropoutTest, ASeedGivesTheSameMaskOnAnyNumberOfThreads) {
  const int threads = at::get_num_threads();
  const auto x = torch::randn({3, 50000});
  at::set_num_threads(1);
  torch::manual_seed(9);
  const auto one = model::dropout(x, 0.4, true);
  const auto next = model::dropout(x, 0.4, true);
  at::set_num_threads(2);
  torch::manual_seed(9);
  const auto two = model::dropout(x, 0.4, true);
  at::set_num_threads(threads);
  EXPECT_TRUE(torch::equal(one, two));
  EXPECT_FALSE(torch::equal(one, next));  // each call draws its own seed
  EXPECT_TRUE(torch::equal(model::dropout_mask(11, 0.5, 42), model::dropout_mask(11, 0.5, 42)));
}

TEST(DropoutTest, GradientIsTheMask) {
  torch::manual_seed(3);
  const auto x = torch::randn({64, 33}).requires_grad_();
  const auto y = model::dropout(x, 0.25, true);
  const auto g = torch::randn({64, 33});
  y.backward(g);
  const auto mask = y.detach() / x.detach();  // m / (1 - p) wherever x != 0
  EXPECT_TRUE(torch::allclose(x.grad(), g * mask, 1e-6, 1e-6));
}

TEST(DropoutTest, IdentitiesAndEverythingDropped) {
  const auto x = torch::randn({5, 7}).requires_grad_();
  EXPECT_TRUE(model::dropout(x, 0.5, /*training=*/false).is_same(x));
  EXPECT_TRUE(model::dropout(x, 0.0, true).is_same(x));
  const auto none = model::dropout(x, 1.0, true);
  EXPECT_TRUE(torch::equal(none, torch::zeros_like(x)));
  EXPECT_TRUE(none.requires_grad());
  torch::nn::Dropout module(0.5);
  module->eval();
  EXPECT_TRUE(model::dropout(module, x).is_same(x));
  module->train();
  EXPECT_FALSE(torch::equal(model::dropout(module, x), x));
}

}  // namespace
}  // namespace s2s
