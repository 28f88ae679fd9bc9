// Beam search: the K best prefixes per sentence stay alive; finished hypotheses are ranked by
// the GNMT length-normalized score (eval/search.h).

#include <ATen/record_function.h>

#include <algorithm>
#include <numeric>

#include "data/vocab.h"
#include "eval/search.h"
#include "eval/search_steps.h"

namespace s2s::eval {
namespace {

using data::Vocab;
using detail::kNegInf;

// A hypothesis that ended in </s> at step `step`, coming from alive row `row` of that step.
struct Finished {
  int64_t step, row;
  double score, normalized;
};

// The bookkeeping of one beam search, on the CPU. Slot b*K + k of a step is beam k of sentence
// b; the batch on the device holds only the sentences in `sentences`, K rows each.
struct BeamState {
  BeamState(const batching::Batch& input, const SearchOptions& options)
      : batch(input.size()),
        beam(options.beam_size),
        n_best(options.n_best),
        alpha(options.length_penalty),
        limits(detail::max_lengths(input, options)),
        finished(static_cast<std::size_t>(input.size())),
        done(static_cast<std::size_t>(input.size()), false),
        sentences(static_cast<std::size_t>(input.size())),
        parent(static_cast<std::size_t>(input.size() * options.beam_size)),
        token(parent.size()),
        score(parent.size()) {
    std::iota(sentences.begin(), sentences.end(), 0);
  }

  int64_t longest() const { return *std::max_element(limits.begin(), limits.end()); }
  bool is_done(int64_t b) const { return done[static_cast<std::size_t>(b)]; }
  int64_t ended() const {
    return std::count_if(sentences.begin(), sentences.end(), [&](int64_t b) { return is_done(b); });
  }
  void drop_done() {
    sentences.erase(
        std::remove_if(sentences.begin(), sentences.end(), [&](int64_t b) { return is_done(b); }),
        sentences.end());
  }

