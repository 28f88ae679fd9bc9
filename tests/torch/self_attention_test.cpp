// Encoder self-attention: shapes, normalization, masking of padded keys, and that padding
// never changes the states of real tokens.

#include "model/self_attention.h"

#include <gtest/gtest.h>
#include <torch/torch.h>

#include "model/encoder.h"

namespace s2s::model {
namespace {

TEST(SelfAttentionTest, ShapesNormalizationAndMasking) {
  torch::manual_seed(5);
  SelfAttention attention(SelfAttentionOptions(8, 2));
  attention->eval();
  const auto states = torch::randn({2, 4, 8});
  const auto mask = torch::tensor({1, 1, 1, 1, 1, 1, 0, 0}, torch::kBool).view({2, 4});
  const auto out = attention(states, mask);
  EXPECT_EQ(out.states.sizes(), states.sizes());
  EXPECT_EQ(out.weights.sizes(), (std::vector<int64_t>{2, 2, 4, 4}));
  EXPECT_TRUE(torch::allclose(out.weights.sum(-1), torch::ones({2, 2, 4})));
  const auto padded_keys = out.weights[1].narrow(/*dim=*/2, 2, 2);
  EXPECT_TRUE(torch::equal(padded_keys, torch::zeros_like(padded_keys)));
}

TEST(SelfAttentionTest, PaddingDoesNotChangeRealPositions) {
  torch::manual_seed(6);
  SelfAttention attention(SelfAttentionOptions(8, 4));
  attention->eval();
  auto states = torch::randn({1, 5, 8});
  const auto mask = torch::tensor({1, 1, 1, 0, 0}, torch::kBool).view({1, 5});
  const auto a = attention(states, mask);
  states.narrow(1, 3, 2).fill_(100.0);
  const auto b = attention(states, mask);
  EXPECT_TRUE(torch::allclose(a.states.narrow(1, 0, 3), b.states.narrow(1, 0, 3), 1e-5, 1e-6));
}

TEST(SelfAttentionTest, EncoderExposesWeights) {
  torch::manual_seed(7);
  Encoder encoder(EncoderOptions(10, 4, 4).self_attention(true).self_attention_heads(2));
  encoder->eval();
  const auto src = torch::tensor({4, 5, 6, 3, 7, 3, 0, 0}, torch::kLong).view({2, 4});
  const auto out = encoder(src, torch::tensor({4, 2}, torch::kLong));
  ASSERT_TRUE(out.self_attention.defined());
  EXPECT_EQ(out.self_attention.sizes(), (std::vector<int64_t>{2, 2, 4, 4}));
  EXPECT_EQ(out.states.sizes(), (std::vector<int64_t>{2, 4, 8}));
}

}  // namespace
}  // namespace s2s::model
