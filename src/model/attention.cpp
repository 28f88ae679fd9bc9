#include "model/attention.h"

#include <ATen/record_function.h>

#include <limits>

namespace s2s::model {
namespace {

torch::nn::Linear linear(int64_t in, int64_t out, bool bias = false) {
  return torch::nn::Linear(torch::nn::LinearOptions(in, out).bias(bias));
}

// [B', m, S, D] -> [B' * m, S, D] rows, buffer alike: heads folded into the rows.
StepShared head_rows(const StepShared& x) {
  const auto fold = [](const torch::Tensor& t) {
    return t.defined() ? t.view({-1, t.size(2), t.size(3)}) : t;
  };
  return {fold(x.tensor), fold(x.grad), {}};
}

StepShared select_rows(const StepShared& x, const torch::Tensor& index) {
  return {x.tensor.index_select(0, index), {}, {}};
}

}  // namespace

AttentionMemory AttentionMemory::index_select(const torch::Tensor& index) const {
  return {select_rows(projected, index), select_rows(values, index),
          mask_bias.index_select(0, index), lengths.index_select(0, index)};
}

AttentionMemory AttentionMemory::head(int64_t n) const {
  return {projected, values, mask_bias.narrow(0, 0, n), lengths.narrow(0, 0, n)};
}

AttentionSizes attention_sizes(const AttentionOptions& o) {
  const int64_t size = o.size() > 0 ? o.size() : o.query_size();
  const int64_t m = o.heads();
  const int64_t key_size = o.key_value() ? size : o.memory_size();
  TORCH_CHECK(key_size % m == 0 && size % m == 0, "attention heads (", m,
              ") must divide the key/value size (", key_size, ") and the attention size (", size,
              ")");
  // Each head's query must be a Dk/m-sized vector when there are several heads; the dot
  // scorers also need Dq == Dk. Then W_q projects the query (docs/attention.md "Variants around any
  // scorer").
  const bool projects_query =
      m > 1 || (scorer_spec(o.scorer()).needs_equal_sizes && o.query_size() != key_size);
  const int64_t head_query = projects_query ? key_size / m : o.query_size();
  return {size, key_size, head_query, projects_query,
          ScorerOptions(key_size / m, head_query).hidden_size(size / m).rank(o.rank())};
}

AttentionImpl::AttentionImpl(const AttentionOptions& o)
    : options_(o), normalizer_(&normalizer_spec(o.normalizer())) {
  const auto sizes = attention_sizes(o);
  key_size_ = value_size_ = sizes.key_size;
  if (o.key_value()) {
    key_proj_ = register_module("key_proj", linear(o.memory_size(), sizes.size));
    value_proj_ = register_module("value_proj", linear(o.memory_size(), sizes.size));
  }
  if (sizes.projects_query) {
    query_proj_ = register_module("query_proj", linear(o.query_size(), key_size_));
  }
  scorer_ = make_scorer(o.scorer(), sizes.scorer);
  register_module("scorer", scorer_);
  if (o.heads() > 1) {
    output_proj_ = register_module("output_proj", linear(value_size_, value_size_));
  }
  if (o.local() == LocalAttention::kPredictive) {
    // p_t = (S - 1) sigmoid(v_p^T tanh(W_p q_t)), one position per head (Luong et al. eq. 9).
    position_proj_ = register_module("position_proj", linear(o.query_size(), sizes.size));
    position_out_ = register_module("position_out", linear(sizes.size, o.heads()));
  }
  if (o.coverage()) {
    // Zero: training starts from the same scores as without coverage.
    const int64_t p = scorer_spec(o.scorer()).projected_size(sizes.scorer);
    coverage_weight_ = register_parameter("coverage_weight", torch::zeros({o.heads(), p}));
  }
}

AttentionMemory AttentionImpl::prepare(const torch::Tensor& memory, const torch::Tensor& mask) {
  RECORD_USER_SCOPE("s2s::attention");  // experiments/breakdown.h
  const int64_t batch = memory.size(0), len = memory.size(1), m = options_.heads();
  // These products, once a batch, run under the caller's autocast (bf16 under mixed precision).
  // On a CPU the steps that read their results run in fp32 (model/gru.h): cast back for them.
  const auto for_steps = [&](const torch::Tensor& t) {
    return memory.device().is_cpu() ? t.to(memory.scalar_type()) : t;
  };
  const auto keys = key_proj_ ? key_proj_(memory) : memory;                   // [B, S, Dk]
  const auto values = value_proj_ ? for_steps(value_proj_(memory)) : memory;  // [B, S, Dv]
  // Split the feature dimension into heads: [B, S, m, D/m] -> [B, m, S, D/m].
  const auto split = [&](const torch::Tensor& t) {
    return t.view({batch, len, m, t.size(2) / m}).transpose(1, 2).contiguous();
  };
  const auto head_keys = split(keys).view({batch * m, len, key_size_ / m});
  const auto projected = for_steps(scorer_->project_keys(head_keys));
  const auto bias = torch::zeros({batch, len}, memory.options())
                        .masked_fill(mask.logical_not(), -std::numeric_limits<float>::infinity());
  return {share_across_steps(projected.view({batch, m, len, projected.size(2)})),
          share_across_steps(split(values)), bias.unsqueeze(1).expand({batch, m, len}).contiguous(),
          mask.sum(/*dim=*/1).to(memory.scalar_type())};
}

HardAttention AttentionImpl::hard_mode() const {
  if (options_.hard() == HardAttention::kSoft) return HardAttention::kSoft;
  return is_training() ? options_.hard() : options_.hard_eval();
}

torch::Tensor AttentionImpl::scores(const torch::Tensor& q, const AttentionMemory& mem,
                                    const torch::Tensor& coverage) {
  if (!coverage_weight_.defined()) return scorer_->score_step(q, head_rows(mem.projected));
  TORCH_CHECK(coverage.defined(), "coverage attention needs the coverage of the steps so far");
  // Tu et al. 2016 (eq. 7, "linguistic coverage" fed to the scorer), in each head's projected key
  // space: k'_i = k_i + c_i w, [B, m, S, P] = [B, m, S, P] + [B, m, S, 1] * [m, 1, P]. The keys
  // change at every step, so the scorer's steps that read the shared keys in place (the
  // additive scorer's fused node and kernel) give way to its recorded score().
  const int64_t batch = coverage.size(0), len = coverage.size(2);
  const auto keys =
      step_rows(mem.projected, batch) + coverage.unsqueeze(-1) * coverage_weight_.unsqueeze(1);
  return scorer_->score(q, keys.view({batch * options_.heads(), len, keys.size(3)}));
}

torch::Tensor AttentionImpl::window_bias(const torch::Tensor& query, const AttentionMemory& mem,
                                         int64_t step) {
  const int64_t batch = query.size(0), m = options_.heads(), len = mem.mask_bias.size(2);
  const auto last = (mem.lengths.narrow(0, 0, batch) - 1).view({batch, 1});  // S - 1: [B, 1]
  torch::Tensor center;                                                      // p_t [B, m]
  if (options_.local() == LocalAttention::kMonotonic) {
    center = last.clamp_max(static_cast<double>(step)).expand({batch, m});  // min(t, S - 1)
  } else {
    center = last * torch::sigmoid(position_out_(torch::tanh(position_proj_(query))));
  }
  const auto positions = torch::arange(len, query.options()).view({1, 1, len});
  const auto distance = positions - center.unsqueeze(-1);  // i - p_t [B, m, S]
  const double d = static_cast<double>(options_.window());
  auto bias = torch::zeros_like(distance).masked_fill(distance.abs() > d,
                                                      -std::numeric_limits<float>::infinity());
  if (options_.local() == LocalAttention::kPredictive) {
    const double sigma = d / 2;  // Luong et al.: the Gaussian's sigma = D / 2
    bias = bias - distance.pow(2) / (2 * sigma * sigma);
  }
  return bias;
}

AttentionOutput AttentionImpl::forward(const torch::Tensor& query, const AttentionMemory& mem,
                                       const torch::Tensor& coverage, int64_t step) {
  RECORD_USER_SCOPE("s2s::attention");
  const int64_t batch = query.size(0), m = options_.heads();
  const int64_t len = mem.projected.tensor.size(2), rows = batch * m;
  auto q = query_proj_ ? query_proj_(query) : query;  // [B, m * dq]
  q = q.view({rows, q.size(1) / m});
  // scores [B*m, S] in fp32 (the mask bias is fp32, also when the scorer ran in bf16); -inf at
  // padding makes every normalizer give exactly 0 there.
  auto scores = this->scores(q, mem, coverage) + mem.mask_bias.view({rows, len});
  if (options_.local() != LocalAttention::kGlobal) {
    // Local attention: scores outside the window at -inf, as padding; local-p's Gaussian in
    // the scores, so that every normalizer keeps rows on the simplex (softmax: a_i times
    // exp(-(i - p_t)^2 / 2 sigma^2), renormalized).
    scores = scores + window_bias(query, mem, step).view({rows, len});
  }
  AttentionOutput out;
  torch::Tensor mix;  // [B*m, S] weights of the values in the context
  if (hard_mode() == HardAttention::kSoft) {
    mix = normalizer_->normalize(scores);
    out.weights = mix.view({batch, m, len});
  } else {
    // Softmax's log a from the scores (finite wherever a underflows to 0); a sparse normalizer's
    // is -inf where a = 0, where no sample lands (its probability is exactly 0) and the argmax
    // never is, so the chosen log a stays finite.
    torch::Tensor weights, log_a;
    if (normalizer_->sparse) {
      weights = normalizer_->normalize(scores);
      log_a = log_weights(weights);
    } else {
      log_a = torch::log_softmax(scores, /*dim=*/-1);
      weights = log_a.exp();
    }
    out.weights = weights.view({batch, m, len});
    mix = select_positions(weights, log_a, batch, out);
  }
  // context_h = sum_i mix_i v_i: [B*m, S] x [B'*m, S, Dv/m] (B' >= B rows) -> [B, Dv]
  auto context = weighted_sum(mix, head_rows(mem.values)).view({batch, value_size_});
  if (output_proj_) context = output_proj_(context);
  out.context = context;
  return out;
}

torch::Tensor AttentionImpl::select_positions(const torch::Tensor& weights,
                                              const torch::Tensor& log_weights, int64_t batch,
                                              AttentionOutput& out) {
  const int64_t rows = weights.size(0), m = options_.heads();
  torch::Tensor choice;  // [B*m]
  {
    torch::NoGradGuard no_grad;
    choice = hard_mode() == HardAttention::kSample ? torch::multinomial(weights, 1).squeeze(1)
                                                   : weights.argmax(/*dim=*/-1);
  }
  const auto one_hot = torch::zeros_like(weights).scatter_(1, choice.unsqueeze(1), 1.0);
  // Entropy H(a) = -sum_i a_i log a_i, with 0 log 0 = 0 at padding.
  const auto entropy = -(weights * log_weights.masked_fill(weights.eq(0), 0.0)).sum(-1);
  out.entropy = entropy.view({batch, m}).sum(1);
  auto log_prob = log_weights.gather(1, choice.unsqueeze(1)).squeeze(1);  // log a[s]: [B*m]
  auto mix = one_hot;
  if (is_training() && hard_mode() == HardAttention::kSample && options_.p_expect() > 0) {
    // With probability p_expect the expected context replaces the sample (Xu et al. 2015):
    // that row is soft, trained by backpropagation, and takes no REINFORCE term.
    const auto expect = torch::rand({rows}, weights.options()) < options_.p_expect();
    mix = torch::where(expect.unsqueeze(1), weights, one_hot);
    log_prob = log_prob.masked_fill(expect, 0.0);
    choice = choice.masked_fill(expect, -1);
  }
  out.log_prob = log_prob.view({batch, m}).sum(1);
  out.choice = choice.view({batch, m});
  return mix;
}

}  // namespace s2s::model
