// bf16 mixed precision: the model's own GRU loop computes what LibTorch's GRUs compute; a bf16
// training step gives about the loss of an fp32 one and leaves the weights fp32; "auto" picks
// fp32 without native bf16 or where bf16 products are not fast enough to pay; checkpoints load
// in either precision.

#include "device/precision.h"

#include <ATen/autocast_mode.h>
#include <gtest/gtest.h>
#include <torch/torch.h>
#include <unistd.h>

#include <filesystem>

#include "batching/batch.h"
#include "checkpoint/checkpoint.h"
#include "config/config.h"
#include "model/build_model.h"
#include "model/gru.h"
#include "model/gru_cell.h"
#include "run/run_dir.h"
#include "support/toy_batch.h"
#include "train/optimizer.h"
#include "train/train_step.h"

namespace s2s {
namespace {

TEST(PrecisionTest, AutoIsBf16OnlyWhereItIsNative) {
  const device::Capabilities native{true, true, "this CPU has avx512_bf16", false, ""};
  const device::Capabilities none{false, true, "this CPU has neither avx512_bf16 nor amx_bf16",
                                  false, ""};
  EXPECT_EQ(device::choose_precision("auto", native).precision, device::Precision::kBf16);
  EXPECT_EQ(device::choose_precision("auto", none).precision, device::Precision::kFp32);
  EXPECT_EQ(device::choose_precision("auto", none).description,
            "fp32 (auto: this CPU has neither avx512_bf16 nor amx_bf16)");
  EXPECT_EQ(device::choose_precision("fp32", native).precision, device::Precision::kFp32);
  const auto forced = device::choose_precision("bf16", none);
  EXPECT_EQ(forced.precision, device::Precision::kBf16);
  EXPECT_TRUE(forced.emulated);
  EXPECT_FALSE(device::choose_precision("bf16", native).emulated);
}

// Native bf16 products that are not kBf16Pays times as fast as fp32's (fp32 on AVX-512
// kernels): auto stays fp32 and says why; asked for, bf16 runs, native, without a warning.
TEST(PrecisionTest, AutoIsFp32WhereBf16ProductsAreNotFastEnough) {
  device::Capabilities slow{true, true, "this CPU has avx512_bf16", false, ""};
  device::judge_bf16_speed(slow, /*fp32_gflops=*/300.0, /*bf16_gflops=*/160.0);
  EXPECT_FALSE(slow.bf16_pays);
  const auto chosen = device::choose_precision("auto", slow);
  EXPECT_EQ(chosen.precision, device::Precision::kFp32);
  EXPECT_EQ(chosen.description,
            "fp32 (auto: this CPU has avx512_bf16; its products run at 160 GFLOP/s in bf16, 300 "
            "in fp32: bf16 pays from 1.25x)");
  const auto asked = device::choose_precision("bf16", slow);
  EXPECT_EQ(asked.precision, device::Precision::kBf16);
  EXPECT_FALSE(asked.emulated);

  device::Capabilities fast{true, true, "this CPU has avx512_bf16", false, ""};
  device::judge_bf16_speed(fast, /*fp32_gflops=*/64.0, /*bf16_gflops=*/160.0);  // 2.5x
  EXPECT_TRUE(fast.bf16_pays);
  EXPECT_EQ(device::choose_precision("auto", fast).precision, device::Precision::kBf16);
  device::Capabilities edge{true, true, "this CPU has avx512_bf16", false, ""};
  device::judge_bf16_speed(edge, 100.0, 124.0);  // just below the margin
  EXPECT_EQ(device::choose_precision("auto", edge).precision, device::Precision::kFp32);
}

TEST(PrecisionTest, AutocastGuardTurnsBf16OnAndOff) {
  EXPECT_FALSE(at::autocast::is_cpu_enabled());
  {
    const device::AutocastGuard guard(torch::kCPU, device::Precision::kBf16);
    EXPECT_TRUE(at::autocast::is_cpu_enabled());
    const auto y = torch::mm(torch::randn({4, 4}), torch::randn({4, 4}));
    EXPECT_EQ(y.scalar_type(), torch::kBFloat16);
  }
  EXPECT_FALSE(at::autocast::is_cpu_enabled());
  const device::AutocastGuard off(torch::kCPU, device::Precision::kFp32);
  EXPECT_FALSE(at::autocast::is_cpu_enabled());
}

// The sorted-prefix loop (model/gru.cpp) against LibTorch's packed GRU, in fp32: the same
// states at every real position, zeros at padding, the same final states.
TEST(MixedGruTest, EqualsThePackedGruInFp32) {
  torch::manual_seed(3);
  torch::nn::GRU rnn(
      torch::nn::GRUOptions(5, 4).num_layers(2).bidirectional(true).batch_first(true));
  const auto x = torch::randn({3, 6, 5});
  const auto lengths = torch::tensor({4, 6, 2}, torch::kLong);
  namespace rnn_utils = torch::nn::utils::rnn;
  const auto packed = rnn_utils::pack_padded_sequence(x, lengths, true, false);
  auto [out, hidden] = rnn->forward_with_packed_input(packed);
  const auto states = std::get<0>(rnn_utils::pad_packed_sequence(out, true, 0.0, 6));
  const auto final = torch::cat({hidden[2], hidden[3]}, 1);
  const auto mine = model::bidirectional_gru(*rnn, x, lengths, 0.0, false);
  EXPECT_TRUE(torch::allclose(mine.states, states, 1e-5, 1e-6));
  EXPECT_TRUE(torch::allclose(mine.final, final, 1e-5, 1e-6));
}

TEST(MixedGruTest, CellEqualsGruCellInFp32AndIsCloseInBf16) {
  torch::manual_seed(4);
  torch::nn::GRUCell cell(6, 5);
  const auto x = torch::randn({3, 6}), h = torch::randn({3, 5});
  const auto reference = cell->forward(x, h);
  EXPECT_TRUE(torch::allclose(model::gru_cell_step(model::share_cell(*cell, false), x, h),
                              reference, 1e-5, 1e-6));
  const auto mixed = model::gru_cell_step(model::share_cell(*cell, /*bf16=*/true), x, h);
  EXPECT_EQ(mixed.scalar_type(), torch::kFloat);  // the state stays fp32
  EXPECT_FALSE(torch::equal(mixed, reference));
  EXPECT_LT((mixed - reference).abs().max().item<double>(), 0.05);
}

config::Config small_config() {
  config::Config c;
  c.model.emb_size = 16;
  c.model.hidden_size = 16;
  return c;
}

TEST(MixedTrainingTest, Bf16StepLossIsCloseAndWeightsStayFp32) {
  const auto c = small_config();
  const auto batch = test_support::toy_batch(20);
  const auto loss_of = [&](device::Precision p) {
    torch::manual_seed(5);
    auto model = model::build_model(c.model, 20, 20);
    auto optimizer = train::make_optimizer(c.training, model->parameters());
    std::vector<double> reinforce;
    const auto r = train::TrainStep(c, torch::kCPU, p)(model, *optimizer, batch, reinforce);
    for (const auto& w : model->parameters()) EXPECT_EQ(w.scalar_type(), torch::kFloat);
    return r.loss;
  };
  const double fp32 = loss_of(device::Precision::kFp32), bf16 = loss_of(device::Precision::kBf16);
  EXPECT_NEAR(bf16, fp32, 0.02 * fp32);
}

// On a CPU the encoder's GRU products and the output layer run in bf16, the decoder steps in
// fp32 (model/gru.h): under autocast the encoder states, the attention's key projections and
// the decoder's features are fp32, the logits bf16, and autocast is on again after each part.
TEST(MixedTrainingTest, OnACpuTheDecoderStepsStayFp32) {
  const auto c = small_config();
  torch::manual_seed(7);
  auto model = model::build_model(c.model, 20, 20);
  const auto batch = test_support::toy_batch(20);
  const device::AutocastGuard bf16(torch::kCPU, device::Precision::kBf16);
  const auto encoded = model->encoder(batch.src, batch.src_lengths);
  EXPECT_EQ(encoded.states.scalar_type(), torch::kFloat);
  auto memory = model->decoder->prepare(encoded);
  ASSERT_TRUE(memory.attention.projected.tensor.defined());
  EXPECT_EQ(memory.attention.projected.tensor.scalar_type(), torch::kFloat);
  auto state = model->decoder->initial_state(encoded);
  const auto out = model->decoder->step(batch.tgt_in.select(1, 0), state, memory);
  EXPECT_EQ(out.features.scalar_type(), torch::kFloat);
  EXPECT_TRUE(at::autocast::is_cpu_enabled());
  EXPECT_EQ(model->decoder->logits(out.features).scalar_type(), torch::kBFloat16);
}

TEST(MixedTrainingTest, CheckpointsLoadInEitherPrecision) {
  const auto c = small_config();
  torch::manual_seed(6);
  auto trained = model::build_model(c.model, 20, 20);
  auto optimizer = train::make_optimizer(c.training, trained->parameters());
  std::vector<double> reinforce;
  const auto batch = test_support::toy_batch(20);
  train::TrainStep(c, torch::kCPU, device::Precision::kBf16)(trained, *optimizer, batch, reinforce);
  const auto path =
      (std::filesystem::temp_directory_path() / ("s2s_bf16_" + std::to_string(::getpid())))
          .string();
  const auto signature = run::model_signature(c.model, 20, 20);
  checkpoint::save_checkpoint(path, *trained, optimizer.get(), {}, signature);
  auto loaded = model::build_model(c.model, 20, 20);
  checkpoint::load_checkpoint(path, *loaded, nullptr, signature);
  std::filesystem::remove(path);
  for (const auto& p : loaded->named_parameters()) {
    EXPECT_EQ(p.value().scalar_type(), torch::kFloat) << p.key();
    EXPECT_TRUE(torch::equal(p.value(), trained->named_parameters()[p.key()])) << p.key();
  }
}

}  // namespace
}  // namespace s2s
