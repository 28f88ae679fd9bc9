// The written-out GRU direction (model/gru_direction.h) against LibTorch's packed GRU, whose
// backward autograd records op by op: the same states and the same gradients, in double; and
// the fused fp32 and bf16 directions against the double one.

#include "model/gru_direction.h"

#include <gtest/gtest.h>
#include <torch/torch.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <tuple>
#include <vector>

#include "device/precision.h"
#include "model/gru.h"

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

// The fused direction (CPU fp32 states: the kernel of model/gru_gates.h) with fp32 and with bf16
// products, against the same weights in double, which take the tensor path: states, final
// states and the gradients of x and all four weights. Rows are sorted by length with an
// `active` prefix per step, as bidirectional_gru passes them.

enum class Products { kFp32, kBf16 };

// The largest difference relative to the largest reference element (elementwise relative
// errors mean nothing near zero). fp32 differs from double by the kernel's tanh and sigmoid (a
// few 1e-7) and by rounding, summed over the steps: measured below 1e-6. bf16 products keep 8
// bits of mantissa, and dx = dgi W_ih comes out of a bf16 product: measured up to 1.6e-2 for
// the cell's dx with H = 4, below 1e-2 elsewhere, on CPUs with native bf16 (avx512_bf16); up to
// 3.7e-2 (dx, dW_ih, dW_hh of the 19-unit reversed case) on an AVX2 CPU, where LibTorch emulates
// the bf16 products and rounds their results once more.
double tolerance(Products p) { return p == Products::kFp32 ? 1e-5 : 5e-2; }

double relative_error(const torch::Tensor& got, const torch::Tensor& want) {
  const auto g = got.to(torch::kDouble), w = want.to(torch::kDouble);
  return ((g - w).abs().max() / w.abs().max().clamp_min(1e-30)).item<double>();
}

struct DirectionCase {
  std::vector<int64_t> lengths;  // sorted, longest first
  int64_t steps, hidden;
  bool reverse;
  bool states_used;  // false: only the final state reaches the loss (no per-step gradient)
};

std::vector<int64_t> active_rows(const std::vector<int64_t>& lengths, int64_t steps) {
  std::vector<int64_t> active;
  for (int64_t t = 0; t < steps; ++t) {
    active.push_back(
        std::count_if(lengths.begin(), lengths.end(), [t](int64_t l) { return l > t; }));
  }
  return active;
}

// U(-1/sqrt(H), 1/sqrt(H)), nn::GRU's initialization.
torch::Tensor gru_uniform(std::vector<int64_t> shape, int64_t hidden) {
  const double bound = 1.0 / std::sqrt(static_cast<double>(hidden));
  return torch::rand(shape, torch::kDouble) * (2 * bound) - bound;
}

class GruDirectionFusedTest : public ::testing::TestWithParam<std::tuple<Products, DirectionCase>> {
};

