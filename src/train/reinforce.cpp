#include "train/reinforce.h"

namespace s2s::train {

torch::Tensor repeat_rows(const torch::Tensor& t, int64_t k) {
  return k == 1 ? t : t.repeat_interleave(k, /*dim=*/0);
}

int64_t Reinforce::samples_per_sentence() const {
  return config_.baseline == "leave_one_out" ? config_.samples : 1;
}

torch::Tensor Reinforce::sentence_baseline(const torch::Tensor& rewards,
                                           const model::ForwardOutput& out,
                                           double& baseline_state) const {
  const auto& kind = config_.baseline;
  if (kind == "learned") return out.baseline.detach();
  if (kind == "leave_one_out") {
    const int64_t k = config_.samples;
    const auto grouped = rewards.view({-1, k});  // [B, K]
    return ((grouped.sum(1, /*keepdim=*/true) - grouped) / static_cast<double>(k - 1)).view(-1);
  }
  if (kind == "moving_average") {
    const auto b = torch::full_like(rewards, baseline_state);
    baseline_state = config_.baseline_decay * baseline_state +
                     (1.0 - config_.baseline_decay) * rewards.mean().item<double>();
    return b;
  }
  return torch::zeros_like(rewards);
}

torch::Tensor Reinforce::loss(const torch::Tensor& token_nll, const torch::Tensor& mask,
                              const model::ForwardOutput& out, double& baseline_state,
                              ReinforceStats* stats) const {
  const auto token_reward = (-token_nll * mask).detach();  // log p(y_t | ...): [B, T]
  const auto rewards = token_reward.sum(1);                // R = log p(y | s): [B]
  const auto baseline = sentence_baseline(rewards, out, baseline_state);  // [B]
  torch::Tensor advantage;                                                // [B, T]
  if (config_.reward == "reward_to_go") {
    // R_t = sum_{t' >= t} r_t', a reverse cumulative sum; b_t = b * (tokens left / tokens).
    const auto to_go = token_reward.flip(1).cumsum(1).flip(1);
    const auto left = mask.flip(1).cumsum(1).flip(1) / mask.sum(1, /*keepdim=*/true).clamp_min(1);
    advantage = (to_go - baseline.unsqueeze(1) * left) * mask;
  } else {
    advantage = (rewards - baseline).unsqueeze(1) * mask;
  }
  const auto log_prob = out.sample_log_prob * mask;         // [B, T]
  const auto per_sentence = (advantage * log_prob).sum(1);  // [B]
  auto loss = -config_.weight * per_sentence.sum() -
              config_.entropy_weight * (out.attention_entropy * mask).sum();
  if (out.baseline.defined()) loss = loss + 0.5 * (out.baseline - rewards).pow(2).sum();
  if (stats != nullptr) {
    const auto term = per_sentence.detach();
    stats->reward = rewards.mean().item<double>();
    stats->baseline = baseline.mean().item<double>();
    stats->term_variance = term.numel() > 1 ? term.var().item<double>() : 0.0;
    stats->entropy =
        ((out.attention_entropy.detach() * mask).sum() / mask.sum().clamp_min(1)).item<double>();
  }
  return loss;
}

}  // namespace s2s::train
