// The decoder's GRUCell step (model/gru_cell.h): in double against GRUCell's recorded forward,
// and fused in fp32 and with bf16 products against the same weights in double.

#include "model/gru_cell.h"

#include <gtest/gtest.h>
#include <torch/torch.h>

#include <string>
#include <tuple>
#include <vector>

namespace s2s {
namespace {

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

// The cell's node over steps whose rows shrink (rows that finished leave the batch), fused
// (CPU fp32 states: the kernel of model/gru_gates.h) with fp32 products and with bf16 ones
// (share_cell's flag, as the decoder sets it under bf16 mixed precision), against the same
// weights in double, which take the tensor path: every step's state and the gradients of the
// initial state, every step's input and the four weights.

enum class Products { kFp32, kBf16 };

// The largest difference relative to the largest reference element (elementwise relative
// errors mean nothing near zero). fp32 differs from double by the kernel's tanh and sigmoid (a
// few 1e-7) and by rounding, summed over the steps: measured below 1e-6. bf16 products keep 8
// bits of mantissa, and dx = dgi W_ih comes out of a bf16 product: measured up to 1.6e-2 for
// the cell's dx with H = 4, below 1e-2 elsewhere.
double tolerance(Products p) { return p == Products::kFp32 ? 1e-5 : 3e-2; }

double relative_error(const torch::Tensor& got, const torch::Tensor& want) {
  const auto g = got.to(torch::kDouble), w = want.to(torch::kDouble);
  return ((g - w).abs().max() / w.abs().max().clamp_min(1e-30)).item<double>();
}

struct CellCase {
  std::vector<int64_t> rows;  // per step, non-increasing
  int64_t input, hidden;
};

class GruCellFusedTest : public ::testing::TestWithParam<std::tuple<Products, CellCase>> {};

TEST_P(GruCellFusedTest, StatesAndGradientsEqualTheTensorPathInDouble) {
  const auto [products, c] = GetParam();
  torch::manual_seed(23);
  torch::nn::GRUCell cell(c.input, c.hidden);
  auto reference = std::dynamic_pointer_cast<torch::nn::GRUCellImpl>(cell->clone());
  reference->to(torch::kDouble);
  const auto h0 = torch::randn({c.rows.front(), c.hidden}, torch::kDouble);
  std::vector<torch::Tensor> xs, factors;
  for (const int64_t rows : c.rows) {
    xs.push_back(torch::randn({rows, c.input}, torch::kDouble));
    factors.push_back(torch::randn({rows, c.hidden}, torch::kDouble));
  }

  // Returns every step's state, then the gradients of h0, of every x and of the weights.
  const auto compute = [&](torch::nn::GRUCellImpl& module, torch::Dtype dtype, bool bf16) {
    const auto shared = model::share_cell(module, bf16);
    EXPECT_TRUE(shared.w_ih.grad.defined());  // the node, not the decoding path
    std::vector<torch::Tensor> leaves{h0.to(dtype).requires_grad_()};
    for (const auto& x : xs) leaves.push_back(x.to(dtype).requires_grad_());
    auto h = leaves[0];
    torch::Tensor loss = torch::zeros({}, dtype);
    std::vector<torch::Tensor> states;
    for (std::size_t t = 0; t < xs.size(); ++t) {
      const auto& x = leaves[t + 1];
      h = model::gru_cell_step(shared, x, h.narrow(0, 0, x.size(0)));
      EXPECT_EQ(h.scalar_type(), dtype);
      states.push_back(h.detach());
      loss = loss + (h * factors[t].to(dtype)).sum();
    }
    for (const auto& p : module.parameters()) leaves.push_back(p);
    auto result = torch::autograd::grad({loss}, leaves);
    result.insert(result.begin(), states.begin(), states.end());
    return result;
  };
  const auto want = compute(*reference, torch::kDouble, false);
  const auto got = compute(*cell, torch::kFloat, products == Products::kBf16);
  ASSERT_EQ(got.size(), want.size());
  std::vector<std::string> names;
  for (std::size_t t = 0; t < xs.size(); ++t) names.push_back("state " + std::to_string(t));
  names.emplace_back("d h0");
  for (std::size_t t = 0; t < xs.size(); ++t) names.push_back("d x " + std::to_string(t));
  for (const char* w : {"d W_ih", "d W_hh", "d b_ih", "d b_hh"}) names.emplace_back(w);
  ASSERT_EQ(got.size(), names.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double error = relative_error(got[i], want[i]);
    EXPECT_LT(error, tolerance(products)) << names[i];
  }
}

INSTANTIATE_TEST_SUITE_P(
    Cases, GruCellFusedTest,
    ::testing::Combine(::testing::Values(Products::kFp32, Products::kBf16),
                       ::testing::Values(CellCase{{1, 1}, 3, 4},
                                         // Rows ending at different steps; sizes not
                                         // multiples of a vector.
                                         CellCase{{5, 5, 3, 1}, 7, 19},
                                         // 64 x 160 hidden units: the first steps' gates run
                                         // on several threads.
                                         CellCase{{64, 64, 40, 7}, 24, 160})));

}  // namespace
}  // namespace s2s