TEST_P(GruDirectionFusedTest, StatesAndGradientsEqualTheTensorPathInDouble) {
  const auto [products, c] = GetParam();
  torch::manual_seed(21);
  const int64_t batch = static_cast<int64_t>(c.lengths.size()), input = 6, hidden = c.hidden;
  const auto x = torch::randn({batch, c.steps, input}, torch::kDouble);
  // W_ih, b_ih, W_hh, b_hh as nn::GRU holds them.
  const std::vector<torch::Tensor> weights{
      gru_uniform({3 * hidden, input}, hidden), gru_uniform({3 * hidden}, hidden),
      gru_uniform({3 * hidden, hidden}, hidden), gru_uniform({3 * hidden}, hidden)};
  const auto a = torch::randn({batch, c.steps, hidden}, torch::kDouble);
  const auto b = torch::randn({batch, hidden}, torch::kDouble);
  const auto active = active_rows(c.lengths, c.steps);

  // Returns the states, the final states, then the gradients of x, W_ih, b_ih, W_hh, b_hh.
  const auto compute = [&](torch::Dtype dtype, bool bf16) {
    std::vector<torch::Tensor> leaves{x.to(dtype).requires_grad_()};
    for (const auto& w : weights) leaves.push_back(w.to(dtype).requires_grad_());
    // gi = W_ih x + b_ih for all steps at once; in bf16 as autocast computes it (model/gru.cpp).
    const auto cast = [&](const torch::Tensor& t) { return bf16 ? t.to(torch::kBFloat16) : t; };
    const auto gi_all =
        torch::nn::functional::linear(cast(leaves[0]), cast(leaves[1]), cast(leaves[2]));
    const auto out = model::gru_direction(gi_all, leaves[3], leaves[4], active, c.reverse, bf16);
    EXPECT_EQ(out.states.scalar_type(), dtype);
    torch::Tensor loss = (out.final * b.to(dtype)).sum();
    if (c.states_used) loss = loss + (out.states * a.to(dtype)).sum();
    auto result = torch::autograd::grad({loss}, leaves);
    result.insert(result.begin(), {out.states.detach(), out.final.detach()});
    return result;
  };
  const auto want = compute(torch::kDouble, false);
  const auto got = compute(torch::kFloat, products == Products::kBf16);
  const std::vector<std::string> names{"states", "final",  "d x",   "d W_ih",
                                       "d b_ih", "d W_hh", "d b_hh"};
  ASSERT_EQ(got.size(), names.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double error = relative_error(got[i], want[i]);
    EXPECT_LT(error, tolerance(products)) << names[i];
  }
  // Rows past their sentence: zero states and no gradient at their positions.
  for (int64_t row = 0; row < batch; ++row) {
    const int64_t len = c.lengths[static_cast<std::size_t>(row)];
    if (len == c.steps) continue;
    EXPECT_EQ(got[0][row].narrow(0, len, c.steps - len).abs().max().item<double>(), 0.0) << row;
    EXPECT_EQ(got[2][row].narrow(0, len, c.steps - len).abs().max().item<double>(), 0.0) << row;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Cases, GruDirectionFusedTest,
    ::testing::Combine(
        ::testing::Values(Products::kFp32, Products::kBf16),
        ::testing::Values(
            DirectionCase{{5}, 5, 8, false, true},  // one row
            // Rows ending at different steps; H not a multiple of a vector.
            DirectionCase{{7, 5, 5, 2, 1}, 7, 19, false, true},
            DirectionCase{{7, 5, 5, 2, 1}, 7, 19, true, true},
            // No row reaches the last step (active[6] = 0).
            DirectionCase{{6, 4, 4, 1}, 7, 16, true, true},
            DirectionCase{{4, 3, 1}, 4, 8, false, false},  // only the final state used
            // 64 x 128 hidden units: the first steps' gates run on several threads.
            DirectionCase{{9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 8, 8, 8, 8, 8, 8,
                           8, 8, 8, 8, 8, 8, 7, 7, 7, 7, 7, 7, 7, 7, 6, 6, 6, 6, 6, 6, 5, 5,
                           5, 5, 5, 4, 4, 4, 4, 3, 3, 3, 3, 3, 2, 2, 2, 2, 1, 1, 1, 1},
                          9,
                          128,
                          false,
                          true})));

// The encoder's whole bidirectional GRU (model/gru.h) with bf16 chosen as the encoder chooses
// it: under CPU bf16 autocast (the input products) and mixed_precision (the hidden ones),
// unsorted lengths, two layers; against the same GRU in double.
TEST(GruEncoderBf16Test, AutocastEncoderGruIsCloseToDouble) {
  torch::manual_seed(22);
  torch::nn::GRU rnn(
      torch::nn::GRUOptions(5, 12).num_layers(2).bidirectional(true).batch_first(true));
  auto reference = std::dynamic_pointer_cast<torch::nn::GRUImpl>(rnn->clone());
  reference->to(torch::kDouble);
  const auto x = torch::randn({4, 6, 5});
  const auto lengths = torch::tensor({3, 6, 1, 6}, torch::kLong);
  const auto a = torch::randn({4, 6, 24}), b = torch::randn({4, 24});
  const auto compute = [&](torch::nn::GRUImpl& gru, torch::Dtype dtype,
                           device::Precision precision) {
    const auto input = x.to(dtype).requires_grad_();
    torch::Tensor loss;
    {
      const device::AutocastGuard autocast(torch::kCPU, precision);
      const auto out = model::bidirectional_gru(gru, input, lengths, 0.0, false,
                                                /*bf16_hidden=*/model::mixed_precision(input));
      loss = (out.states * a.to(dtype)).sum() + (out.final * b.to(dtype)).sum();
    }
    std::vector<torch::Tensor> inputs{input};
    for (const auto& p : gru.parameters()) inputs.push_back(p);
    return torch::autograd::grad({loss}, inputs);
  };
  const auto want = compute(*reference, torch::kDouble, device::Precision::kFp32);
  const auto got = compute(*rnn, torch::kFloat, device::Precision::kBf16);
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(got[i].scalar_type(), torch::kFloat) << i;
    const double error = relative_error(got[i], want[i]);
    EXPECT_LT(error, tolerance(Products::kBf16)) << "gradient " << i;
  }
}
}  // namespace
}  // namespace s2s
