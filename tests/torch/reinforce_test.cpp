// Hard attention and REINFORCE: the estimator is unbiased (checked against the exact gradient of
// an expectation small enough to enumerate), baselines lower its variance, argmax is
// deterministic, and the baseline state survives a checkpoint.

#include "train/reinforce.h"

#include <gtest/gtest.h>
#include <torch/torch.h>

#include <cmath>
#include <filesystem>

#include "checkpoint/checkpoint.h"
#include "model/attention.h"

namespace s2s {
namespace {

constexpr int64_t kLen = 3, kMemory = 4, kQuery = 3;

class ReinforceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    torch::manual_seed(11);
    attention_ = model::Attention(model::AttentionOptions("additive", kQuery, kMemory)
                                      .size(4)
                                      .hard(model::HardAttention::kSample));
    attention_->to(torch::kDouble);
    attention_->train();
    memory_ = torch::randn({1, kLen, kMemory}, torch::kDouble);
    query_ = torch::randn({1, kQuery}, torch::kDouble);
    rewards_ = torch::tensor({11.0, 13.0, 8.0}, torch::kDouble);  // R(s), offset from 0 on purpose
  }

  // B copies of the one sentence, with their sampled positions and the attention output.
  model::AttentionOutput sample(int64_t rows) {
    const auto memory = memory_.expand({rows, kLen, kMemory});
    const auto mask = torch::ones({rows, kLen}, torch::kBool);
    return attention_->forward(query_.expand({rows, kQuery}), attention_->prepare(memory, mask));
  }

  // REINFORCE loss of `rows` samples through train::Reinforce, as the trainer computes it.
  torch::Tensor reinforce_loss(int64_t rows, const std::string& baseline,
                               std::vector<double>& state, int64_t samples = 2) {
    config::ReinforceConfig c;
    c.baseline = baseline;
    c.normalize = false;  // the plain estimator, whose mean is the exact gradient
    c.entropy_weight = 0.0;
    c.samples = samples;
    const auto out = sample(rows);
    model::ForwardOutput forward;
    forward.sample_log_prob = out.log_prob.unsqueeze(1);  // one decoder step: [B, 1]
    forward.attention_entropy = out.entropy.unsqueeze(1);
    const auto reward = rewards_.index_select(0, out.choice.select(1, 0));
    return train::Reinforce(c).loss(-reward.unsqueeze(1), torch::ones({rows, 1}, torch::kDouble),
                                    forward, state, nullptr);
  }

  torch::Tensor flat_grad() {
    std::vector<torch::Tensor> grads;
    for (auto& p : attention_->parameters()) grads.push_back(p.grad().reshape(-1).clone());
    return torch::cat(grads);
  }

  // Gradient estimates of `rows` samples each, one row per draw: [draws, P].
  torch::Tensor estimates(int64_t draws, int64_t rows, const std::string& baseline,
                          int64_t samples = 2) {
    std::vector<double> state;
    for (int i = 0; i < 200; ++i) reinforce_loss(rows, baseline, state, samples);  // warm up b
    std::vector<torch::Tensor> out;
    for (int64_t i = 0; i < draws; ++i) {
      attention_->zero_grad();
      (reinforce_loss(rows, baseline, state, samples) / static_cast<double>(rows)).backward();
      out.push_back(-flat_grad());  // the loss is -(R - b) log a[s]: minus its gradient estimates
    }
    return torch::stack(out);
  }

  model::Attention attention_{nullptr};
  torch::Tensor memory_, query_, rewards_;
};

