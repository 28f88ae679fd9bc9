#pragma once
// REINFORCE for hard attention (Williams 1992; Mnih et al. 2014; Xu et al. 2015, sec. 4.1).
//
// The positions s_t are sampled, so log p(y | s) has no gradient with respect to the attention
// scores. The score-function estimator gives one:
//   grad E_s[R] = E_s[(R - b) grad sum_t log a_t[s_t]],   R = log p(y | s)
// implemented as the surrogate loss  -lambda_r (R - b) sum_t log a_t[s_t]  (R, b detached),
// plus an entropy bonus -lambda_e sum_t H(a_t). A baseline b that does not depend on s leaves
// the estimate unbiased and lowers its variance:
//   moving_average  b <- decay b + (1 - decay) mean(R)          (Xu et al. 2015)
//   learned         b(x) = w^T enc(x) + c, fitted by 0.5 (b(x) - R)^2
//   leave_one_out   K samples per sentence, b_k = mean of the other K - 1 rewards
// With reward "reward_to_go" step t is credited with R_t = sum_{t' >= t} log p(y_t' | ...)
// only, and the baseline is scaled by the share of the sentence still to come.
//
// Shapes: B sentences (B*K rows with leave_one_out), T target steps.

#include <torch/torch.h>

#include "config/config.h"
#include "model/seq2seq.h"

namespace s2s::train {

struct ReinforceStats {
  double reward = 0.0;         // mean R per sentence
  double baseline = 0.0;       // mean b per sentence
  double term_variance = 0.0;  // variance over sentences of (R - b) sum_t log a_t[s_t]
  double entropy = 0.0;        // mean attention entropy per target token (nats)
};

class Reinforce {
 public:
  explicit Reinforce(const config::ReinforceConfig& config) : config_(config) {}

  // Rows per sentence: K for leave_one_out, else 1. The trainer repeats each batch row so.
  int64_t samples_per_sentence() const;

  // The summed (not averaged) extra loss. token_nll [B, T] and mask [B, T] (1 at real tokens);
  // `out` carries sample_log_prob, attention_entropy and the learned baseline. Updates the
  // moving-average `baseline_state` and fills `stats`.
  torch::Tensor loss(const torch::Tensor& token_nll, const torch::Tensor& mask,
                     const model::ForwardOutput& out, double& baseline_state,
                     ReinforceStats* stats) const;

 private:
  // [B] baseline per sentence for rewards [B] (detached).
  torch::Tensor sentence_baseline(const torch::Tensor& rewards, const model::ForwardOutput& out,
                                  double& baseline_state) const;

  config::ReinforceConfig config_;
};

// Each row of `t` repeated `k` times in place: [B, ...] -> [B*k, ...].
torch::Tensor repeat_rows(const torch::Tensor& t, int64_t k);

}  // namespace s2s::train