  int64_t batch, beam, n_best;
  double alpha;
  std::vector<int64_t> limits;                  // [B] max target length before </s>
  std::vector<std::vector<Finished>> finished;  // per sentence
  std::vector<bool> done;                       // per sentence
  std::vector<int64_t> sentences;               // the sentences still in the batch, in order
  // The next step's alive rows, by slot: the row of this step each extends, the token it
  // appends and its summed score.
  std::vector<int64_t> parent, token;
  std::vector<double> score;
  std::vector<std::vector<int64_t>> parents, tokens;  // per step: parent and token of each slot
};

// The k-th best normalized score among finished hypotheses (they are fewer than k: -inf).
double kth_best(std::vector<Finished> finished, int64_t k) {
  if (static_cast<int64_t>(finished.size()) < k) return kNegInf;
  std::nth_element(
      finished.begin(), finished.begin() + (k - 1), finished.end(),
      [](const Finished& a, const Finished& b) { return a.normalized > b.normalized; });
  return finished[static_cast<std::size_t>(k - 1)].normalized;
}

// One step's candidates for the n sentences in the batch, on the CPU.
struct StepCandidates {
  // [n*K] summed score of the </s> extension of each alive row; -inf where </s> is not among
  // that row's K most likely next tokens.
  torch::Tensor eos;
  torch::Tensor values;  // [n, K] the K best other extensions per sentence, sorted
  torch::Tensor beams;   // [n, K] the alive row (0..K-1 within the sentence) each extends
  torch::Tensor tokens;  // [n, K] the token each appends
};

// From logp [n*K, V] (float) and the alive rows' scores [n*K] (double). A row can only
// contribute its K best non-</s> extensions and its </s> when that is among its K best: all
// within its K + 1 most likely tokens. So the V-wide work is one float top-k per row, and the
// summed scores are formed in double for those few candidates only.
StepCandidates step_candidates(const torch::Tensor& logp, const torch::Tensor& scores, int64_t K) {
  const int64_t n = logp.size(0) / K;
  const int64_t width = std::min(K + 1, logp.size(1));
  const auto [top, top_tokens] = logp.topk(width, /*dim=*/1);  // [n*K, width], sorted
  const auto kth = top.select(1, std::min(K, width) - 1);      // the row's K-th best
  const auto eos_logp = logp.select(1, Vocab::kEos);
  StepCandidates c;
  c.eos = torch::where(eos_logp >= kth, scores + eos_logp.to(torch::kDouble),
                       torch::full_like(scores, kNegInf))
              .to(torch::kCPU)
              .contiguous();
  const auto candidates = (scores.unsqueeze(1) + top.to(torch::kDouble))
                              .masked_fill(top_tokens.eq(Vocab::kEos), kNegInf)  // never alive
                              .view({n, K * width});
  const auto [values, chosen] = candidates.topk(K, /*dim=*/1);  // [n, K], sorted
  c.values = values.to(torch::kCPU).contiguous();
  c.beams = chosen.div(width, "floor").to(torch::kCPU).contiguous();
  c.tokens = top_tokens.view({n, K * width}).gather(1, chosen).to(torch::kCPU).contiguous();
  return c;
}

// Sentence b, the i-th in the batch, at `step`: its </s> extensions are set aside as finished
// hypotheses; its K best other extensions become slots b*K .. b*K+K-1.
//
// Why "among its own K best" and not "among the K best extensions of the whole beam" (fairseq,
// OpenNMT): there a short hypothesis whose </s> is outranked by longer prefixes is lost, and
// those can end far lower, so beam search scores below greedy search on flat distributions.
// Why not every </s>: ending would then compete at every step, and on a weak model an early
// </s> (the empty translation) wins the length-normalized ranking. With K = 1 the rule is
// exactly greedy search.
void advance_sentence(BeamState& st, int64_t b, int64_t i, int64_t step, const StepCandidates& c) {
  const int64_t K = st.beam;
  const double* eos = c.eos.data_ptr<double>() + i * K;
  const double* values = c.values.data_ptr<double>() + i * K;
  const int64_t* beams = c.beams.data_ptr<int64_t>() + i * K;
  const int64_t* tokens = c.tokens.data_ptr<int64_t>() + i * K;
  auto& finished = st.finished[static_cast<std::size_t>(b)];
  for (int64_t k = 0; k < K; ++k) {
    if (eos[k] > kNegInf) {
      finished.push_back({step, b * K + k, eos[k], eos[k] / length_penalty(step + 1, st.alpha)});
    }
  }
  for (int64_t k = 0; k < K; ++k) {  // -inf candidates (tiny vocabularies, limit) stay dead
    const auto slot = static_cast<std::size_t>(b * K + k);
    st.parent[slot] = b * K + beams[k];
    st.token[slot] = tokens[k];
    st.score[slot] = values[k];
  }
  // Scores only fall as tokens are added, so an alive prefix with score s can at best reach
  // s / lp(limit + 1) (alpha >= 0, s <= 0): stop once that cannot beat the n_best-th finished
  // one, the last hypothesis returned.
  const int64_t limit = st.limits[static_cast<std::size_t>(b)];
  const double bound = values[0] / length_penalty(limit + 1, st.alpha);
  if (step >= limit || kth_best(finished, st.n_best) >= bound) {
    st.done[static_cast<std::size_t>(b)] = true;
  }
}

// The slots of a sentence that is done, until the batch shrinks: dead, at -inf score, so nothing
// they produce is ever chosen.
void retire_sentence(BeamState& st, int64_t b) {
  for (int64_t k = 0; k < st.beam; ++k) {
    const auto slot = static_cast<std::size_t>(b * st.beam + k);
    st.parent[slot] = b * st.beam + k;
    st.token[slot] = Vocab::kPad;
    st.score[slot] = kNegInf;
  }
}

void select_beams(BeamState& st, const StepCandidates& c, int64_t step) {
  for (std::size_t i = 0; i < st.sentences.size(); ++i) {
    const int64_t b = st.sentences[i];
    if (st.is_done(b)) {
      retire_sentence(st, b);
    } else {
      advance_sentence(st, b, static_cast<int64_t>(i), step, c);
    }
  }
  st.parents.push_back(st.parent);
  st.tokens.push_back(st.token);
}

// Rows of the next step for the sentences in the batch (without the done ones when
// `drop_done`): where each comes from in this step's batch (i*K + beam), its last token and its
// score.
struct NextRows {
  std::vector<int64_t> from, tokens;
  std::vector<double> scores;
};

NextRows next_rows(const BeamState& st, bool drop_done) {
  const int64_t K = st.beam;
  NextRows r;
  for (std::size_t i = 0; i < st.sentences.size(); ++i) {
    const int64_t b = st.sentences[i];
    if (drop_done && st.is_done(b)) continue;
    for (int64_t k = 0; k < K; ++k) {
      const auto slot = static_cast<std::size_t>(b * K + k);
      r.from.push_back(static_cast<int64_t>(i) * K + st.parent[slot] - b * K);
      r.tokens.push_back(st.token[slot]);
      r.scores.push_back(st.score[slot]);
    }
  }
  return r;
}

// The device side of the sentences in the batch: their rows' slots b*K + k, length limits and
// memory (a sentence's K rows share its memory).
struct BeamRows {
  torch::Tensor slots, limits;  // [n*K]
  EnsembleMemory memory;
};

BeamRows place(const BeamState& st, const EnsembleEncoded& encoded, torch::Device device) {
  const int64_t K = st.beam;
  const auto sentences = torch::tensor(st.sentences, torch::kLong).to(device);
  const auto beams = torch::arange(K, torch::TensorOptions().dtype(torch::kLong).device(device));
  BeamRows r;
  r.slots = (sentences.unsqueeze(1) * K + beams).view({-1});
  r.limits = torch::tensor(st.limits, torch::kLong).to(device).index_select(0, sentences);
  r.limits = r.limits.repeat_interleave(K);
  r.memory = encoded.memory.index_select(sentences.repeat_interleave(K));
  return r;
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
                                                   const batching::Batch& batch) {
  const auto src_lengths = batch.src_lengths.to(torch::kCPU);
  std::vector<std::vector<Hypothesis>> out(static_cast<std::size_t>(st.batch));
  for (int64_t b = 0; b < st.batch; ++b) {
    auto finished = st.finished[static_cast<std::size_t>(b)];
    std::stable_sort(finished.begin(), finished.end(), [](const Finished& x, const Finished& y) {
      return x.normalized > y.normalized;
    });
    const auto n = std::min<std::size_t>(finished.size(), static_cast<std::size_t>(st.n_best));
    for (std::size_t i = 0; i < n; ++i) {
      out[static_cast<std::size_t>(b)].push_back(
          backtrack(st, finished[i], attention, src_lengths[b].item<int64_t>()));
    }
  }
  return out;
}

}  // namespace

// Once an eighth of the sentences in the batch are done they leave it (state and memory are
// index-selected; not after every single one, as that is a copy); until then a done sentence's
// rows stay, dead (retire_sentence).
std::vector<std::vector<Hypothesis>> beam_search(const Ensemble& models,
                                                 const batching::Batch& batch,
                                                 const SearchOptions& options) {
  if (batch.size() == 0) return {};
  torch::NoGradGuard no_grad;
  const EnsembleEvalMode eval_mode(models.members());
  const auto device = batch.src.device();
  BeamState st(batch, options);
  const int64_t K = st.beam, rows = st.batch * K;
  const detail::StepMasks masks(models.vocab_size(), device);
  const bool keep = detail::keeps_attention(models, options);
  const auto encoded = models.encode(batch.src, batch.src_lengths);
  auto placed = place(st, encoded, device);
  auto state = encoded.state.index_select(placed.slots.div(K, "floor"));
  // Only beam 0 is alive at first; the others would duplicate it.
  auto scores = torch::full({rows}, kNegInf, torch::dtype(torch::kDouble).device(device));
  scores.view({st.batch, K}).select(1, 0).fill_(0.0);
  auto prev = torch::full({rows}, Vocab::kBos, torch::dtype(torch::kLong).device(device));
  std::vector<torch::Tensor> attention;  // per step [B*K, m, S]
  for (int64_t t = 0; t <= st.longest(); ++t) {
    const auto out = models.step(prev, state, placed.memory);
    const auto logp = detail::masked_log_probs(out.log_probs, masks, placed.limits.le(t));
    if (keep) attention.push_back(detail::scatter_rows(out.attention, placed.slots, rows));
    RECORD_USER_SCOPE("s2s::search");  // experiments/breakdown.h: to the end of the step
    select_beams(st, step_candidates(logp, scores, K), t);
    const auto n = static_cast<int64_t>(st.sentences.size()), ended = st.ended();
    if (ended == n) break;
    const bool shrink = 8 * ended >= n;
    const auto next = next_rows(st, shrink);
    state = state.index_select(torch::tensor(next.from, torch::kLong).to(device));
    prev = torch::tensor(next.tokens, torch::kLong).to(device);
    scores = torch::tensor(next.scores, torch::kDouble).to(device);
    if (shrink) {
      st.drop_done();
      placed = place(st, encoded, device);
    }
  }
  const auto all_attention =
      keep ? torch::stack(attention).to(torch::kCPU, torch::kFloat) : torch::Tensor();
  return collect_beams(st, all_attention, batch);
}

}  // namespace s2s::eval