TEST_F(ReinforceTest, AverageEstimateMatchesExactGradient) {
  // Exact: d/dtheta sum_s a_s(theta) R(s), by backpropagation through the soft weights.
  attention_->zero_grad();
  (sample(1).weights.view(-1) * rewards_).sum().backward();
  const auto exact = flat_grad();
  const auto draws = estimates(/*draws=*/400, /*rows=*/50, "none");
  const auto mean = draws.mean(0);
  const auto standard_error = draws.std(0) / std::sqrt(static_cast<double>(draws.size(0)));
  for (int64_t i = 0; i < exact.numel(); ++i) {
    EXPECT_NEAR(mean[i].item<double>(), exact[i].item<double>(),
                4 * standard_error[i].item<double>() + 1e-9)
        << "parameter element " << i;
  }
}

TEST_F(ReinforceTest, BaselinesLowerVarianceAtLeastTwofold) {
  const auto variance = [](const torch::Tensor& draws) {
    return draws.var(0).sum().item<double>();
  };
  const double none = variance(estimates(400, 1, "none"));
  const double moving = variance(estimates(400, 1, "moving_average"));
  const double loo = variance(estimates(400, 2, "leave_one_out"));
  EXPECT_GE(none / moving, 2.0) << "none " << none << ", moving average " << moving;
  // leave-one-out with K = 2 averages two samples: compare with two samples and no baseline.
  const double none_two = variance(estimates(400, 2, "none"));
  EXPECT_GE(none_two / loo, 2.0) << "none " << none_two << ", leave-one-out " << loo;
}

TEST_F(ReinforceTest, ArgmaxIsDeterministicAndPicksTheLargestWeight) {
  auto argmax = model::Attention(model::AttentionOptions("additive", kQuery, kMemory)
                                     .size(4)
                                     .hard(model::HardAttention::kArgmax));
  argmax->to(torch::kDouble);
  const auto mask = torch::ones({1, kLen}, torch::kBool);
  const auto memory = argmax->prepare(memory_, mask);
  const auto a = argmax->forward(query_, memory), b = argmax->forward(query_, memory);
  EXPECT_TRUE(torch::equal(a.choice, b.choice));
  EXPECT_TRUE(torch::equal(a.context, b.context));
  const auto best = a.weights.argmax(-1);
  EXPECT_TRUE(torch::equal(a.choice, best));
  // Without key_value and with one head, the context is the chosen encoder state itself.
  EXPECT_TRUE(torch::allclose(a.context[0], memory_[0][best.item<int64_t>()]));
}

TEST_F(ReinforceTest, ExpectedContextReplacesSamplesAtRateP) {
  auto mixed = model::Attention(model::AttentionOptions("additive", kQuery, kMemory)
                                    .size(4)
                                    .hard(model::HardAttention::kSample)
                                    .p_expect(0.5));
  mixed->to(torch::kDouble);
  const int64_t rows = 4000;
  const auto out = mixed->forward(query_.expand({rows, kQuery}),
                                  mixed->prepare(memory_.expand({rows, kLen, kMemory}),
                                                 torch::ones({rows, kLen}, torch::kBool)));
  const double expected_share = out.choice.eq(-1).to(torch::kDouble).mean().item<double>();
  EXPECT_NEAR(expected_share, 0.5, 0.04);
  // Rows that used the expectation take no REINFORCE term.
  EXPECT_TRUE(out.log_prob.masked_select(out.choice.select(1, 0).eq(-1)).eq(0).all().item<bool>());
}

TEST_F(ReinforceTest, EvaluationUsesArgmaxByDefault) {
  attention_->eval();
  const auto a = sample(1), b = sample(1);
  EXPECT_TRUE(torch::equal(a.choice, b.choice));
  EXPECT_TRUE(torch::equal(a.choice, a.weights.argmax(-1)));
}

TEST(ReinforceCheckpointTest, BaselineStateIsSaved) {
  const auto path = (std::filesystem::temp_directory_path() / "s2s_reinforce_ckpt.pt").string();
  torch::nn::Linear model(2, 1);
  checkpoint::TrainingState state;
  state.reinforce = {2.5, -17.25, -3.0};
  state.step = 42;
  checkpoint::save_checkpoint(path, *model, nullptr, state, "sig");
  torch::nn::Linear other(2, 1);
  const auto loaded = checkpoint::load_checkpoint(path, *other, nullptr, "sig");
  EXPECT_EQ(loaded.reinforce, state.reinforce);
  EXPECT_EQ(loaded.step, 42);
  EXPECT_TRUE(torch::equal(model->weight, other->weight));
  std::filesystem::remove(path);
}

