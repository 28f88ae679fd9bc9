#include "eval/search.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>

#include "data/vocab.h"
#include "util/error.h"

namespace s2s::eval {
namespace {

using data::Vocab;
constexpr double kNegInf = -std::numeric_limits<double>::infinity();

// max_len_i = ceil(ratio * src_len_i) + extra for every batch row, on the CPU.
std::vector<int64_t> max_lengths(const train::Batch& batch, const SearchOptions& options) {
  const auto lengths = batch.src_lengths.to(torch::kCPU, torch::kLong).contiguous();
  std::vector<int64_t> out(static_cast<std::size_t>(lengths.numel()));
  for (std::size_t i = 0; i < out.size(); ++i) {
    const double len = static_cast<double>(lengths[static_cast<int64_t>(i)].item<int64_t>());
    out[i] = static_cast<int64_t>(std::ceil(options.max_len_ratio * len)) + options.max_len_extra;
  }
  return out;
}

// Which vocabulary columns a step may not choose: <pad> and <s> always; everything but </s>
// once a row has reached its length limit.
struct StepMasks {
  StepMasks(int64_t vocab_size, const torch::Device& device) {
    const auto opts = torch::TensorOptions().dtype(torch::kBool).device(device);
    banned = torch::zeros({1, vocab_size}, opts);
    banned.index_put_({0, Vocab::kPad}, true);
    banned.index_put_({0, Vocab::kBos}, true);
    not_eos = torch::ones({1, vocab_size}, opts);
    not_eos.index_put_({0, Vocab::kEos}, false);
  }
  torch::Tensor banned;   // [1, V]
  torch::Tensor not_eos;  // [1, V]
};

// One decoder step for rows R: log p(y | prefix) [R, V] (float), masked after the softmax so the
// chosen tokens keep the model's own log-probabilities. `forced` [R] bool: rows at their limit.
torch::Tensor step_log_probs(model::Seq2Seq& model, const model::StepOutput& out,
                             const StepMasks& masks, const torch::Tensor& forced) {
  const auto logp = torch::log_softmax(model->decoder->logits(out.features), /*dim=*/-1);
  const auto mask = masks.banned | (forced.unsqueeze(1) & masks.not_eos);
  return logp.masked_fill(mask, kNegInf);
}

bool keeps_attention(model::Seq2Seq& model, const SearchOptions& options) {
  return options.keep_attention && model->decoder->has_attention();
}

// ---- greedy ---------------------------------------------------------------------------------

// tokens [T, B] (CPU, <pad> after </s>), scores [B], attention [T, B, m, S] (CPU or undefined)
// -> one hypothesis per row.
std::vector<std::vector<Hypothesis>> collect_greedy(const torch::Tensor& tokens,
                                                    const torch::Tensor& scores,
                                                    const torch::Tensor& attention,
                                                    const train::Batch& batch, double alpha) {
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

// ---- beam search ----------------------------------------------------------------------------

// A hypothesis that ended in </s> at step `step`, coming from alive row `row` of that step.
struct Finished {
  int64_t step, row;
  double score, normalized;
};

// The bookkeeping of one beam search, on the CPU.
struct BeamState {
  int64_t batch, beam, n_best;
  std::vector<int64_t> limits;                  // [B] max target length before </s>
  std::vector<std::vector<Finished>> finished;  // per sentence
  std::vector<bool> done;                       // per sentence
  std::vector<std::vector<int64_t>> parents;    // per step s: [B*K] alive row of step s it extends
  std::vector<std::vector<int64_t>> tokens;     // per step s: [B*K] token it appended
};

// The K-th best normalized score among finished hypotheses (they are fewer than K: -inf).
double kth_best(std::vector<Finished> finished, int64_t k) {
  if (static_cast<int64_t>(finished.size()) < k) return kNegInf;
  std::nth_element(
      finished.begin(), finished.begin() + (k - 1), finished.end(),
      [](const Finished& a, const Finished& b) { return a.normalized > b.normalized; });
  return finished[static_cast<std::size_t>(k - 1)].normalized;
}

// One sentence's step. The </s> extension of an alive prefix (eos [K], summed log-probs; -inf
// where </s> is not among the K most likely next tokens of that prefix) is set aside as a
// finished hypothesis; the K best other extensions (values [K], sorted; from beam
// beams[k] of the sentence with token tokens[k]) stay alive.
// Writes rows b*K .. b*K+K-1 of parent/token/score.
//
// Why "among its own K best" and not "among the K best extensions of the whole beam" (fairseq,
// OpenNMT): there a short hypothesis whose </s> is outranked by longer prefixes is lost, and
// those can end far lower, so beam search scores below greedy search on flat distributions.
// Why not every </s>: ending would then compete at every step, and on a weak model an early
// </s> (the empty translation) wins the length-normalized ranking. With K = 1 the rule is
// exactly greedy search.
void advance_sentence(BeamState& st, int64_t b, int64_t step, double alpha, const double* eos,
                      const double* values, const int64_t* beams, const int64_t* tokens,
                      std::vector<int64_t>& parent, std::vector<int64_t>& token,
                      std::vector<double>& score) {
  const int64_t K = st.beam;
  auto& finished = st.finished[static_cast<std::size_t>(b)];
  for (int64_t k = 0; k < K; ++k) {
    if (eos[k] > kNegInf) {
      finished.push_back({step, b * K + k, eos[k], eos[k] / length_penalty(step + 1, alpha)});
    }
  }
  for (int64_t k = 0; k < K; ++k) {  // -inf candidates (tiny vocabularies, limit) stay dead
    const auto slot = static_cast<std::size_t>(b * K + k);
    parent[slot] = b * K + beams[k];
    token[slot] = tokens[k];
    score[slot] = values[k];
  }
  // Scores only fall as tokens are added, so an alive prefix with score s can at best reach
  // s / lp(limit + 1) (alpha >= 0, s <= 0): stop once that cannot beat the n_best-th finished
  // one, the last hypothesis returned.
  const double best_alive = values[0];
  const int64_t limit = st.limits[static_cast<std::size_t>(b)];
  const double bound = best_alive / length_penalty(limit + 1, alpha);
  if (step >= limit || kth_best(finished, st.n_best) >= bound)
    st.done[static_cast<std::size_t>(b)] = true;
}

// Rows of a sentence that is done, until the batch shrinks: dead, at -inf score, so nothing they
// produce is ever chosen.
void retire_sentence(const BeamState& st, int64_t b, std::vector<int64_t>& parent,
                     std::vector<int64_t>& token, std::vector<double>& score) {
  for (int64_t k = 0; k < st.beam; ++k) {
    const auto slot = static_cast<std::size_t>(b * st.beam + k);
    parent[slot] = b * st.beam + k;
    token[slot] = Vocab::kPad;
    score[slot] = kNegInf;
  }
}

// Follows the backpointers from (step, row) to step 0: the tokens and, with `attention`
// [steps, B*K, m, S] on the CPU, the attention rows of the hypothesis.
Hypothesis backtrack(const BeamState& st, const Finished& f, const torch::Tensor& attention,
                     int64_t src_len) {
  Hypothesis h;
  h.score = f.score;
  h.normalized_score = f.normalized;
  std::vector<int64_t> rows(static_cast<std::size_t>(f.step + 1));
  rows[static_cast<std::size_t>(f.step)] = f.row;
  h.tokens.resize(static_cast<std::size_t>(f.step));
  for (int64_t s = f.step; s > 0; --s) {
    const auto prev = static_cast<std::size_t>(s - 1);
    const auto row = static_cast<std::size_t>(rows[static_cast<std::size_t>(s)]);
    h.tokens[prev] = st.tokens[prev][row];
    rows[prev] = st.parents[prev][row];
  }
  if (attention.defined()) {
    const auto steps = torch::arange(f.step + 1, torch::kLong);
    h.attention = attention.index({steps, torch::tensor(rows, torch::kLong)})
                      .slice(/*dim=*/2, 0, src_len)  // [step + 1, m, S_i]
                      .contiguous();
  }
  return h;
}

std::vector<std::vector<Hypothesis>> collect_beams(const BeamState& st,
                                                   const torch::Tensor& attention,
                                                   const train::Batch& batch, int64_t n_best) {
  const auto src_lengths = batch.src_lengths.to(torch::kCPU);
  std::vector<std::vector<Hypothesis>> out(static_cast<std::size_t>(st.batch));
  for (int64_t b = 0; b < st.batch; ++b) {
    auto finished = st.finished[static_cast<std::size_t>(b)];
    std::stable_sort(finished.begin(), finished.end(), [](const Finished& x, const Finished& y) {
      return x.normalized > y.normalized;
    });
    const auto n = std::min<std::size_t>(finished.size(), static_cast<std::size_t>(n_best));
    for (std::size_t i = 0; i < n; ++i) {
      out[static_cast<std::size_t>(b)].push_back(
          backtrack(st, finished[i], attention, src_lengths[b].item<int64_t>()));
    }
  }
  return out;
}

// From logp [n*K, V] (float) and the alive rows' scores [n*K] (double) of the n sentences
// `batch_sentences` still in the batch: records finished hypotheses and fills parent/token/score
// (indexed by b*K + k for sentence b) with the next step's alive rows. A row can only contribute
// its K best non-</s> extensions and its </s> when that is among its K best: all within its
// K + 1 most likely tokens. So the V-wide work is one float top-k per row, and the summed scores
// are formed in double for those few candidates only.
void select_beams(BeamState& st, const std::vector<int64_t>& batch_sentences,
                  const torch::Tensor& logp, const torch::Tensor& scores, int64_t step,
                  double alpha, std::vector<int64_t>& parent, std::vector<int64_t>& token,
                  std::vector<double>& score) {
  const int64_t n = static_cast<int64_t>(batch_sentences.size()), K = st.beam;
  const int64_t width = std::min(K + 1, logp.size(1));
  const auto [top, top_tokens] = logp.topk(width, /*dim=*/1);  // [n*K, width], sorted
  const auto kth = top.select(1, std::min(K, width) - 1);      // the row's K-th best
  const auto eos_logp = logp.select(1, Vocab::kEos);
  const auto eos = torch::where(eos_logp >= kth, scores + eos_logp.to(torch::kDouble),
                                torch::full_like(scores, kNegInf))
                       .to(torch::kCPU)
                       .contiguous();
  const auto candidates = (scores.unsqueeze(1) + top.to(torch::kDouble))
                              .masked_fill(top_tokens.eq(Vocab::kEos), kNegInf)  // never alive
                              .view({n, K * width});
  const auto best = candidates.topk(K, /*dim=*/1);  // [n, K], sorted
  const auto values = std::get<0>(best).to(torch::kCPU).contiguous();
  const auto chosen = std::get<1>(best);
  const auto beams = chosen.div(width, "floor").to(torch::kCPU).contiguous();
  const auto tokens =
      top_tokens.view({n, K * width}).gather(1, chosen).to(torch::kCPU).contiguous();
  for (int64_t i = 0; i < n; ++i) {
    const int64_t b = batch_sentences[static_cast<std::size_t>(i)];
    if (st.done[static_cast<std::size_t>(b)]) {
      retire_sentence(st, b, parent, token, score);
      continue;
    }
    advance_sentence(st, b, step, alpha, eos.data_ptr<double>() + i * K,
                     values.data_ptr<double>() + i * K, beams.data_ptr<int64_t>() + i * K,
                     tokens.data_ptr<int64_t>() + i * K, parent, token, score);
  }
}

// Rows of the next step for the sentences in the batch (without the done ones when `drop_done`):
// where each comes from in this step's batch (i*K + beam), its last token and its score.
struct NextRows {
  std::vector<int64_t> from, tokens;
  std::vector<double> scores;
};

NextRows next_rows(const BeamState& st, const std::vector<int64_t>& batch_sentences, bool drop_done,
                   const std::vector<int64_t>& parent, const std::vector<int64_t>& token,
                   const std::vector<double>& score) {
  const int64_t K = st.beam;
  NextRows r;
  for (std::size_t i = 0; i < batch_sentences.size(); ++i) {
    const int64_t b = batch_sentences[i];
    if (drop_done && st.done[static_cast<std::size_t>(b)]) continue;
    for (int64_t k = 0; k < K; ++k) {
      const auto slot = static_cast<std::size_t>(b * K + k);
      r.from.push_back(static_cast<int64_t>(i) * K + parent[slot] - b * K);
      r.tokens.push_back(token[slot]);
      r.scores.push_back(score[slot]);
    }
  }
  return r;
}

}  // namespace

EvalModeGuard::EvalModeGuard(model::Seq2Seq& model)
    : model_(model), was_training_(model->is_training()) {
  model_->eval();
}

EvalModeGuard::~EvalModeGuard() { model_->train(was_training_); }

void validate_search_options(const SearchOptions& o) {
  const auto fail = [](const std::string& key, const std::string& rule, const std::string& value) {
    throw ConfigError("search option " + key + " " + rule + ", got " + value);
  };
  if (o.beam_size < 1) fail("beam_size", "must be >= 1", std::to_string(o.beam_size));
  if (o.n_best < 1 || o.n_best > o.beam_size) {
    fail("n_best", "must be in [1, beam_size = " + std::to_string(o.beam_size) + "]",
         std::to_string(o.n_best));
  }
  if (!(o.length_penalty >= 0)) {
    fail("length_penalty", "must be >= 0", std::to_string(o.length_penalty));
  }
  if (!(o.max_len_ratio >= 0)) {
    fail("max_len_ratio", "must be >= 0", std::to_string(o.max_len_ratio));
  }
  if (o.max_len_extra < 0) fail("max_len_extra", "must be >= 0", std::to_string(o.max_len_extra));
}

double length_penalty(int64_t length, double alpha) {
  return std::pow((5.0 + static_cast<double>(length)) / 6.0, alpha);
}

std::vector<std::vector<Hypothesis>> search(model::Seq2Seq& model, const train::Batch& batch,
                                            const SearchOptions& options) {
  return options.beam_size == 1 ? greedy_search(model, batch, options)
                                : beam_search(model, batch, options);
}

// Rows leave the batch as they end: `rows` [n] maps the n rows still decoding to batch rows.
// Once an eighth of them have ended they are dropped from the state and the memory (a copy,
// so not after every single one), and later steps run on fewer rows.
std::vector<std::vector<Hypothesis>> greedy_search(model::Seq2Seq& model, const train::Batch& batch,
                                                   const SearchOptions& options) {
  validate_search_options(options);
  if (batch.size() == 0) return {};
  torch::NoGradGuard no_grad;
  EvalModeGuard eval_mode(model);
  const auto long_opts = batch.src.options().dtype(torch::kLong);
  const int64_t B = batch.size();
  const auto limits_cpu = max_lengths(batch, options);
  auto limits = torch::tensor(limits_cpu, torch::kLong).to(long_opts.device());  // [n]
  const int64_t longest = *std::max_element(limits_cpu.begin(), limits_cpu.end());
  const StepMasks masks(model->decoder->options().vocab_size(), long_opts.device());
  const bool keep = keeps_attention(model, options);

  auto encoded = model->encode(batch.src, batch.src_lengths);
  auto rows = torch::arange(B, long_opts);
  auto prev = torch::full({B}, Vocab::kBos, long_opts);
  auto done = torch::zeros({B}, long_opts.dtype(torch::kBool));      // [n]
  auto scores = torch::zeros({B}, long_opts.dtype(torch::kDouble));  // [B]
  auto tokens = torch::full({longest + 1, B}, Vocab::kPad, long_opts);
  std::vector<torch::Tensor> attention;  // per step: [B, m, S]
  int64_t steps = 0;
  while (steps <= longest) {
    const auto out = model->decoder->step(prev, encoded.state, encoded.memory);
    const auto logp = step_log_probs(model, out, masks, limits.le(steps));  // [n, V]
    const auto [best_logp, best] = logp.max(/*dim=*/1);
    // Rows already done emit <pad> and add nothing to their score.
    prev = best.masked_fill(done, Vocab::kPad);
    scores.index_add_(0, rows, best_logp.to(torch::kDouble).masked_fill(done, 0.0));
    tokens.select(0, steps++).index_copy_(0, rows, prev);
    if (keep) {
      auto sizes = out.attention.sizes().vec();
      sizes[0] = B;
      attention.push_back(
          torch::zeros(sizes, out.attention.options()).index_copy_(0, rows, out.attention));
    }
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

// Row i*K + k of the batch is beam k of sentence batch_sentences[i]. A sentence's rows share one
// memory, so only the decoder state follows the reordering. Once an eighth of the sentences in
// the batch are done they leave it (state and memory are index-selected; not after every single
// one, as that is a copy); until then a done sentence's rows stay, dead (retire_sentence).
std::vector<std::vector<Hypothesis>> beam_search(model::Seq2Seq& model, const train::Batch& batch,
                                                 const SearchOptions& options) {
  validate_search_options(options);
  if (batch.size() == 0) return {};
  torch::NoGradGuard no_grad;
  EvalModeGuard eval_mode(model);
  const auto device = batch.src.device();
  const auto long_opts = torch::TensorOptions().dtype(torch::kLong).device(device);
  const int64_t B = batch.size(), K = options.beam_size, V = model->decoder->options().vocab_size();
  BeamState st{B, K, options.n_best, max_lengths(batch, options), {}, {}, {}, {}};
  st.finished.resize(static_cast<std::size_t>(B));
  st.done.assign(static_cast<std::size_t>(B), false);
  const int64_t longest = *std::max_element(st.limits.begin(), st.limits.end());
  const StepMasks masks(V, device);
  const bool keep = keeps_attention(model, options);

  std::vector<int64_t> batch_sentences(static_cast<std::size_t>(B));
  std::iota(batch_sentences.begin(), batch_sentences.end(), 0);
  const auto encoded = model->encode(batch.src, batch.src_lengths);
  torch::Tensor rows, row_limits;  // [n*K]: b*K + k, length limit
  model::DecoderMemory memory;     // the rows' memory
  const auto place = [&] {
    const auto sentences = torch::tensor(batch_sentences, torch::kLong).to(device);
    rows = (sentences.unsqueeze(1) * K + torch::arange(K, long_opts)).view({-1});
    row_limits = torch::tensor(st.limits, torch::kLong).to(device).index_select(0, sentences);
    row_limits = row_limits.repeat_interleave(K);
    memory = encoded.memory.index_select(sentences.repeat_interleave(K));
  };
  place();
  auto state = encoded.state.index_select(rows.div(K, "floor"));
  // Only beam 0 is alive at first; the others would duplicate it.
  auto scores = torch::full({B, K}, kNegInf, long_opts.dtype(torch::kDouble));
  scores.select(1, 0).fill_(0.0);
  auto prev = torch::full({B * K}, Vocab::kBos, long_opts);
  std::vector<torch::Tensor> attention;  // per step [B*K, m, S]
  std::vector<int64_t> parent(static_cast<std::size_t>(B * K)), token(parent.size());
  std::vector<double> score(parent.size());
  for (int64_t t = 0; t <= longest; ++t) {
    const auto out = model->decoder->step(prev, state, memory);
    const auto logp = step_log_probs(model, out, masks, row_limits.le(t));  // [n*K, V]
    if (keep) {
      auto sizes = out.attention.sizes().vec();
      sizes[0] = B * K;
      attention.push_back(
          torch::zeros(sizes, out.attention.options()).index_copy_(0, rows, out.attention));
    }
    select_beams(st, batch_sentences, logp, scores.view({-1}), t, options.length_penalty, parent,
                 token, score);
    st.parents.push_back(parent);
    st.tokens.push_back(token);
    const auto is_done = [&st](int64_t b) { return st.done[static_cast<std::size_t>(b)]; };
    const auto n = static_cast<int64_t>(batch_sentences.size());
    const auto ended = std::count_if(batch_sentences.begin(), batch_sentences.end(), is_done);
    if (ended == n) break;
    const bool shrink = 8 * ended >= n;
    const auto next = next_rows(st, batch_sentences, shrink, parent, token, score);
    state = state.index_select(torch::tensor(next.from, torch::kLong).to(device));
    prev = torch::tensor(next.tokens, torch::kLong).to(device);
    scores = torch::tensor(next.scores, torch::kDouble).to(device);
    if (shrink) {
      batch_sentences.erase(std::remove_if(batch_sentences.begin(), batch_sentences.end(), is_done),
                            batch_sentences.end());
      place();
    }
  }
  const auto all_attention =
      keep ? torch::stack(attention).to(torch::kCPU, torch::kFloat) : torch::Tensor();
  return collect_beams(st, all_attention, batch, options.n_best);
}

}  // namespace s2s::eval
