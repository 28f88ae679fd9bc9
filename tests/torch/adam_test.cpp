// The fused Adam (train/adam.h) against LibTorch's optim::Adam: the same parameters and moments
// after several updates, in fp32 and fp64, with and without weight decay, on parameters large
// enough to take the parallel loop; the fallback; and states that load across the two.

#include "train/adam.h"

#include <gtest/gtest.h>
#include <torch/torch.h>

#include <memory>
#include <sstream>

namespace s2s {
namespace {

using torch::optim::Adam;
using torch::optim::AdamOptions;
using torch::optim::AdamParamState;

// Parameters of several shapes, one above the loop's parallel threshold (2^15 elements).
std::vector<torch::Tensor> make_params(torch::ScalarType type) {
  torch::manual_seed(11);
  std::vector<torch::Tensor> out;
  for (const auto& shape : std::vector<std::vector<int64_t>>{{7}, {33, 5}, {300, 130}}) {
    out.push_back(torch::randn(shape, type).requires_grad_());
  }
  return out;
}

std::vector<torch::Tensor> clones(const std::vector<torch::Tensor>& params) {
  std::vector<torch::Tensor> out;
  for (const auto& p : params) out.push_back(p.detach().clone().requires_grad_());
  return out;
}

// Sets the same pseudo-random gradient, of varied scale, on both sets, then one update each.
void step_both(torch::optim::Optimizer& a, std::vector<torch::Tensor>& pa,
               torch::optim::Optimizer& b, std::vector<torch::Tensor>& pb, int update) {
  for (std::size_t i = 0; i < pa.size(); ++i) {
    const auto g = torch::randn(pa[i].sizes(), pa[i].options()) * std::pow(10.0, update % 3 - 1);
    pa[i].mutable_grad() = g.clone();
    pb[i].mutable_grad() = g.clone();
  }
  a.step();
  b.step();
}

void expect_close(const std::vector<torch::Tensor>& a, const std::vector<torch::Tensor>& b,
                  double tol) {
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_TRUE(torch::allclose(a[i], b[i], tol, tol))
        << "tensor " << i << ": max difference " << (a[i] - b[i]).abs().max().item<double>();
  }
}

// The same parameters under the fused step and LibTorch's, after `updates` equal updates.
struct Twins {
  std::vector<torch::Tensor> fused_params, reference_params;
  std::unique_ptr<train::FusedAdam> fused;
  std::unique_ptr<Adam> reference;
};

Twins train_twins(torch::ScalarType type, const AdamOptions& options, int updates) {
  Twins t;
  t.fused_params = make_params(type);
  t.reference_params = clones(t.fused_params);
  t.fused = std::make_unique<train::FusedAdam>(t.fused_params, options);
  t.reference = std::make_unique<Adam>(t.reference_params, options);
  for (int update = 0; update < updates; ++update) {
    step_both(*t.fused, t.fused_params, *t.reference, t.reference_params, update);
  }
  return t;
}

const AdamParamState& state_of(const torch::optim::Optimizer& o, const torch::Tensor& p) {
  return static_cast<const AdamParamState&>(
      *o.state().at(c10::guts::to_string(p.unsafeGetTensorImpl())));
}

struct Case {
  torch::ScalarType type;
  double weight_decay;
};

class FusedAdamTest : public ::testing::TestWithParam<Case> {};

TEST_P(FusedAdamTest, EqualsLibTorchAdam) {
  const auto [type, weight_decay] = GetParam();
  const double tol = type == torch::kDouble ? 1e-12 : 1e-6;
  const auto t = train_twins(type, AdamOptions(3e-3).weight_decay(weight_decay), 6);
  EXPECT_TRUE(t.fused->fused());
  expect_close(t.fused_params, t.reference_params, tol);
  for (std::size_t i = 0; i < t.fused_params.size(); ++i) {
    const auto& a = state_of(*t.fused, t.fused_params[i]);
    const auto& b = state_of(*t.reference, t.reference_params[i]);
    EXPECT_EQ(a.step(), 6);
    EXPECT_EQ(a.step(), b.step());
    expect_close({a.exp_avg(), a.exp_avg_sq()}, {b.exp_avg(), b.exp_avg_sq()}, tol);
  }
  // The parameters moved: a test that updates nothing would pass the comparison above.
  EXPECT_FALSE(torch::allclose(t.fused_params[2], make_params(type)[2]));
}

INSTANTIATE_TEST_SUITE_P(TypesAndDecay, FusedAdamTest,
                         ::testing::Values(Case{torch::kFloat, 0.0}, Case{torch::kFloat, 0.01},
                                           Case{torch::kDouble, 0.0}, Case{torch::kDouble, 0.01}));

TEST(FusedAdamFallbackTest, AmsgradAndHalfPrecisionTakeLibTorchsStep) {
  const auto t = train_twins(torch::kFloat, AdamOptions(1e-2).amsgrad(true), 3);
  EXPECT_FALSE(t.fused->fused());
  expect_close(t.fused_params, t.reference_params, 0.0);
  auto bf16 = torch::randn({4, 4}).to(torch::kBFloat16).requires_grad_();
  EXPECT_FALSE(train::FusedAdam({bf16}).fused());
}

TEST(FusedAdamFallbackTest, ParametersWithoutGradientKeepNoState) {
  auto params = make_params(torch::kFloat);
  train::FusedAdam fused(params, AdamOptions(1e-2));
  params[0].mutable_grad() = torch::ones_like(params[0]);
  fused.step();
  EXPECT_EQ(fused.state().size(), 1u);
  EXPECT_FALSE(torch::equal(params[0], make_params(torch::kFloat)[0]));
  EXPECT_TRUE(torch::equal(params[1], make_params(torch::kFloat)[1]));
}

// Clipping's coefficient inside the update (train/train_step.cpp) equals multiplying the
// gradients first, bit for bit, for the fused step and for the fallback; the gradients
// themselves keep their values, and parameters left out take theirs unscaled.
TEST(FusedAdamScaleTest, ScaledGradientsEqualMultiplyingFirst) {
  for (const auto type : {torch::kFloat, torch::kDouble}) {
    for (const bool amsgrad : {false, true}) {
      auto scaled = make_params(type);
      auto multiplied = clones(scaled);
      const auto options = AdamOptions(3e-3).weight_decay(0.01).amsgrad(amsgrad);
      train::FusedAdam a(scaled, options), b(multiplied, options);
      for (int update = 0; update < 3; ++update) {
        // Clipping's coefficient has the gradients' type (train/train_step.cpp).
        const auto scale = torch::tensor(0.37 - 0.1 * update, torch::dtype(type));
        std::vector<torch::Tensor> grads;
        for (std::size_t i = 0; i < scaled.size(); ++i) {
          grads.push_back(torch::randn(scaled[i].sizes(), torch::dtype(type)));
          scaled[i].mutable_grad() = grads.back().clone();
          // The last parameter is not clipped: its gradient goes in as it is on both sides.
          multiplied[i].mutable_grad() =
              i + 1 < scaled.size() ? grads.back() * scale : grads.back().clone();
        }
        a.scale_gradients({scaled[0], scaled[1]}, scale);
        a.step();
        b.step();
        EXPECT_EQ(a.fused(), !amsgrad);
        if (!amsgrad) {
          EXPECT_TRUE(torch::equal(scaled[0].grad(), grads[0]));  // left unscaled
        }
      }
      expect_close(scaled, multiplied, 0.0);
      // A later step without scale_gradients scales nothing.
      for (std::size_t i = 0; i < scaled.size(); ++i) {
        const auto g = torch::randn(scaled[i].sizes(), torch::dtype(type));
        scaled[i].mutable_grad() = g.clone();
        multiplied[i].mutable_grad() = g.clone();
      }
      a.step();
      b.step();
      expect_close(scaled, multiplied, 0.0);
    }
  }
}

// A state saved by one loads into the other and the updates go on equal: checkpoints written
// before the fused step resume under it, and the other way.
TEST(FusedAdamStateTest, LoadsAcrossLibTorchAdam) {
  for (const bool fused_first : {true, false}) {
    auto first_params = make_params(torch::kFloat);
    auto mirror_params = clones(first_params);
    const auto options = AdamOptions(2e-3);
    std::unique_ptr<torch::optim::Optimizer> first, mirror;
    if (fused_first) {
      first = std::make_unique<train::FusedAdam>(first_params, options);
      mirror = std::make_unique<Adam>(mirror_params, options);
    } else {
      first = std::make_unique<Adam>(first_params, options);
      mirror = std::make_unique<train::FusedAdam>(mirror_params, options);
    }
    for (int update = 0; update < 3; ++update) {
      step_both(*first, first_params, *mirror, mirror_params, update);
    }
    std::stringstream saved;
    {
      torch::serialize::OutputArchive archive;
      first->save(archive);
      archive.save_to(saved);
    }
    // A third optimizer of the other kind resumes from the saved state.
    auto resumed_params = clones(first_params);
    std::unique_ptr<torch::optim::Optimizer> resumed;
    if (fused_first) {
      resumed = std::make_unique<Adam>(resumed_params, options);
    } else {
      resumed = std::make_unique<train::FusedAdam>(resumed_params, options);
    }
    torch::serialize::InputArchive archive;
    archive.load_from(saved);
    resumed->load(archive);
    for (int update = 3; update < 6; ++update) {
      step_both(*first, first_params, *resumed, resumed_params, update);
    }
    expect_close(first_params, resumed_params, 1e-6);
    EXPECT_EQ(state_of(*resumed, resumed_params[2]).step(), 6);
  }
}

}  // namespace
}  // namespace s2s
