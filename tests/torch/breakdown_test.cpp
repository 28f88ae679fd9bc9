// `s2s bench --breakdown`: which share an event starts, and that the collected time goes to the
// innermost share with nested time excluded (experiments/breakdown.h).

#include "experiments/breakdown.h"

#include <ATen/record_function.h>
#include <gtest/gtest.h>
#include <torch/torch.h>

#include <chrono>
#include <thread>

namespace s2s::experiments {
namespace {

std::size_t at(Share s) { return static_cast<std::size_t>(s); }

TEST(BreakdownTest, ClassifiesOperatorsScopesAndNodes) {
  EXPECT_EQ(classify("aten::mm", false), Share::kMatmul);
  EXPECT_EQ(classify("aten::addmm", false), Share::kMatmul);
  EXPECT_EQ(classify("AddmmBackward0", true), Share::kMatmul);
  EXPECT_EQ(classify("s2s::attention", false), Share::kAttention);
  EXPECT_EQ(classify("torch::autograd::CppNode<s2s::model::GruDirection>", true), Share::kGru);
  EXPECT_EQ(classify("torch::autograd::CppNode<s2s::loss::FusedCrossEntropy>", true), Share::kLoss);
  EXPECT_EQ(classify("aten::embedding", false), Share::kEmbedding);
  EXPECT_EQ(classify("s2s::optimizer", false), Share::kOptimizer);
  EXPECT_EQ(classify("MulBackward0", true), Share::kAutograd);
  EXPECT_EQ(classify("aten::add", false), Share::kOther);
  EXPECT_STREQ(share_name(Share::kMatmul), "matrix products");
}

TEST(BreakdownTest, TimeGoesToTheInnermostShareWithNestedTimeExcluded) {
  const auto a = torch::rand({256, 256}), b = torch::rand({256, 256});
  const auto start = std::chrono::steady_clock::now();
  ShareSeconds s{};
  {
    Breakdown breakdown;
    EXPECT_THROW(Breakdown(), std::logic_error);  // one at a time
    for (int i = 0; i < 20; ++i) {
      RECORD_USER_SCOPE("s2s::attention");
      auto c = torch::mm(a, b);  // matrix products, though inside the attention
      c = c + 1.0;               // attention: an operator without a share of its own
      std::this_thread::sleep_for(std::chrono::microseconds(200));  // attention's own time
    }
    const auto wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start);
    s = breakdown.seconds(wall.count() + 0.5);  // 0.5 s of wall time outside every event
  }
  EXPECT_GT(s[at(Share::kMatmul)], 0.0);
  EXPECT_GE(s[at(Share::kAttention)], 20 * 200e-6);
  EXPECT_GE(s[at(Share::kOther)], 0.5);
  EXPECT_EQ(s[at(Share::kGru)], 0.0);
  EXPECT_EQ(s[at(Share::kLoss)], 0.0);
  double sum = 0;
  for (const double x : s) sum += x;
  EXPECT_LT(sum,
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() + 0.5);
  EXPECT_NE(format_shares(s).find("matrix products"), std::string::npos);

  // Nothing is collected once the Breakdown is gone; a new one starts from zero.
  torch::mm(a, b);
  Breakdown again;
  EXPECT_EQ(again.seconds(0.0)[at(Share::kMatmul)], 0.0);
}

}  // namespace
}  // namespace s2s::experiments
