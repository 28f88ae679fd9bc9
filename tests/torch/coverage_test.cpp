// Coverage (model.attention.coverage: Tu et al. 2016; training.coverage_loss: See et al. 2017):
// w starts at zero (the model without coverage), the decoder state sums the attention so far and
// is reordered and shortened with the rows, and the coverage loss on known attention patterns.
// The gradients are checked with every scorer in attention_test.cpp, beam search against
// teacher forcing in search_test.cpp.

#include <gtest/gtest.h>
#include <torch/torch.h>

#include "config/config.h"
#include "data/vocab.h"
#include "model/attention.h"
#include "model/build_model.h"
#include "train/attention_loss.h"

namespace s2s {
namespace {

TEST(CoverageTest, ZeroWeightStartsAsTheModelWithoutCoverage) {
  for (const auto& spec : model::scorer_registry()) {
    SCOPED_TRACE(spec.name);
    const auto options = model::AttentionOptions(spec.name, 6, 6).size(4).heads(2);
    torch::manual_seed(4);
    model::Attention plain(options);
    torch::manual_seed(4);
    model::Attention covered(model::AttentionOptions(options).coverage(true));
    EXPECT_EQ(covered->named_parameters()["coverage_weight"].sizes(),
              (torch::IntArrayRef{2, spec.projected_size(model::attention_sizes(options).scorer)}));
    const auto memory = torch::randn({3, 5, 6}), query = torch::randn({3, 6});
    const auto mask = torch::ones({3, 5}, torch::kBool);
    const auto coverage = torch::rand({3, 2, 5}) * 3;
    const auto a = plain->forward(query, plain->prepare(memory, mask));
    const auto b = covered->forward(query, covered->prepare(memory, mask), coverage);
    EXPECT_TRUE(torch::allclose(a.weights, b.weights, 1e-6, 1e-7));
    EXPECT_TRUE(torch::allclose(a.context, b.context, 1e-6, 1e-7));
  }
}

TEST(CoverageTest, DecoderStateSumsTheAttentionSoFar) {
  config::ModelConfig m;
  m.emb_size = 8;
  m.hidden_size = 8;
  m.attention.heads = 2;
  m.attention.coverage = true;
  torch::manual_seed(5);
  auto model = model::build_model(m, 20, 20);
  model->eval();
  const auto src = torch::randint(4, 20, {3, 6});
  const auto encoded = model->encode(src, torch::tensor({6, 4, 2}));
  auto state = encoded.state;
  ASSERT_TRUE(state.coverage.defined());
  EXPECT_TRUE(state.coverage.eq(0).all().item<bool>());
  auto sum = torch::zeros({3, 2, 6});
  auto prev = torch::full({3}, data::Vocab::kBos, torch::kLong);
  for (int t = 0; t < 3; ++t) {
    const auto out = model->decoder->step(prev, state, encoded.memory);
    sum = sum + out.attention;
    prev = model->decoder->logits(out.features).argmax(-1);
  }
  EXPECT_TRUE(torch::allclose(state.coverage, sum, 1e-6, 1e-6));
  EXPECT_TRUE(state.coverage.narrow(2, 2, 4)[2].eq(0).all().item<bool>());  // padding: never
  const auto order = torch::tensor({2, 0});
  EXPECT_TRUE(torch::equal(state.index_select(order).coverage, sum.index_select(0, order)));
  EXPECT_EQ(state.head(1).coverage.sizes(), (torch::IntArrayRef{1, 2, 6}));
}

TEST(CoverageLossTest, CountsAttentionThatReturnsWhereItHasBeen) {
  const auto one_hot = [](std::vector<int64_t> positions, int64_t len) {
    auto a = torch::zeros({1, static_cast<int64_t>(positions.size()), 1, len});
    for (std::size_t t = 0; t < positions.size(); ++t)
      a[0][static_cast<int64_t>(t)][0][positions[t]] = 1;
    return a;
  };
  // A diagonal never returns; 0, 1, 0 returns once with all its weight; 0, 0, 0 twice.
  EXPECT_EQ(train::coverage_loss(one_hot({0, 1, 2}, 3)).item<double>(), 0.0);
  EXPECT_EQ(train::coverage_loss(one_hot({0, 1, 0}, 3)).item<double>(), 1.0);
  EXPECT_EQ(train::coverage_loss(one_hot({0, 0, 0}, 3)).item<double>(), 2.0);
  // Spread weights: step 1 (0.5, 0.5) after step 0 (1, 0) -> min(0.5, 1) + min(0.5, 0) = 0.5.
  const auto spread = torch::tensor({1.0f, 0.0f, 0.5f, 0.5f}).view({1, 2, 1, 2});
  EXPECT_FLOAT_EQ(train::coverage_loss(spread).item<float>(), 0.5f);
  // Two heads: the mean (0 and 1); a padded step of zeros adds nothing.
  auto heads = torch::cat({one_hot({0, 1, 2}, 3), one_hot({0, 1, 0}, 3)}, /*dim=*/2);
  heads = torch::cat({heads, torch::zeros({1, 1, 2, 3})}, /*dim=*/1);
  EXPECT_DOUBLE_EQ(train::coverage_loss(heads).item<double>(), 0.5);
  // Its gradient reaches the attention of the step that returns.
  auto a = torch::tensor({0.9f, 0.1f, 0.8f, 0.2f}).view({1, 2, 1, 2}).requires_grad_();
  train::coverage_loss(a).backward();  // min(0.8, 0.9) + min(0.2, 0.1) = 0.8 + 0.1
  EXPECT_TRUE(torch::allclose(a.grad().view({-1}), torch::tensor({0.0f, 1.0f, 1.0f, 0.0f})));
}

}  // namespace
}  // namespace s2s
