// Every attention variant with every normalizer: shapes, normalization, exact zeros at padding,
// permutation equivariance, and gradients against central finite differences in double
// precision; the fused additive paths against the recorded ones; sparse hard attention.

#include "model/attention.h"

#include <gtest/gtest.h>
#include <torch/torch.h>

#include <string>
#include <vector>

namespace s2s::model {
namespace {

constexpr int64_t kBatch = 3, kLen = 5, kMemory = 8, kQuery = 6;

struct Variant {
  std::string scorer;
  int64_t rank = 0;
  int64_t heads = 1;
  bool key_value = false;
  std::string normalizer = "softmax";
  bool coverage = false;
  LocalAttention local = LocalAttention::kGlobal;  // window 1 at step 2 (kLen = 5)
};

std::string variant_name(const ::testing::TestParamInfo<Variant>& info) {
  const Variant& v = info.param;
  return v.scorer + (v.rank ? "_rank" + std::to_string(v.rank) : "") +
         (v.heads > 1 ? "_heads" + std::to_string(v.heads) : "") + (v.key_value ? "_kv" : "") +
         "_" + v.normalizer + (v.coverage ? "_coverage" : "") +
         (v.local == LocalAttention::kMonotonic    ? "_local_m"
          : v.local == LocalAttention::kPredictive ? "_local_p"
                                                   : "");
}

// Every scorer and every normalizer of the registries (a new one runs through every test below
// without a line here), plus the low-rank bilinear form, each with 1 and 2 heads, with and
// without key-value.
std::vector<Variant> all_variants() {
  std::vector<std::pair<std::string, int64_t>> scorers;
  for (const auto& spec : model::scorer_registry()) scorers.emplace_back(spec.name, 0);
  scorers.emplace_back("bilinear", 3);
  std::vector<Variant> out;
  for (const auto& [scorer, rank] : scorers) {
    for (int64_t heads : {1, 2}) {
      for (bool kv : {false, true}) {
        for (const auto& normalizer : model::normalizer_names()) {
          out.push_back({scorer, rank, heads, kv, normalizer});
        }
      }
      out.push_back({scorer, rank, heads, false, "softmax", /*coverage=*/true});
      out.push_back({scorer, rank, heads, false, "softmax", false, LocalAttention::kMonotonic});
      out.push_back({scorer, rank, heads, true, "entmax15", false, LocalAttention::kPredictive});
    }
  }
  return out;
}

class AttentionTest : public ::testing::TestWithParam<Variant> {
 protected:
  void SetUp() override {
    torch::manual_seed(1234);
    const Variant& v = GetParam();
    attention_ = Attention(AttentionOptions(v.scorer, kQuery, kMemory)
                               .size(4)
                               .heads(v.heads)
                               .key_value(v.key_value)
                               .rank(v.rank)
                               .normalizer(v.normalizer)
                               .coverage(v.coverage)
                               .local(v.local)
                               .window(1));
    attention_->to(torch::kDouble);
    memory_ = torch::randn({kBatch, kLen, kMemory}, torch::kDouble);
    query_ = torch::randn({kBatch, kQuery}, torch::kDouble);
    if (v.coverage) {  // a coverage state, and w away from its zero start so that it counts
      coverage_ = torch::rand({kBatch, v.heads, kLen}, torch::kDouble) * 2;
      torch::NoGradGuard no_grad;
      attention_->named_parameters()["coverage_weight"].normal_();
    }
  }

  static torch::Tensor mask_of(const std::vector<int64_t>& lengths) {
    const auto len = torch::tensor(lengths);
    return torch::arange(kLen).unsqueeze(0) < len.unsqueeze(1);
  }

  AttentionOutput run(const torch::Tensor& memory, const torch::Tensor& query,
                      const torch::Tensor& mask) {
    return run(memory, query, mask, coverage_);
  }
  AttentionOutput run(const torch::Tensor& memory, const torch::Tensor& query,
                      const torch::Tensor& mask, const torch::Tensor& coverage) {
    return attention_->forward(query, attention_->prepare(memory, mask), coverage, /*step=*/2);
  }

