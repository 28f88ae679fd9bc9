// The written-out GRU direction (model/gru_direction.h) against LibTorch's packed GRU, whose
// backward autograd records op by op: the same states and the same gradients, in double.

#include <gtest/gtest.h>
#include <torch/torch.h>

#include "model/gru.h"
#include "model/gru_cell.h"

namespace s2s {
namespace {

namespace rnn_utils = torch::nn::utils::rnn;

struct Reference {
  torch::Tensor states, final;
};

Reference packed_gru(torch::nn::GRU& rnn, const torch::Tensor& x, const torch::Tensor& lengths) {
  const auto packed = rnn_utils::pack_padded_sequence(x, lengths, true, false);
  auto [out, hidden] = rnn->forward_with_packed_input(packed);
  const int64_t n = hidden.size(0);
  return {std::get<0>(rnn_utils::pad_packed_sequence(out, true, 0.0, x.size(1))),
          torch::cat({hidden[n - 2], hidden[n - 1]}, 1)};
}

// Gradients of sum(states * a) + sum(final * b) with respect to x and every GRU parameter.
std::vector<torch::Tensor> gradients(torch::nn::GRU& rnn, const torch::Tensor& x,
                                     const torch::Tensor& states, const torch::Tensor& final,
                                     const torch::Tensor& a, const torch::Tensor& b) {
  std::vector<torch::Tensor> inputs{x};
  for (const auto& p : rnn->parameters()) inputs.push_back(p);
  torch::Tensor loss = (final * b).sum();
  if (a.defined()) loss = loss + (states * a).sum();
  return torch::autograd::grad({loss}, inputs);
}

class GruDirectionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    torch::manual_seed(11);
    rnn = torch::nn::GRU(
        torch::nn::GRUOptions(5, 4).num_layers(2).bidirectional(true).batch_first(true));
    rnn->to(torch::kDouble);
    x = torch::randn({4, 7, 5}, torch::kDouble).requires_grad_();
    lengths = torch::tensor({4, 7, 2, 7}, torch::kLong);  // unsorted, with ties
  }

  torch::nn::GRU rnn{nullptr};
  torch::Tensor x, lengths;
};

TEST_F(GruDirectionTest, StatesAndGradientsEqualThePackedGru) {
  const auto ref = packed_gru(rnn, x, lengths);
  const auto mine = model::bidirectional_gru(*rnn, x, lengths, 0.0, false);
  ASSERT_TRUE(torch::allclose(mine.states, ref.states, 1e-10, 1e-12));
  ASSERT_TRUE(torch::allclose(mine.final, ref.final, 1e-10, 1e-12));
  const auto a = torch::randn_like(ref.states), b = torch::randn_like(ref.final);
  const auto expected = gradients(rnn, x, ref.states, ref.final, a, b);
  const auto got = gradients(rnn, x, mine.states, mine.final, a, b);
  ASSERT_EQ(got.size(), expected.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    EXPECT_TRUE(torch::allclose(got[i], expected[i], 1e-9, 1e-11)) << "gradient " << i;
  }
}

TEST_F(GruDirectionTest, OnlyTheFinalStateUsedStillReachesEveryStep) {
  const auto ref = packed_gru(rnn, x, lengths);
  const auto mine = model::bidirectional_gru(*rnn, x, lengths, 0.0, false);
  const auto b = torch::randn_like(ref.final);
  const auto expected = gradients(rnn, x, ref.states, ref.final, {}, b);
  const auto got = gradients(rnn, x, mine.states, mine.final, {}, b);
  for (std::size_t i = 0; i < got.size(); ++i) {
    EXPECT_TRUE(torch::allclose(got[i], expected[i], 1e-9, 1e-11)) << "gradient " << i;
  }
  // The gradient reaches x only at real positions: row 2 has 2 tokens of 7.
  EXPECT_EQ(got[0][2].narrow(0, 2, 5).abs().sum().item<double>(), 0.0);
  EXPECT_GT(got[0][2].narrow(0, 0, 2).abs().sum().item<double>(), 0.0);
}

TEST_F(GruDirectionTest, Bf16HiddenProductsStayCloseToFp32) {
  rnn->to(torch::kFloat);
  const auto xf = x.detach().to(torch::kFloat);
  const auto fp32 = model::bidirectional_gru(*rnn, xf, lengths, 0.0, false);
  const auto bf16 = model::bidirectional_gru(*rnn, xf, lengths, 0.0, false, /*bf16_hidden=*/true);
  EXPECT_EQ(bf16.states.scalar_type(), torch::kFloat);
  EXPECT_FALSE(torch::equal(bf16.states, fp32.states));  // the products did run in bf16
  EXPECT_TRUE(torch::allclose(bf16.states, fp32.states, 0.0, 0.03));
  EXPECT_TRUE(torch::allclose(bf16.final, fp32.final, 0.0, 0.03));
}

// The decoder's cell node (model/gru_cell.h) over three steps with shrinking rows against
// GRUCell's recorded forward: the same states and gradients, the weights' from the products
// deferred to one over all steps.
TEST(GruCellStepTest, StatesAndGradientsEqualTheRecordedCell) {
  torch::manual_seed(12);
  torch::nn::GRUCell cell(3, 4);
  cell->to(torch::kDouble);
  const auto h0 = torch::randn({4, 4}, torch::kDouble).requires_grad_();
  std::vector<torch::Tensor> xs;
  for (const int64_t rows : {4, 4, 2}) {
    xs.push_back(torch::randn({rows, 3}, torch::kDouble).requires_grad_());
  }
  const auto run = [&](bool node) {
    const auto shared = model::share_cell(*cell, false);
    if (node) {
      EXPECT_TRUE(shared.w_ih.grad.defined());
    }
    auto h = h0;
    torch::Tensor loss = torch::zeros({}, torch::kDouble);
    for (const auto& x : xs) {
      const auto prev = h.narrow(0, 0, x.size(0));
      h = node ? model::gru_cell_step(shared, x, prev) : cell->forward(x, prev);
      loss = loss + (h * h).sum() + h.select(1, 0).sum();
    }
    std::vector<torch::Tensor> inputs{h0};
    inputs.insert(inputs.end(), xs.begin(), xs.end());
    for (const auto& p : cell->parameters()) inputs.push_back(p);
    return torch::autograd::grad({loss}, inputs);
  };
  const auto recorded = run(false), node = run(true);
  ASSERT_EQ(node.size(), recorded.size());
  for (std::size_t i = 0; i < node.size(); ++i) {
    EXPECT_TRUE(torch::allclose(node[i], recorded[i], 1e-10, 1e-12)) << "gradient " << i;
  }
}

}  // namespace
}  // namespace s2s