TEST(ReinforceRewardTest, RewardToGoCreditsOnlyLaterTokens) {
  config::ReinforceConfig c;
  c.baseline = "none";
  c.entropy_weight = 0.0;
  c.reward = "reward_to_go";
  c.normalize = false;
  // One sentence of 3 tokens with log p(y_t) = -1, -2, -3 and log a_t[s_t] = l_t (with grad).
  auto log_prob = torch::zeros({1, 3}, torch::requires_grad());
  model::ForwardOutput out;
  out.sample_log_prob = log_prob;
  out.attention_entropy = torch::zeros({1, 3});
  std::vector<double> state;
  const auto nll = torch::tensor({{1.0f, 2.0f, 3.0f}});
  train::Reinforce(c).loss(nll, torch::ones({1, 3}), out, state, nullptr).backward();
  // d loss / d l_t = -R_t with R_t = -(6, 5, 3).
  EXPECT_TRUE(torch::allclose(log_prob.grad(), torch::tensor({{6.0f, 5.0f, 3.0f}})));
}

// d loss / d log a_t[s_t] = -lambda_r A_t: the advantage each step was credited with.
torch::Tensor advantages(const config::ReinforceConfig& c, const torch::Tensor& nll,
                         const torch::Tensor& mask, std::vector<double>& state) {
  auto log_prob = torch::zeros(nll.sizes(), torch::requires_grad());
  model::ForwardOutput out;
  out.sample_log_prob = log_prob;
  out.attention_entropy = torch::zeros(nll.sizes());
  train::Reinforce(c).loss(nll, mask, out, state, nullptr).backward();
  return -log_prob.grad();
}

config::ReinforceConfig plain(const std::string& reward, const std::string& baseline) {
  config::ReinforceConfig c;
  c.reward = reward;
  c.baseline = baseline;
  c.entropy_weight = 0.0;
  c.normalize = false;
  return c;
}

TEST(ReinforceRewardTest, TokenRewardCreditsEachStepWithItsOwnWord) {
  std::vector<double> state;
  const auto a = advantages(plain("token", "none"), torch::tensor({{1.0f, 2.0f, 3.0f}}),
                            torch::ones({1, 3}), state);
  EXPECT_TRUE(torch::allclose(a, torch::tensor({{-1.0f, -2.0f, -3.0f}})));
}

TEST(ReinforceBaselineTest, MovingAverageComparesSentencesOfTheSameLength) {
  // Two sentences of 2 words (R = -4, -6) and one of 3 (R = -30): each is compared with the
  // running mean of its own length, which starts at the first batch's mean.
  const auto nll = torch::tensor({{2.0f, 2.0f, 0.0f}, {3.0f, 3.0f, 0.0f}, {10.0f, 10.0f, 10.0f}});
  const auto mask = torch::tensor({{1.0f, 1.0f, 0.0f}, {1.0f, 1.0f, 0.0f}, {1.0f, 1.0f, 1.0f}});
  auto c = plain("sentence", "moving_average");
  std::vector<double> state;
  auto a = advantages(c, nll, mask, state);
  EXPECT_TRUE(torch::allclose(
      a, torch::tensor({{1.0f, 1.0f, 0.0f}, {-1.0f, -1.0f, 0.0f}, {0.0f, 0.0f, 0.0f}})));
  // Next batch: b(length 2) = -5, b(length 3) = -30, then each moves by (1 - decay) to the mean.
  a = advantages(c, nll, mask, state);
  EXPECT_TRUE(torch::allclose(a.select(0, 2), torch::zeros({3})));
  ASSERT_EQ(state.size(), 4U);  // [mean square, b(1 word), b(2 words), b(3 words)]
  EXPECT_TRUE(std::isnan(state[1]));
  EXPECT_DOUBLE_EQ(state[2], -5.0);
  EXPECT_DOUBLE_EQ(state[3], -30.0);
}

