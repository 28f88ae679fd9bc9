#pragma once
// Attention over encoder states: a = normalize(s(k_i, q)) over unmasked positions (softmax by
// default; sparsemax, entmax15: model/normalizer.h), context = sum_i a_i v_i (Bahdanau et al.
// 2015, eqs. 5-6), wrapped in two options:
//   key_value: K = H W_k, V = H W_v (separate key and value projections), else K = V = H;
//   heads m:   queries projected and split into m heads, keys and values split into m slices;
//              each head attends with the scorer; contexts concatenated, then projected by W_o.
//
// Shapes: B batch, S source length, Dm memory (encoder state) size, Dq query size,
// Dk / Dv key / value size (Dm, or the attention size A with key_value), m heads.
// prepare() runs once per sentence; forward() once per decoder step.

#include <torch/torch.h>

#include <string>

#include "config/choices.h"
#include "model/normalizer.h"
#include "model/scorer.h"
#include "model/step_shared.h"

namespace s2s::model {

// Hard attention (Xu et al. 2015, sec. 4.1): the context is one value v_s instead of the
// average, s drawn from a (kSample) or its argmax (kArgmax); kSoft is ordinary attention
// (model.attention.hard, config/choices.h).
using config::HardAttention;
// Local attention (Luong et al. 2015, sec. 3.2): model.attention.local, config/choices.h.
using config::LocalAttention;

struct AttentionOptions {
  AttentionOptions(std::string scorer, int64_t query_size, int64_t memory_size)
      : scorer_(std::move(scorer)), query_size_(query_size), memory_size_(memory_size) {}
  TORCH_ARG(std::string, scorer);  // a name of the scorer registry (model/scorer.h)
  // A name of the normalizer registry (model/normalizer.h).
  TORCH_ARG(std::string, normalizer) = "softmax";
  TORCH_ARG(int64_t, query_size);
  TORCH_ARG(int64_t, memory_size);
  // Attention size A: key/value projection size and additive hidden size; 0 = query_size.
  TORCH_ARG(int64_t, size) = 0;
  TORCH_ARG(int64_t, heads) = 1;
  TORCH_ARG(bool, key_value) = false;
  TORCH_ARG(int64_t, rank) = 0;  // bilinear low rank
  // Tu et al. 2016: the coverage c_i (the attention position i has had so far) moves its key,
  // k_i + c_i w, with w [m, P] learned in each head's projected key space (see forward()).
  TORCH_ARG(bool, coverage) = false;
  // Local attention: only positions |i - p_t| <= D (`window`) get weight; local-p adds
  // -(i - p_t)^2 / (2 sigma^2), sigma = D / 2, to the scores (see forward()).
  TORCH_ARG(LocalAttention, local) = LocalAttention::kGlobal;
  TORCH_ARG(int64_t, window) = 10;
  // Hard attention in training; at evaluation (module in eval mode) `hard_eval` applies when
  // `hard` is not kSoft.
  TORCH_ARG(HardAttention, hard) = HardAttention::kSoft;
  TORCH_ARG(HardAttention, hard_eval) = HardAttention::kArgmax;
  // Training with kSample: probability of using the expected (soft) context instead.
  TORCH_ARG(double, p_expect) = 0.0;
};

// The sizes attention works with, all derived from its options; the module and the FLOP
// model of `s2s bench` read them from here.
struct AttentionSizes {
  int64_t size = 0;             // A (options.size, or the query size)
  int64_t key_size = 0;         // Dk = Dv: the memory size, or A with key_value
  int64_t head_query = 0;       // query size each head's scorer sees
  bool projects_query = false;  // W_q: several heads, or a dot scorer with Dq != Dk
  ScorerOptions scorer;         // one head's scorer: Dk / m keys, hidden size A / m
};
AttentionSizes attention_sizes(const AttentionOptions& options);

// Key-side tensors of one batch of sentences, computed once by prepare().
struct AttentionMemory {
  StepShared projected;     // [B, m, S, P] scorer key projections (model/step_shared.h)
  StepShared values;        // [B, m, S, Dv/m] (model/step_shared.h)
  torch::Tensor mask_bias;  // [B, m, S] 0 at real tokens, -inf at padding
  torch::Tensor lengths;    // [B] real source positions (</s> included), in the keys' type
  // Rows `index` [B'] of every tensor: beam search reorders hypotheses with it.
  AttentionMemory index_select(const torch::Tensor& index) const;
  // The first n rows (no copy): training drops rows whose target has ended. The keys and values
  // keep all their rows: each step reads the prefix it needs (model/step_shared.h).
  AttentionMemory head(int64_t n) const;
};

struct AttentionOutput {
  torch::Tensor context;  // [B, Dv]
  torch::Tensor weights;  // [B, m, S], each row sums to 1, exactly 0 at padding
  // Hard attention only (undefined for soft):
  torch::Tensor choice;    // [B, m] chosen position per head, -1 where the soft context was used
  torch::Tensor log_prob;  // [B] sum over heads of log a[s] for sampled heads (REINFORCE)
  torch::Tensor entropy;   // [B] sum over heads of the entropy of a (nats)
};

class AttentionImpl : public torch::nn::Module {
 public:
  explicit AttentionImpl(const AttentionOptions& options);

  // memory [B, S, Dm], mask [B, S] (true = real token).
  AttentionMemory prepare(const torch::Tensor& memory, const torch::Tensor& mask);
  // query [B, Dq] -> context and weights at target step t = `step` (0-based; local-m's center).
  // With the coverage option, `coverage` [B, m, S] is sum_{tau<t} a_tau, the weights of the
  // steps before this one (zeros at the first).
  AttentionOutput forward(const torch::Tensor& query, const AttentionMemory& memory,
                          const torch::Tensor& coverage = {}, int64_t step = 0);

  int64_t context_size() const { return value_size_; }
  int64_t heads() const { return options_.heads(); }
  // The hard-attention mode in force now (training or evaluation).
  HardAttention hard_mode() const;
  const AttentionOptions& options() const { return options_; }

 private:
  // scores [B*m, S] of the query rows q [B*m, dq]; with coverage [B, m, S] the keys move first.
  torch::Tensor scores(const torch::Tensor& q, const AttentionMemory& memory,
                       const torch::Tensor& coverage);
  // Local attention's bias [B, m, S] at step t: 0 inside the window, -inf outside, and local-p's
  // Gaussian term.
  torch::Tensor window_bias(const torch::Tensor& query, const AttentionMemory& memory,
                            int64_t step);
  // weights [B*m, S] -> context rows [B*m, S] mixing weights, filling the hard fields of `out`.
  torch::Tensor select_positions(const torch::Tensor& weights, const torch::Tensor& log_weights,
                                 int64_t batch, AttentionOutput& out);

  AttentionOptions options_;
  int64_t key_size_, value_size_;
  torch::nn::Linear key_proj_{nullptr}, value_proj_{nullptr};  // key_value only
  torch::nn::Linear query_proj_{nullptr};   // heads > 1, or dot scorers with Dq != Dk
  torch::nn::Linear output_proj_{nullptr};  // heads > 1: W_o over concatenated contexts
  std::shared_ptr<ScorerImpl> scorer_;
  const NormalizerSpec* normalizer_;
  torch::Tensor coverage_weight_;                                     // w [m, P] (coverage only)
  torch::nn::Linear position_proj_{nullptr}, position_out_{nullptr};  // local-p: W_p, v_p
};
TORCH_MODULE(Attention);

}  // namespace s2s::model
