// int8 decoding (model/int8_linear.h): weights quantized per row within half a step; products
// within the error the two quantizations allow; packed weights follow their weight when it
// changes; the decoder under Int8Scope near fp32 (and exactly fp32 while gradients are
// recorded, or outside the scope); int8 offered only where the CPU has it.

#include <gtest/gtest.h>
#include <torch/torch.h>

#include "config/config.h"
#include "device/precision.h"
#include "model/build_model.h"
#include "model/int8_linear.h"
#include "support/toy_batch.h"
#include "train/optimizer.h"
#include "train/train_step.h"
#include "util/error.h"

namespace s2s {
namespace {

// The products run on the CPU's int8 dot-product instructions; without them the engine falls
// back to kernels whose 16-bit pair sums may saturate, and int8 is not offered (precision.h).
#define S2S_SKIP_WITHOUT_INT8()                                                  \
  if (const auto c = device::detect_capabilities(torch::kCPU); !c.native_int8) { \
    GTEST_SKIP() << c.int8_why;                                                  \
  }

TEST(Int8Test, RowsAreWithinHalfAStepOfTheirScale) {
  torch::manual_seed(1);
  auto w = torch::randn({7, 33});
  w[3].zero_();
  const auto rows = model::quantize_rows(w);
  ASSERT_EQ(rows.q.scalar_type(), torch::kChar);
  const auto scales = rows.scales.unsqueeze(1);
  const auto back = rows.q.to(torch::kFloat) * scales;
  EXPECT_TRUE(((w - back).abs() <= scales / 2 + 1e-7).all().item<bool>());
  const auto widest = rows.q.to(torch::kInt).abs().amax(1);
  EXPECT_EQ(widest[0].item<int>(), 127);  // each row uses its whole range
  EXPECT_EQ(widest[3].item<int>(), 0);    // a zero row stays zero
}

TEST(Int8Test, InputRangeIsThePowerOfTwoAboveTheLargestValue) {
  EXPECT_EQ(model::input_range(torch::tensor({0.3f, -0.2f})), 0.5);
  EXPECT_EQ(model::input_range(torch::tensor({0.5f, -1.0f})), 1.0);
  EXPECT_EQ(model::input_range(torch::tensor({3.0f})), 4.0);
  EXPECT_EQ(model::input_range(torch::zeros({4})), model::kSmallestRange);
}

// |y - x W^T - b| <= sum_k (|x_k| s_n / 2 + |W_nk| s_x / 2 + s_x s_n / 4) per element, s_n the
// row's weight step, s_x = 2 R / 255 the input's step (R = input_range(x)).
TEST(Int8Test, ProductsAreWithinTheQuantizationError) {
  S2S_SKIP_WITHOUT_INT8();
  torch::manual_seed(2);
  const auto w = torch::randn({16, 64}) * 0.3, b = torch::randn({16});
  const auto x = torch::randn({2, 3, 64});
  const torch::NoGradGuard no_grad;
  const model::Int8Weight int8;
  const auto y = int8.linear(x, w, b);
  ASSERT_EQ(y.sizes(), (std::vector<int64_t>{2, 3, 16}));
  ASSERT_EQ(y.scalar_type(), torch::kFloat);
  const auto s_n = model::quantize_rows(w).scales;  // [N]
  const double s_x = 2 * model::input_range(x) / 255.0;
  const auto x2 = x.reshape({6, 64});
  const auto bound = torch::mm(x2.abs(), torch::ones({64, 16})) * s_n / 2 +
                     torch::mm(torch::ones({6, 64}), w.abs().t()) * s_x / 2 + 64 * s_x * s_n / 4;
  const auto error = (y.reshape({6, 16}) - torch::addmm(b, x2, w.t())).abs();
  EXPECT_TRUE((error <= bound + 1e-5).all().item<bool>()) << (error - bound).max();
  EXPECT_GT(error.max().item<double>(), 0.0);  // int8 really ran
  EXPECT_EQ(int8.linear(torch::zeros({0, 64}), w, b).sizes(), (std::vector<int64_t>{0, 16}));
}

TEST(Int8Test, PackedWeightsFollowTheirWeight) {
  S2S_SKIP_WITHOUT_INT8();
  torch::manual_seed(3);
  auto w = torch::randn({8, 32});
  const auto b = torch::randn({8});
  const auto x = torch::randn({4, 32});
  const torch::NoGradGuard no_grad;
  const model::Int8Weight int8;
  const auto before = int8.linear(x, w, b);
  w.mul_(-2.0);  // in place: its version changes
  const auto after = int8.linear(x, w, b);
  // The same x and -2 W: the same int8 rows negated, with twice the scales.
  EXPECT_TRUE(torch::allclose(after - b, -2.0 * (before - b), 1e-4, 1e-4));
  const auto near = [&](const torch::Tensor& y, const torch::Tensor& weight) {
    const auto reference = torch::addmm(b, x, weight.t());
    return (y - reference).abs().max().item<double>() < 0.03 * reference.abs().max().item<double>();
  };
  EXPECT_TRUE(near(after, w));
  const auto other = torch::randn({8, 32});  // another tensor: packed again
  EXPECT_TRUE(near(int8.linear(x, other, b), other));
}

struct Int8Case {
  const char* name;
  const char* style;
  bool tied;
  int64_t layers;
};

class Int8DecoderTest : public testing::TestWithParam<Int8Case> {};

// Teacher-forced logits through prepare, the GRU cells' steps and the output layer: near fp32's
// under the scope without gradients; exactly fp32's with gradients recorded (training never
// runs in int8) and after the scope.
TEST_P(Int8DecoderTest, LogitsAreNearFp32AndExactWhileTraining) {
  S2S_SKIP_WITHOUT_INT8();
  config::ModelConfig m;
  m.emb_size = 16;
  m.hidden_size = 32;
  m.decoder.style = GetParam().style;
  m.decoder.layers = GetParam().layers;
  m.decoder.tie_embeddings = GetParam().tied;
  torch::manual_seed(4);
  auto model = model::build_model(m, 40, 40);
  model->eval();
  const auto batch = test_support::toy_batch(40, 6);
  const auto logits = [&] {
    return model->forward(batch.src, batch.src_lengths, batch.tgt_in).logits.detach();
  };
  torch::Tensor fp32, int8, training;
  {
    const torch::NoGradGuard no_grad;
    fp32 = logits();
    const model::Int8Scope scope(true);
    int8 = logits();
  }
  {
    const model::Int8Scope scope(true);
    training = logits();  // grad mode on
  }
  const double range = fp32.abs().max().item<double>();
  const double error = (int8 - fp32).abs().max().item<double>();
  EXPECT_GT(error, 0.0);
  EXPECT_LT(error, 0.03 * range) << "range " << range;
  EXPECT_TRUE(torch::equal(training, fp32));
  const torch::NoGradGuard no_grad;
  EXPECT_TRUE(torch::equal(logits(), fp32));
}

INSTANTIATE_TEST_SUITE_P(Styles, Int8DecoderTest,
                         testing::Values(Int8Case{"bahdanau", "bahdanau", false, 1},
                                         Int8Case{"luong_tied_2layers", "luong", true, 2}),
                         [](const auto& param_info) { return std::string(param_info.param.name); });

// Validation in int8 during training: an optimizer step (the fused Adam writes the weights
// through their pointers) makes the next decoding pack the new weights.
TEST(Int8Test, DecodingFollowsTheOptimizersSteps) {
  S2S_SKIP_WITHOUT_INT8();
  config::Config c;
  c.model.emb_size = 16;
  c.model.hidden_size = 32;
  c.training.learning_rate = 0.05;  // a step that moves the logits far
  torch::manual_seed(6);
  auto model = model::build_model(c.model, 40, 40);
  auto optimizer = train::make_optimizer(c.training, model->parameters());
  const auto batch = test_support::toy_batch(40, 6);
  const auto logits = [&](bool int8) {
    const torch::NoGradGuard no_grad;
    const model::Int8Scope scope(int8);
    model->eval();
    auto out = model->forward(batch.src, batch.src_lengths, batch.tgt_in).logits.detach();
    model->train();
    return out;
  };
  const auto before = logits(true);
  std::vector<double> reinforce;
  train::TrainStep(c, torch::kCPU, device::Precision::kFp32)(model, *optimizer, batch, reinforce);
  const auto after = logits(true), reference = logits(false);
  const double range = reference.abs().max().item<double>();
  EXPECT_GT((before - reference).abs().max().item<double>(), 0.1 * range);  // the step mattered
  EXPECT_LT((after - reference).abs().max().item<double>(), 0.03 * range);
}

TEST(Int8PrecisionTest, OfferedOnlyWhereTheCpuHasIt) {
  device::Capabilities none;
  none.int8_why = "this CPU has none of amx_int8, avx512_vnni, avx_vnni";
  try {
    device::choose_precision("int8", none, "--precision");
    FAIL() << "int8 without VNNI was accepted";
  } catch (const ConfigError& e) {
    EXPECT_EQ(std::string(e.what()),
              "--precision int8 is not offered here: this CPU has none of amx_int8, avx512_vnni, "
              "avx_vnni");
  }
  device::Capabilities vnni{true, true, "this CPU has avx512_bf16", true, "this CPU has avx_vnni"};
  const auto chosen = device::choose_precision("int8", vnni);
  EXPECT_EQ(chosen.precision, device::Precision::kInt8);
  EXPECT_EQ(device::to_string(chosen.precision), "int8");
  // auto never picks int8: its quality depends on the model.
  EXPECT_EQ(device::choose_precision("auto", vnni).precision, device::Precision::kBf16);
}

}  // namespace
}  // namespace s2s