TEST(ReinforceBaselineTest, MovingAveragePerPositionForTokenRewards) {
  auto c = plain("token", "moving_average");
  c.baseline_decay = 0.5;
  std::vector<double> state;
  const auto mask = torch::ones({2, 2});
  advantages(c, torch::tensor({{1.0f, 4.0f}, {3.0f, 6.0f}}), mask, state);  // b = (-2, -5)
  EXPECT_DOUBLE_EQ(state[1], -2.0);
  EXPECT_DOUBLE_EQ(state[2], -5.0);
  const auto a = advantages(c, torch::tensor({{0.0f, 0.0f}, {2.0f, 2.0f}}), mask, state);
  EXPECT_TRUE(torch::allclose(a, torch::tensor({{2.0f, 5.0f}, {0.0f, 3.0f}})));
  EXPECT_DOUBLE_EQ(state[1], 0.5 * -2.0 + 0.5 * -1.0);
}

TEST(ReinforceBaselineTest, LeaveOneOutComparesStepsOfTheSameSentence) {
  auto c = plain("token", "leave_one_out");
  c.samples = 2;  // rows 0, 1: one sentence; rows 2, 3: another
  std::vector<double> state;
  const auto nll = torch::tensor({{1.0f, 2.0f}, {3.0f, 2.0f}, {5.0f, 0.0f}, {9.0f, 0.0f}});
  const auto mask = torch::tensor({{1.0f, 1.0f}, {1.0f, 1.0f}, {1.0f, 0.0f}, {1.0f, 0.0f}});
  const auto a = advantages(c, nll, mask, state);
  EXPECT_TRUE(torch::allclose(
      a, torch::tensor({{2.0f, 0.0f}, {-2.0f, 0.0f}, {4.0f, 0.0f}, {-4.0f, 0.0f}})));
}

TEST(ReinforceBaselineTest, LearnedBaselineIsFittedPerStep) {
  auto c = plain("token", "learned");
  std::vector<double> state;
  auto log_prob = torch::zeros({1, 2}, torch::requires_grad());
  auto b = torch::tensor({{-1.0f, -1.0f}}, torch::requires_grad());
  model::ForwardOutput out;
  out.sample_log_prob = log_prob;
  out.attention_entropy = torch::zeros({1, 2});
  out.baseline = b;
  const auto nll = torch::tensor({{1.0f, 4.0f}});  // R_t = -1, -4
  train::Reinforce(c).loss(nll, torch::ones({1, 2}), out, state, nullptr).backward();
  EXPECT_TRUE(torch::allclose(-log_prob.grad(), torch::tensor({{0.0f, -3.0f}})));  // R_t - b_t
  EXPECT_TRUE(torch::allclose(b.grad(), torch::tensor({{0.0f, 3.0f}})));           // b_t - R_t
}

TEST(ReinforceBaselineTest, NormalizingGivesTheAdvantagesUnitRootMeanSquare) {
  auto c = plain("token", "none");
  c.normalize = true;
  std::vector<double> state;
  const auto a = advantages(c, torch::tensor({{10.0f, 30.0f}}), torch::ones({1, 2}), state);
  EXPECT_NEAR(a.pow(2).mean().item<double>(), 1.0, 1e-5);
  EXPECT_NEAR(state[0], 500.0, 1e-3);  // mean of 10^2 and 30^2
  // Same sign and ratio as without normalizing.
  EXPECT_NEAR((a[0][1] / a[0][0]).item<double>(), 3.0, 1e-5);
}

}  // namespace
}  // namespace s2s
