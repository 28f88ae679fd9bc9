#pragma once
// REINFORCE for hard attention (Williams 1992; Mnih et al. 2014; Xu et al. 2015, sec. 4.1).
//
// The positions s_t are sampled, so log p(y | s) has no gradient with respect to the attention
// scores. The score-function estimator gives one:
//   grad E_s[R] = E_s[sum_t (R_t - b_t) grad log a_t[s_t]]
// implemented as the surrogate loss  -lambda_r sum_t A_t log a_t[s_t]  (A_t = R_t - b_t,
// detached), plus an entropy bonus -lambda_e sum_t H(a_t).
//
// R_t, the reward step t is credited with (`reward`), from r_t = log p(y_t | y_<t, s_<=t):
//   sentence      R_t = R = sum_t' r_t'             (Xu et al.: every step shares the sentence's)
//   reward_to_go  R_t = sum_{t' >= t} r_t'           (a choice cannot change earlier words)
//   token         R_t = r_t                          (only the word the choice serves directly)
// b_t, a baseline that does not depend on s_t, keeps the estimate unbiased (for the credit
// R_t) and lowers its variance:
//   moving_average  b_t = running mean of R_t over the sentences of the same index k:
//                   k = length - 1 (sentence), tokens left - 1 (reward_to_go), t (token).
//                   R varies with the length of the sentence far more than with attention: a
//                   single running mean leaves that difference in A and swamps the gradient.
//   learned         b_t = w^T q_t + c on the detached attention query (model/seq2seq.h), fitted
//                   by 0.5 (b_t - R_t)^2; its gradient is not part of the model's clipping
//                   (train/train_step.cpp)
//   leave_one_out   K samples per sentence, b_t = mean R_t of the other K - 1
// With `normalize`, A is divided by the running root mean square of A over tokens, so the
// term's scale stays that of the likelihood gradient whatever the reward's scale.
//
// Shapes: B sentences (B*K rows with leave_one_out), T target steps.

#include <torch/torch.h>

#include <vector>

#include "config/config.h"
#include "model/seq2seq.h"

namespace s2s::train {

struct ReinforceStats {
  double reward = 0.0;         // mean R per sentence
  double baseline = 0.0;       // mean b_t per target token
  double term_variance = 0.0;  // variance over sentences of sum_t (R_t - b_t) log a_t[s_t]
  double entropy = 0.0;        // mean attention entropy per target token (nats)
};

class Reinforce {
 public:
  explicit Reinforce(const config::ReinforceConfig& config)
      : config_(config),
        baseline_(config::reinforce_baseline(config)),
        reward_(config::reinforce_reward(config)) {}

  // Rows per sentence: K for leave_one_out, else 1. The trainer repeats each batch row so.
  int64_t samples_per_sentence() const;

  // The summed (not averaged) extra loss. token_nll [B, T] and mask [B, T] (1 at real tokens);
  // `out` carries sample_log_prob, attention_entropy and the learned baseline. `state` is what
  // REINFORCE carries from step to step (the moving averages and the running mean square of
  // A; checkpoint::TrainingState::reinforce keeps it in checkpoints): updated here. Fills `stats`.
  torch::Tensor loss(const torch::Tensor& token_nll, const torch::Tensor& mask,
                     const model::ForwardOutput& out, std::vector<double>& state,
                     ReinforceStats* stats) const;

 private:
  // [B, T] credit R_t of each step, 0 at padding.
  torch::Tensor credit(const torch::Tensor& token_reward, const torch::Tensor& mask) const;
  // [B, T] baseline b_t (detached), 0 at padding.
  torch::Tensor baseline(const torch::Tensor& credit, const torch::Tensor& mask,
                         const model::ForwardOutput& out, std::vector<double>& state) const;
  // [B, T] b_t from the running means per index k (moving_average), updated with this batch.
  torch::Tensor moving_average(const torch::Tensor& credit, const torch::Tensor& mask,
                               std::vector<double>& state) const;

  config::ReinforceConfig config_;
  config::ReinforceBaseline baseline_;  // config_'s choices, read once
  config::ReinforceReward reward_;
};

// Each row of `t` repeated `k` times in place: [B, ...] -> [B*k, ...].
torch::Tensor repeat_rows(const torch::Tensor& t, int64_t k);

}  // namespace s2s::train
