// The fused cross-entropy (loss/cross_entropy_kernel.h) against LibTorch's log_softmax path in
// double: per-row terms, their gradients, padding and label smoothing in sequence_loss.
#include "loss/loss.h"

#include <gtest/gtest.h>
#include <torch/torch.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "data/vocab.h"
#include "loss/cross_entropy_kernel.h"

namespace s2s {
namespace {

struct Terms {
  torch::Tensor nll, uniform, grad;  // grad of sum(a * nll + b * uniform) w.r.t. the logits
};

Terms terms(const torch::Tensor& logits, const torch::Tensor& gold, const torch::Tensor& a,
            const torch::Tensor& b) {
  const auto x = logits.detach().requires_grad_();
  const auto t = loss::cross_entropy_terms(x, gold, /*want_uniform=*/true);
  ((t.nll * a.to(t.nll.scalar_type())).sum() + (t.uniform * b.to(t.uniform.scalar_type())).sum())
      .backward();
  return {t.nll.detach(), t.uniform.detach(), x.grad()};
}

void expect_close(const torch::Tensor& got, const torch::Tensor& want, double rtol, double atol,
                  const char* what) {
  const auto g = got.to(torch::kDouble), w = want.to(torch::kDouble);
  EXPECT_TRUE(torch::allclose(g, w, rtol, atol))
      << what << ": max |difference| " << (g - w).abs().max().item<double>();
}

// Vocabularies below, at and above the vector widths, and one of the reference model's size.
TEST(FusedCrossEntropyTest, Fp32MatchesLogSoftmaxInDouble) {
  torch::manual_seed(3);
  for (const int64_t vocab : {1, 7, 16, 37, 5898}) {
    const int64_t rows = 9;
    const auto logits = torch::randn({rows, vocab}) * 4;
    const auto gold = torch::randint(vocab, {rows}, torch::kLong);
    const auto a = torch::rand({rows}), b = torch::rand({rows});
    const auto fused = terms(logits, gold, a, b);
    const auto exact = terms(logits.to(torch::kDouble), gold, a, b);
    EXPECT_EQ(fused.nll.scalar_type(), torch::kFloat);
    EXPECT_EQ(fused.grad.scalar_type(), torch::kFloat);
    expect_close(fused.nll, exact.nll, 1e-5, 1e-5, "nll");
    expect_close(fused.uniform, exact.uniform, 1e-5, 1e-5, "uniform");
    expect_close(fused.grad, exact.grad, 1e-5, 1e-6, "gradient");
  }
}

TEST(FusedCrossEntropyTest, Bf16ReadsBf16AndWritesABf16Gradient) {
  torch::manual_seed(4);
  const int64_t rows = 6, vocab = 1000;
  const auto logits = (torch::randn({rows, vocab}) * 3).to(torch::kBFloat16);
  const auto gold = torch::randint(vocab, {rows}, torch::kLong);
  const auto a = torch::rand({rows}), b = torch::rand({rows});
  const auto fused = terms(logits, gold, a, b);
  // The same bf16 values, widened exactly: only the gradient's rounding to bf16 differs.
  const auto exact = terms(logits.to(torch::kDouble), gold, a, b);
  EXPECT_EQ(fused.grad.scalar_type(), torch::kBFloat16);
  expect_close(fused.nll, exact.nll, 1e-5, 1e-5, "nll");
  expect_close(fused.uniform, exact.uniform, 1e-5, 1e-5, "uniform");
  expect_close(fused.grad, exact.grad, 1.0 / 128, 1e-6, "gradient");
}

// Far-apart logits: exp underflows to (nearly) 0 without making the sums inexact, and a
// non-finite logit makes its row's loss non-finite (the trainer stops on that).
TEST(FusedCrossEntropyTest, ExtremeLogitsStayExactAndNonFiniteOnesPropagate) {
  auto logits = torch::zeros({3, 20});
  logits[0][5] = -1e4;
  logits[1][2] = 200;
  logits[2][7] = std::numeric_limits<float>::quiet_NaN();
  const auto gold = torch::tensor({5, 3, 0}, torch::kLong);
  const auto t = loss::cross_entropy_terms(logits, gold, true);
  EXPECT_NEAR(t.nll[0].item<double>(), 1e4 + std::log(19.0), 1e-2);
  EXPECT_NEAR(t.nll[1].item<double>(), 200.0, 1e-3);
  EXPECT_FALSE(std::isfinite(t.nll[2].item<double>()));
}

// A gold index outside [0, V) is refused before any row is read, naming the index, its row and
// V, through the loss (fp32 and bf16) and the kernel's backward alike.
TEST(FusedCrossEntropyTest, OutOfRangeGoldIndexNamesTheIndexAndTheVocabulary) {
  const int64_t rows = 3, vocab = 5;
  const auto message = [](const auto& fn) -> std::string {
    try {
      fn();
    } catch (const std::out_of_range& e) {
      return e.what();
    }
    return "no std::out_of_range";
  };
  const auto want = [](int64_t gold, int64_t row) {
    return "cross-entropy: gold index " + std::to_string(gold) + " of row " + std::to_string(row) +
           " is outside the vocabulary [0, V) with V = 5";
  };
  for (const auto type : {torch::kFloat, torch::kBFloat16}) {
    const auto logits = torch::zeros({rows, vocab}, type);
    const auto loss_with = [&](std::vector<int64_t> gold) {
      return [&logits, gold] { loss::cross_entropy_terms(logits, torch::tensor(gold), true); };
    };
    EXPECT_EQ(message(loss_with({0, 5, 1})), want(5, 1));
    EXPECT_EQ(message(loss_with({0, 1, -1})), want(-1, 2));
    // The largest index and padding (a real index, masked later) are in range.
    EXPECT_NO_THROW(loss_with({vocab - 1, data::Vocab::kPad, 0})());
  }

  std::vector<float> x(rows * vocab, 0.0f), lse(rows, 0.0f), d(rows, 1.0f), grad(rows * vocab);
  const std::vector<int64_t> gold = {0, 1, 9};
  const loss::CrossEntropyRows r{rows, vocab, gold.data(), lse.data()};
  EXPECT_EQ(
      message([&] { loss::cross_entropy_backward(x.data(), r, d.data(), d.data(), grad.data()); }),
      want(9, 2));
}

// Padding targets take no loss and no gradient, and label smoothing mixes in the uniform term,
// the same through the fused path (fp32) as through LibTorch's (double).
TEST(FusedCrossEntropyTest, SequenceLossMatchesWithPaddingAndSmoothing) {
  torch::manual_seed(5);
  const int64_t batch = 3, length = 4, vocab = 23;
  auto targets = torch::randint(data::Vocab::kPad + 1, vocab, {batch, length}, torch::kLong);
  targets[2][3] = data::Vocab::kPad;
  targets[1][2] = data::Vocab::kPad;
  targets[1][3] = data::Vocab::kPad;
  const auto index = torch::arange(batch * length, torch::kLong);
  const auto logits = torch::randn({batch * length, vocab}) * 2;
  for (const double smoothing : {0.0, 0.1}) {
    const auto run = [&](const torch::Tensor& x) {
      const auto leaf = x.detach().requires_grad_();
      const auto r = loss::sequence_loss(leaf, index, targets, smoothing);
      r.loss.backward();
      return std::make_pair(r, leaf.grad());
    };
    const auto [fused, fused_grad] = run(logits);
    const auto [exact, exact_grad] = run(logits.to(torch::kDouble));
    EXPECT_EQ(fused.tokens, 9);
    EXPECT_NEAR(fused.loss.item<double>(), exact.loss.item<double>(), 1e-5);
    EXPECT_NEAR(fused.nll_sum, exact.nll_sum, 1e-4);
    expect_close(fused.token_nll, exact.token_nll, 1e-5, 1e-5, "token nll");
    expect_close(fused_grad, exact_grad, 1e-5, 1e-6, "gradient");
    EXPECT_EQ(fused_grad[7].abs().sum().item<double>(), 0.0) << "a padding row got a gradient";
  }
}

}  // namespace
}  // namespace s2s
