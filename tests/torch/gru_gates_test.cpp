// The fused GRU gates (model/gru_kernel.h) against the same equations as tensor ops in double
// (model/gru_gates.h; equations: model/gru.h): fp32 and bf16 products, input products with strided
// rows, the extra incoming gradient of the encoder's states, and enough rows to run on several
// threads.
#include "model/gru_gates.h"

#include <gtest/gtest.h>
#include <torch/torch.h>

namespace s2s {
namespace {

void expect_close(const torch::Tensor& got, const torch::Tensor& want, const std::string& what) {
  const auto diff = (got.to(torch::kDouble) - want.to(torch::kDouble)).abs().max();
  EXPECT_TRUE(torch::allclose(got.to(torch::kDouble), want.to(torch::kDouble), 1e-5, 1e-6))
      << what << ": max difference " << diff.item<double>();
}

struct Case {
  torch::ScalarType products;
  int64_t rows, hidden;
  bool extra;  // an extra incoming gradient (d_next_extra)
};

class GruGatesTest : public ::testing::TestWithParam<Case> {};

TEST_P(GruGatesTest, FusedEqualsTheTensorOpsInDouble) {
  const auto c = GetParam();
  torch::manual_seed(4);
  // gi: rows of a [rows, 3 steps, 3H] tensor, as the encoder reads one step of all its inputs.
  const auto gi_all = (2 * torch::randn({c.rows, 3, 3 * c.hidden})).to(c.products);
  const auto gi = gi_all.select(1, 1);
  const auto gh = (2 * torch::randn({c.rows, 3 * c.hidden})).to(c.products);
  const auto h = torch::randn({c.rows, c.hidden});
  const auto d = torch::randn({c.rows, c.hidden});
  const auto extra = c.extra ? torch::randn({c.rows, 2, c.hidden}).select(1, 0) : torch::Tensor();

  const auto fused = model::gru_gates_forward(gi, gh, h);
  const auto wide = [](const torch::Tensor& t) { return t.to(torch::kDouble); };
  const auto want = model::gru_gates_forward(wide(gi), wide(gh), wide(h));
  expect_close(fused.next, want.next, "h'");
  expect_close(fused.saved, want.saved, "saved gates");
  // Without a backward (decoding): the same state, nothing saved.
  const auto decoding = model::gru_gates_forward(gi, gh, h, /*for_backward=*/false);
  EXPECT_TRUE(torch::equal(decoding.next, fused.next));
  EXPECT_FALSE(decoding.saved.defined());

  const auto got = model::gru_gates_backward(d, extra, fused.saved, h, c.products);
  const auto ref = model::gru_gates_backward(wide(d), extra.defined() ? wide(extra) : extra,
                                             want.saved, wide(h), torch::kDouble);
  expect_close(got.d_gi, ref.d_gi, "d gi");
  expect_close(got.d_gh, ref.d_gh, "d gh");
  expect_close(got.d_h, ref.d_h, "d h");
  EXPECT_EQ(got.d_gi_mm.scalar_type(), c.products);
  EXPECT_EQ(got.d_gh_mm.scalar_type(), c.products);
  // The copies in the products' type are the fp32 gradients rounded.
  EXPECT_TRUE(torch::equal(got.d_gi_mm, got.d_gi.to(c.products)));
  EXPECT_TRUE(torch::equal(got.d_gh_mm, got.d_gh.to(c.products)));
}

INSTANTIATE_TEST_SUITE_P(Cases, GruGatesTest,
                         ::testing::Values(Case{torch::kFloat, 3, 5, false},
                                           Case{torch::kFloat, 3, 5, true},
                                           Case{torch::kBFloat16, 4, 19, true},
                                           Case{torch::kFloat, 64, 256, true},
                                           Case{torch::kBFloat16, 64, 256, false}));

}  // namespace
}  // namespace s2s