  Attention attention_{nullptr};
  torch::Tensor memory_, query_, coverage_;  // coverage_: coverage variants only
  const std::vector<int64_t> lengths_{5, 3, 1};
};

TEST_P(AttentionTest, Shapes) {
  const auto out = run(memory_, query_, mask_of(lengths_));
  const int64_t heads = GetParam().heads;
  EXPECT_EQ(out.weights.sizes(), (std::vector<int64_t>{kBatch, heads, kLen}));
  EXPECT_EQ(out.context.sizes(), (std::vector<int64_t>{kBatch, attention_->context_size()}));
  EXPECT_EQ(attention_->context_size(), GetParam().key_value ? 4 : kMemory);
}

TEST_P(AttentionTest, RowsSumToOneAndPaddingIsExactlyZero) {
  const auto out = run(memory_, query_, mask_of(lengths_));
  EXPECT_TRUE(torch::allclose(
      out.weights.sum(-1), torch::ones({kBatch, GetParam().heads}, torch::kDouble), 1e-12, 1e-12));
  for (std::size_t b = 0; b < lengths_.size(); ++b) {
    const auto row = out.weights[static_cast<int64_t>(b)];  // [m, S]
    const auto padded = row.narrow(/*dim=*/1, lengths_[b], kLen - lengths_[b]);
    EXPECT_TRUE(torch::equal(padded, torch::zeros_like(padded))) << "row " << b;
    const auto real = row.narrow(1, 0, lengths_[b]);
    if (normalizer_spec(GetParam().normalizer).sparse ||
        GetParam().local != LocalAttention::kGlobal) {
      EXPECT_TRUE((real >= 0).all().item<bool>());
      EXPECT_TRUE((real.amax(1) > 0).all().item<bool>());
    } else {
      EXPECT_TRUE((real > 0).all().item<bool>());
    }
  }
}

TEST_P(AttentionTest, PaddingContentDoesNotMatter) {
  const auto mask = mask_of(lengths_);
  auto noisy = memory_.clone();
  noisy.masked_fill_(mask.logical_not().unsqueeze(-1), 1e3);
  const auto a = run(memory_, query_, mask), b = run(noisy, query_, mask);
  EXPECT_TRUE(torch::allclose(a.weights, b.weights, 1e-12, 1e-12));
  EXPECT_TRUE(torch::allclose(a.context, b.context, 1e-12, 1e-12));
}

TEST_P(AttentionTest, PermutingPositionsPermutesWeights) {
  if (GetParam().local != LocalAttention::kGlobal) GTEST_SKIP() << "local windows are positional";
  const auto mask = mask_of({kLen, kLen, kLen});
  const auto perm = torch::tensor({3, 0, 4, 1, 2});
  const auto a = run(memory_, query_, mask);
  const auto b = run(memory_.index_select(1, perm), query_, mask,
                     coverage_.defined() ? coverage_.index_select(2, perm) : coverage_);
  EXPECT_TRUE(torch::allclose(b.weights, a.weights.index_select(2, perm), 1e-12, 1e-12));
  EXPECT_TRUE(torch::allclose(b.context, a.context, 1e-12, 1e-12));
}

// Central differences on every input and parameter element: d/dx of a random linear
// functional of (context, weights).
TEST_P(AttentionTest, GradientsMatchFiniteDifferences) {
  const auto mask = mask_of(lengths_);
  auto memory = memory_.clone().requires_grad_(true);
  auto query = query_.clone().requires_grad_(true);
  auto coverage = coverage_.defined() ? coverage_.clone().requires_grad_(true) : coverage_;
  const auto probe = run(memory_, query_, mask);
  const auto r_context = torch::randn_like(probe.context);
  const auto r_weights = torch::randn_like(probe.weights);
  const auto objective = [&] {
    const auto out = run(memory, query, mask, coverage);
    return (out.context * r_context).sum() + (out.weights * r_weights).sum();
  };
  objective().backward();
  std::vector<torch::Tensor> inputs = {memory, query};
  if (coverage.defined()) inputs.push_back(coverage);
  for (auto& p : attention_->parameters()) inputs.push_back(p);
  constexpr double kStep = 1e-6;
  for (auto& x : inputs) {
    const auto analytic = x.grad().clone();
    auto flat = x.detach().view({-1});
    auto grad_flat = analytic.view({-1});
    for (int64_t i = 0; i < flat.numel(); ++i) {
      const double saved = flat[i].item<double>();
      torch::NoGradGuard no_grad;
      flat[i] = saved + kStep;
      const double up = objective().item<double>();
      flat[i] = saved - kStep;
      const double down = objective().item<double>();
      flat[i] = saved;
      const double numeric = (up - down) / (2 * kStep);
      ASSERT_NEAR(grad_flat[i].item<double>(), numeric, 1e-6 * std::max(1.0, std::abs(numeric)))
          << "element " << i << " of a tensor of shape " << x.sizes();
    }
  }
}

INSTANTIATE_TEST_SUITE_P(AllScorers, AttentionTest, ::testing::ValuesIn(all_variants()),
                         variant_name);

TEST(AttentionOptionsTest, HeadsMustDivideSizes) {
  EXPECT_ANY_THROW(Attention(AttentionOptions("additive", 6, 8).size(6).heads(4)));
}

TEST(AttentionOptionsTest, ScaledDotDividesBySqrtOfKeySize) {
  torch::manual_seed(3);
  auto dot = Attention(AttentionOptions("dot", kMemory, kMemory));
  auto scaled = Attention(AttentionOptions("scaled_dot", kMemory, kMemory));
  const auto memory = torch::randn({1, kLen, kMemory}), query = torch::randn({1, kMemory});
  const auto mask = torch::ones({1, kLen}, torch::kBool);
  const auto raw = dot->prepare(memory, mask).projected.tensor;
  const auto div = scaled->prepare(memory, mask).projected.tensor;
  EXPECT_TRUE(torch::allclose(div, raw / std::sqrt(double{kMemory})));
}

// The additive scorer's fused steps (the training node and the decoding kernel, fp32) against
// the recorded ops in double, through each normalizer: no path skips one.
TEST(AttentionPathsTest, FusedAndRecordedPathsAgreeForEveryNormalizer) {
  for (const auto& name : normalizer_names()) {
    SCOPED_TRACE(name);
    const auto options = AttentionOptions("additive", 9, 6).size(40).normalizer(name);
    torch::manual_seed(11);
    Attention fused(options);
    torch::manual_seed(11);
    Attention recorded(options);
    recorded->to(torch::kDouble);
    const auto memory = torch::randn({4, 7, 6}) * 3.0;  // spread scores: sparse maps leave zeros
    const auto query = torch::randn({4, 9}) * 3.0;
    const auto mask = torch::arange(7).unsqueeze(0) < torch::tensor({7, 5, 2, 6}).unsqueeze(1);
    const auto run = [&](Attention& attention, torch::Dtype type) {
      const auto m = memory.to(type).detach().clone().requires_grad_();
      const auto q = query.to(type).detach().clone().requires_grad_();
      const auto out = attention->forward(q, attention->prepare(m, mask));
      const auto probe = torch::arange(out.context.numel(), out.context.options()).sin();
      auto grads = torch::autograd::grad({(out.context * probe.view_as(out.context)).sum()},
                                         {m, q, attention->parameters()[0]});
      grads.push_back(out.weights.detach());
      return grads;
    };
    const auto got = run(fused, torch::kFloat), want = run(recorded, torch::kDouble);
    for (std::size_t i = 0; i < got.size(); ++i) {
      EXPECT_TRUE(torch::allclose(got[i].to(torch::kDouble), want[i], 1e-4, 1e-5))
          << "output " << i << ": max difference "
          << (got[i].to(torch::kDouble) - want[i]).abs().max().item<double>();
    }
    EXPECT_EQ(got.back().eq(0).sum().item<int64_t>(), want.back().eq(0).sum().item<int64_t>());
    const torch::NoGradGuard decoding;  // the decoding kernel
    const auto decoded = fused->forward(query, fused->prepare(memory, mask)).weights;
    EXPECT_TRUE(torch::allclose(decoded.to(torch::kDouble), want.back(), 1e-4, 1e-5));
  }
}

// REINFORCE with a sparse normalizer: samples land only where a > 0, so the log-probability of
// each choice and every gradient stay finite.
TEST(AttentionPathsTest, SparseHardAttentionSamplesOnlyTheSupport) {
  for (const auto& spec : normalizer_registry()) {
    if (!spec.sparse) continue;
    SCOPED_TRACE(spec.name);
    torch::manual_seed(12);
    Attention attention(
        AttentionOptions("dot", 8, 8).normalizer(spec.name).hard(HardAttention::kSample));
    attention->to(torch::kDouble);
    const auto memory = (torch::randn({16, 9, 8}, torch::kDouble) * 2).requires_grad_();
    const auto mask = torch::ones({16, 9}, torch::kBool);
    const auto out =
        attention->forward(torch::randn({16, 8}, torch::kDouble), attention->prepare(memory, mask));
    const auto chosen = out.weights.squeeze(1).gather(1, out.choice);
    EXPECT_TRUE((chosen > 0).all().item<bool>());
    EXPECT_GT(out.weights.eq(0).sum().item<int64_t>(), 0);  // there were positions to avoid
    EXPECT_TRUE(torch::isfinite(out.log_prob).all().item<bool>());
    EXPECT_TRUE(torch::isfinite(out.entropy).all().item<bool>());
    (out.log_prob.sum() + out.entropy.sum() + out.context.sum()).backward();
    EXPECT_TRUE(torch::isfinite(memory.grad()).all().item<bool>());
  }
}

}  // namespace
}  // namespace s2s::model
