#include "train/reinforce.h"

#include <cmath>
#include <limits>

namespace s2s::train {
namespace {

using Baseline = config::ReinforceBaseline;
using Reward = config::ReinforceReward;

// state = [mean square of A (0 before the first step), b_0, b_1, ...]; NaN: index not seen yet.
constexpr std::size_t kMeanSquare = 0, kFirstBaseline = 1;
constexpr double kNormalizeDecay = 0.99;  // the running mean square of A follows ~100 steps

// [B, T] index k of the running mean each step's credit joins (see reinforce.h).
torch::Tensor baseline_index(Reward reward, const torch::Tensor& mask) {
  const auto m = mask.to(torch::kLong);
  switch (reward) {
    case Reward::kSentence:
      return (m.sum(1, /*keepdim=*/true) - 1).clamp_min(0).expand_as(m);
    case Reward::kRewardToGo:
      return (m.flip(1).cumsum(1).flip(1) - 1).clamp_min(0);
    case Reward::kToken:
      break;
  }
  return torch::arange(m.size(1), m.options()).unsqueeze(0).expand_as(m);  // token: t
}

}  // namespace

torch::Tensor repeat_rows(const torch::Tensor& t, int64_t k) {
  return k == 1 ? t : t.repeat_interleave(k, /*dim=*/0);
}

int64_t Reinforce::samples_per_sentence() const {
  return baseline_ == Baseline::kLeaveOneOut ? config_.samples : 1;
}

torch::Tensor Reinforce::credit(const torch::Tensor& token_reward,
                                const torch::Tensor& mask) const {
  switch (reward_) {
    case Reward::kToken:
      return token_reward;
    case Reward::kRewardToGo:
      return token_reward.flip(1).cumsum(1).flip(1) * mask;  // R_t = sum_{t' >= t} r_t'
    case Reward::kSentence:
      break;
  }
  return token_reward.sum(1, /*keepdim=*/true) * mask;  // R for every step
}

torch::Tensor Reinforce::moving_average(const torch::Tensor& credit, const torch::Tensor& mask,
                                        std::vector<double>& state) const {
  const auto real = mask.to(torch::kCPU).gt(0);
  const auto index = baseline_index(reward_, mask).to(torch::kCPU);
  const auto values = credit.to(torch::kCPU, torch::kDouble).masked_select(real);  // [N]
  const auto keys = index.masked_select(real);                                     // [N]
  const int64_t n_keys = keys.numel() > 0 ? keys.max().item<int64_t>() + 1 : 1;
  const auto sums = torch::zeros({n_keys}, torch::kDouble).index_add_(0, keys, values);
  const auto counts =
      torch::zeros({n_keys}, torch::kDouble).index_add_(0, keys, torch::ones_like(values));
  const auto s = sums.accessor<double, 1>();
  const auto c = counts.accessor<double, 1>();
  const auto size = kFirstBaseline + static_cast<std::size_t>(n_keys);
  if (state.size() < size) state.resize(size, std::numeric_limits<double>::quiet_NaN());
  std::vector<double> used(static_cast<std::size_t>(n_keys), 0.0);
  const double decay = config_.baseline_decay;
  for (int64_t k = 0; k < n_keys; ++k) {
    if (c[k] == 0) continue;
    const double mean = s[k] / c[k];
    double& b = state[kFirstBaseline + static_cast<std::size_t>(k)];
    // An index seen for the first time starts at this batch's mean (not at 0, which would make
    // the first advantages as large as the rewards).
    if (std::isnan(b)) b = mean;
    used[static_cast<std::size_t>(k)] = b;
    b = decay * b + (1.0 - decay) * mean;
  }
  const auto table = torch::tensor(used, torch::kDouble);
  return table.index_select(0, index.reshape(-1)).view_as(index).to(credit.options()) * mask;
}

torch::Tensor Reinforce::baseline(const torch::Tensor& credit, const torch::Tensor& mask,
                                  const model::ForwardOutput& out,
                                  std::vector<double>& state) const {
  switch (baseline_) {
    case Baseline::kLearned:
      return out.baseline.detach().to(credit.dtype()) * mask;
    case Baseline::kLeaveOneOut: {
      const int64_t k = config_.samples;  // rows b*K .. b*K + K-1 are one sentence's samples
      const auto grouped = credit.view({-1, k, credit.size(1)});  // [B/K, K, T]
      const auto others = (grouped.sum(1, /*keepdim=*/true) - grouped) / static_cast<double>(k - 1);
      return others.view_as(credit) * mask;
    }
    case Baseline::kMovingAverage:
      return moving_average(credit, mask, state);
    case Baseline::kNone:
      break;
  }
  return torch::zeros_like(credit);
}

torch::Tensor Reinforce::loss(const torch::Tensor& token_nll, const torch::Tensor& mask,
                              const model::ForwardOutput& out, std::vector<double>& state,
                              ReinforceStats* stats) const {
  if (state.empty()) state.push_back(0.0);
  const double tokens = std::max(mask.sum().item<double>(), 1.0);
  const auto token_reward = (-token_nll * mask).detach();        // r_t = log p(y_t | ...): [B, T]
  const auto rewards = token_reward.sum(1);                      // R = log p(y | s): [B]
  const auto r = credit(token_reward, mask);                     // R_t: [B, T]
  const auto b = baseline(r, mask, out, state);                  // b_t: [B, T]
  auto advantage = (r - b) * mask;                               // A_t: [B, T]
  const auto log_prob = out.sample_log_prob * mask;              // log a_t[s_t]: [B, T]
  const auto raw_term = (advantage * log_prob).sum(1).detach();  // [B], before normalizing
  if (config_.normalize) {
    const double mean_square = advantage.pow(2).sum().item<double>() / tokens;
    double& running = state[kMeanSquare];
    running = running > 0.0 ? kNormalizeDecay * running + (1.0 - kNormalizeDecay) * mean_square
                            : mean_square;
    advantage = advantage / (std::sqrt(running) + 1e-8);
  }
  const auto per_sentence = (advantage * log_prob).sum(1);  // [B]
  auto loss = -config_.weight * per_sentence.sum() -
              config_.entropy_weight * (out.attention_entropy * mask).sum();
  if (out.baseline.defined()) loss = loss + 0.5 * ((out.baseline - r).pow(2) * mask).sum();
  if (stats != nullptr) {
    stats->reward = rewards.mean().item<double>();
    stats->baseline = b.sum().item<double>() / tokens;
    stats->term_variance = raw_term.numel() > 1 ? raw_term.var().item<double>() : 0.0;
    stats->entropy = (out.attention_entropy.detach() * mask).sum().item<double>() / tokens;
  }
  return loss;
}

}  // namespace s2s::train
