// Greedy search: y_t = argmax_y log p(y | y_<t, x) for every row of the batch at once.

#include <ATen/record_function.h>

#include <algorithm>

#include "data/vocab.h"
#include "eval/search.h"
#include "eval/search_steps.h"

namespace s2s::eval {
namespace {

using data::Vocab;

// tokens [T, B] (CPU, <pad> after </s>), scores [B], attention [T, B, m, S] (CPU or undefined)
// -> one hypothesis per row.
std::vector<std::vector<Hypothesis>> collect_greedy(const torch::Tensor& tokens,
                                                    const torch::Tensor& scores,
                                                    const torch::Tensor& attention,
                                                    const batching::Batch& batch, double alpha) {
  const auto src_lengths = batch.src_lengths.to(torch::kCPU);
  const auto tok = tokens.accessor<int64_t, 2>();
  std::vector<std::vector<Hypothesis>> out(static_cast<std::size_t>(tokens.size(1)));
  for (int64_t b = 0; b < tokens.size(1); ++b) {
    Hypothesis h;
    int64_t t = 0;
    for (; t < tokens.size(0) && tok[t][b] != Vocab::kEos; ++t) h.tokens.push_back(tok[t][b]);
    h.score = scores[b].item<double>();
    h.normalized_score = h.score / length_penalty(t + 1, alpha);
    if (attention.defined()) {
      const int64_t src_len = src_lengths[b].item<int64_t>();
      // A compact copy: a view would keep the whole batch's [T, B, m, S] tensor alive.
      h.attention =
          attention.slice(0, 0, t + 1).select(1, b).slice(/*dim=*/2, 0, src_len).contiguous();
    }
    out[static_cast<std::size_t>(b)].push_back(std::move(h));
  }
  return out;
}

}  // namespace

// Rows leave the batch as they end: `rows` [n] maps the n rows still decoding to batch rows.
// Once an eighth of them have ended they are dropped from the state and the memory (a copy,
// so not after every single one), and later steps run on fewer rows.
std::vector<std::vector<Hypothesis>> greedy_search(const Ensemble& models,
                                                   const batching::Batch& batch,
                                                   const SearchOptions& options) {
  if (batch.size() == 0) return {};
  torch::NoGradGuard no_grad;
  const EnsembleEvalMode eval_mode(models.members());
  const auto long_opts = batch.src.options().dtype(torch::kLong);
  const int64_t B = batch.size();
  const auto limits_cpu = detail::max_lengths(batch, options);
  auto limits = torch::tensor(limits_cpu, torch::kLong).to(long_opts.device());  // [n]
  const int64_t longest = *std::max_element(limits_cpu.begin(), limits_cpu.end());
  const bool keep = detail::keeps_attention(models, options);

  auto encoded = models.encode(batch.src, batch.src_lengths);
  auto rows = torch::arange(B, long_opts);
  auto prev = torch::full({B}, Vocab::kBos, long_opts);
  auto done = torch::zeros({B}, long_opts.dtype(torch::kBool));      // [n]
  auto scores = torch::zeros({B}, long_opts.dtype(torch::kDouble));  // [B]
  auto tokens = torch::full({longest + 1, B}, Vocab::kPad, long_opts);
  std::vector<torch::Tensor> attention;  // per step: [B, m, S]
  int64_t steps = 0;
  while (steps <= longest) {
    const auto out = models.step(prev, encoded.state, encoded.memory);
    detail::count_rows(prev.size(0));
    RECORD_USER_SCOPE("s2s::search");  // experiments/breakdown.h: to the end of the step
    const auto& logp = out.log_probs;  // [n, V]
    detail::mask_log_probs_(logp, limits.le(steps));
    const auto [best_logp, best] = logp.max(/*dim=*/1);
    // Rows already done emit <pad> and add nothing to their score.
    prev = best.masked_fill(done, Vocab::kPad);
    scores.index_add_(0, rows, best_logp.to(torch::kDouble).masked_fill(done, 0.0));
    tokens.select(0, steps++).index_copy_(0, rows, prev);
    if (keep) attention.push_back(detail::scatter_rows(out.attention, rows, B));
    done = done | prev.eq(Vocab::kEos);
    const int64_t ended = done.sum().item<int64_t>();
    if (ended == done.size(0)) break;
    if (8 * ended >= done.size(0)) {
      const auto live = done.logical_not().nonzero().squeeze(1);
      rows = rows.index_select(0, live);
      prev = prev.index_select(0, live);
      limits = limits.index_select(0, live);
      done = done.index_select(0, live);
      encoded.state = encoded.state.index_select(live);
      encoded.memory = encoded.memory.index_select(live);
    }
  }
  const auto all_attention =
      keep ? torch::stack(attention).to(torch::kCPU, torch::kFloat) : torch::Tensor();
  return collect_greedy(tokens.narrow(0, 0, steps).to(torch::kCPU), scores.to(torch::kCPU),
                        all_attention, batch, options.length_penalty);
}

}  // namespace s2s::eval
