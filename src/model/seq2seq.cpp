#include "model/seq2seq.h"

namespace s2s::model {
namespace {

// x [n, ...] -> [rows, ...], zeros below: a step's per-row output for the whole (sorted) batch.
torch::Tensor pad_rows(const torch::Tensor& x, int64_t rows) {
  if (x.size(0) == rows) return x;
  auto shape = x.sizes().vec();
  shape[0] = rows - x.size(0);
  return torch::cat({x, torch::zeros(shape, x.options())});
}

// Per-step tensors [n_t, ...] of the sorted rows -> [B, T, ...] in the caller's row order.
torch::Tensor stack_steps(const std::vector<torch::Tensor>& steps, const torch::Tensor& unsort) {
  std::vector<torch::Tensor> padded;
  padded.reserve(steps.size());
  const int64_t rows = unsort.size(0);
  for (const auto& s : steps) padded.push_back(pad_rows(s, rows));
  return torch::stack(padded, /*dim=*/1).index_select(0, unsort);
}

// Which rows each step decodes. Rows are sorted by target length, longest first, so at step t
// the rows whose target has not ended are a prefix [0, active[t]) of the batch: later steps run
// on fewer rows and padded positions cost nothing (like packed sequences in the encoder).
struct StepPlan {
  torch::Tensor order;          // [B] original row of each sorted row
  torch::Tensor unsort;         // [B] sorted row of each original row
  std::vector<int64_t> active;  // [T] rows still decoding at step t
  torch::Tensor token_index;    // [N] b * T + t of every decoded (row, step), time-major
};

StepPlan plan_steps(const torch::Tensor& tgt_in, int64_t pad_id) {
  const int64_t batch = tgt_in.size(0), steps = tgt_in.size(1);
  const auto lengths = tgt_in.ne(pad_id).sum(/*dim=*/1);  // [B] <s> y_1 .. y_n: n + 1 steps
  StepPlan p;
  p.order = std::get<1>(lengths.sort(/*stable=*/true, /*dim=*/0, /*descending=*/true));
  p.unsort =
      torch::empty_like(p.order).scatter_(0, p.order, torch::arange(batch, p.order.options()));
  const auto sorted = lengths.index_select(0, p.order).to(torch::kCPU).contiguous();
  const auto order = p.order.to(torch::kCPU).contiguous();
  const auto* len = sorted.data_ptr<int64_t>();
  const auto* row = order.data_ptr<int64_t>();
  std::vector<int64_t> index;
  for (int64_t t = 0; t < steps; ++t) {
    int64_t n = 0;
    while (n < batch && len[n] > t) index.push_back(row[n++] * steps + t);
    p.active.push_back(n);
  }
  p.token_index = torch::tensor(index, torch::kLong).to(tgt_in.device());
  return p;
}

}  // namespace

Seq2SeqImpl::Seq2SeqImpl(const EncoderOptions& enc, const DecoderOptions& dec,
                         bool learned_baseline)
    : encoder(register_module("encoder", Encoder(enc))),
      decoder(register_module("decoder", Decoder(dec))) {
  if (learned_baseline) {
    baseline = register_module("baseline", torch::nn::Linear(dec.hidden_size(), 1));
  }
}

EncodedBatch Seq2SeqImpl::encode(const torch::Tensor& src, const torch::Tensor& src_lengths) {
  const auto encoded = encoder(src, src_lengths);

  return {decoder->prepare(encoded), decoder->initial_state(encoded), encoded.mask};
}

ForwardOutput Seq2SeqImpl::forward(const torch::Tensor& src, const torch::Tensor& src_lengths,
                                   const torch::Tensor& tgt_in, double teacher_forcing,
                                   bool keep_attention) {
  const auto plan = plan_steps(tgt_in, decoder->options().pad_id());
  const auto encoded =
      encoder(src.index_select(0, plan.order), src_lengths.index_select(0, plan.order));
  auto memory = decoder->prepare(encoded);
  auto state = decoder->initial_state(encoded);
  const auto tgt = tgt_in.index_select(0, plan.order);
  const bool always_gold = teacher_forcing >= 1.0;
  // Teacher forcing: every step's input e(y_t-1) [n_t, E] from one lookup over the N decoded
  // (row, step) pairs, time-major as token_index orders them.
  std::vector<torch::Tensor> gold_embedded;
  if (always_gold) {
    gold_embedded = decoder->embed(tgt_in.reshape(-1).index_select(0, plan.token_index))
                        .split_with_sizes(plan.active);
  }
  // Per step, for the active rows [n_t, ...]: output-layer inputs (or logits), attention.
  std::vector<torch::Tensor> outputs, attention, log_probs, entropies, queries;
  outputs.reserve(plan.active.size());
  torch::Tensor prev = tgt.select(1, 0);
  for (std::size_t t = 0; t < plan.active.size(); ++t) {
    const int64_t n = plan.active[t];
    if (n < prev.size(0)) {  // rows whose target ended leave the batch
      prev = prev.narrow(0, 0, n);
      state = state.head(n);
      memory = memory.head(n);
    }
    auto out = always_gold ? decoder->step_embedded(gold_embedded[t], state, memory)
                           : decoder->step(prev, state, memory);
    if (keep_attention && out.attention.defined()) attention.push_back(out.attention);
    if (out.log_prob.defined()) {
      log_probs.push_back(out.log_prob);
      entropies.push_back(out.entropy);
      if (baseline) queries.push_back(out.query);  // q_t [n_t, H]
    }
    outputs.push_back(always_gold ? out.features : decoder->logits(out.features));
    if (t + 1 == plan.active.size()) break;
    const auto gold = tgt.select(1, static_cast<int64_t>(t + 1)).narrow(0, 0, n);
    if (always_gold) {
      prev = gold;  // the output layer runs once over all steps after the loop
    } else {
      const auto use_gold = torch::rand({n}, tgt.options().dtype(torch::kFloat)) < teacher_forcing;
      prev = torch::where(use_gold, gold, outputs.back().argmax(/*dim=*/-1));
    }
  }
  ForwardOutput result;
  const auto packed = torch::cat(outputs, /*dim=*/0);  // [N, F] or [N, V], time-major
  result.logits = always_gold ? decoder->logits(packed) : packed;
  result.token_index = plan.token_index;
  if (!attention.empty()) result.attention = stack_steps(attention, plan.unsort);
  if (!log_probs.empty()) {
    result.sample_log_prob = stack_steps(log_probs, plan.unsort);
    result.attention_entropy = stack_steps(entropies, plan.unsort);
  }
  // One product over every step: b [B, T] (padded steps give the bias; REINFORCE masks them).
  if (!queries.empty()) result.baseline = baseline(stack_steps(queries, plan.unsort)).squeeze(-1);
  return result;
}

}  // namespace s2s::model
