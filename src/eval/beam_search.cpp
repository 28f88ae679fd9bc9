// Beam search: each sentence keeps up to K alive prefixes; finished hypotheses are ranked by the
// GNMT length-normalized score (eval/search.h). Two rules decide what ends and what stays alive
// (SearchOptions::beam_rule); the rows on the device are the alive prefixes only, so a beam
// that shrinks costs less.

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

// A hypothesis that ended in </s> at step `step`, extending the prefix in slot `slot` of that
// step.
struct Finished {
  int64_t step, slot;
  double score, normalized;
};

// One extension of an alive prefix: device row `row` of this step appends `token`.
struct Candidate {
  double score;  // the prefix's summed log-probability plus the token's
  int64_t row, token;
};

// The bookkeeping of one beam search, on the CPU. Slot b*K + k of a step is alive prefix k of
// sentence b; a step's device rows hold some slots in `rows` (-1: a dead row, whose prefix
// ended or whose sentence is done, kept until the batch is compacted) and belong to sentence
// `owner`.
struct BeamState {
  BeamState(const batching::Batch& input, const SearchOptions& options)
      : batch(input.size()),
        beam(options.beam_size),
        n_best(options.n_best),
        alpha(options.length_penalty),
        prune(options.beam_prune),
        rule(options.beam_rule),
        limits(detail::max_lengths(input, options)),
        finished(static_cast<std::size_t>(input.size())),
        done(static_cast<std::size_t>(input.size()), false),
        rows(static_cast<std::size_t>(input.size())),
        owner(rows.size()),
        score(rows.size(), 0.0) {
    for (int64_t b = 0; b < batch; ++b) {  // step 0: one prefix (<s>) per sentence
      rows[static_cast<std::size_t>(b)] = b * beam;
      owner[static_cast<std::size_t>(b)] = b;
    }
  }

  int64_t longest() const { return *std::max_element(limits.begin(), limits.end()); }
  bool all_done() const {
    return std::all_of(done.begin(), done.end(), [](bool d) { return d; });
  }

  int64_t batch, beam, n_best;
  double alpha, prune;
  BeamRule rule;
  std::vector<int64_t> limits;                  // [B] max target length before </s>
  std::vector<std::vector<Finished>> finished;  // per sentence
  std::vector<bool> done;                       // per sentence
  std::vector<int64_t> rows, owner;             // per device row: slot (or -1) and sentence
  std::vector<double> score;                    // per device row: summed log-prob (-inf: dead)
  std::vector<std::vector<int64_t>> parents, tokens;  // per step, by slot of the next step
};

// The k-th best normalized score among finished hypotheses (they are fewer than k: -inf).
double kth_best(std::vector<Finished> finished, int64_t k) {
  if (static_cast<int64_t>(finished.size()) < k) return kNegInf;
  std::nth_element(
      finished.begin(), finished.begin() + (k - 1), finished.end(),
      [](const Finished& a, const Finished& b) { return a.normalized > b.normalized; });
  return finished[static_cast<std::size_t>(k - 1)].normalized;
}

// One step's most likely tokens per device row, on the CPU: logp [R, V] -> the `width` best
// log-probabilities [R, width] (sorted) and their tokens. No rule looks further: a prefix
// contributes at most K extensions, and its </s> counts (kFull) only among its own K best.
struct TopTokens {
  torch::Tensor logp, tokens;
  int64_t width;
};

TopTokens top_tokens(const torch::Tensor& logp, int64_t K) {
  const int64_t width = std::min(K + 1, logp.size(1));
  const auto [values, tokens] = logp.topk(width, /*dim=*/1);
  return {values.to(torch::kCPU).contiguous(), tokens.to(torch::kCPU).contiguous(), width};
}

// The extensions of sentence b's alive rows `rows`, best first; with `eos` false, </s> excluded.
std::vector<Candidate> candidates(const BeamState& st, const TopTokens& top,
                                  const std::vector<int64_t>& rows, int64_t per_row, bool eos) {
  std::vector<Candidate> out;
  const float* logp = top.logp.data_ptr<float>();
  const int64_t* tokens = top.tokens.data_ptr<int64_t>();
  for (const int64_t r : rows) {
    int64_t taken = 0;
    for (int64_t j = 0; j < top.width && taken < per_row; ++j) {
      const int64_t token = tokens[r * top.width + j];
      const double value = logp[r * top.width + j];
      if (value == kNegInf || (!eos && token == Vocab::kEos)) continue;
      out.push_back({st.score[static_cast<std::size_t>(r)] + value, r, token});
      ++taken;
    }
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const Candidate& a, const Candidate& b) { return a.score > b.score; });
  return out;
}

// kFull: every alive row's </s> extension ends as a finished hypothesis when </s> is among
// that row's own K most likely tokens; the K best other extensions stay alive.
//
// Why "among its own K best" and not "among the K best extensions of the whole beam" (fairseq,
// OpenNMT): there a short hypothesis whose </s> is outranked by longer prefixes is lost, and
// those can end far lower, so beam search scores below greedy search on flat distributions.
// Why not every </s>: ending would then compete at every step, and on a weak model an early
// </s> (the empty translation) wins the length-normalized ranking.
std::vector<Candidate> full_rule(BeamState& st, const TopTokens& top,
                                 const std::vector<int64_t>& rows, std::vector<Candidate>& ended) {
  const int64_t K = st.beam;
  const float* logp = top.logp.data_ptr<float>();
  const int64_t* tokens = top.tokens.data_ptr<int64_t>();
  for (const int64_t r : rows) {
    const int64_t kth = std::min(K, top.width) - 1;  // ties with the K-th best count
    for (int64_t j = 0; j < top.width; ++j) {
      const bool within = j <= kth || logp[r * top.width + j] >= logp[r * top.width + kth];
      if (tokens[r * top.width + j] == Vocab::kEos && within) {
        const double value = logp[r * top.width + j];
        ended.push_back({st.score[static_cast<std::size_t>(r)] + value, r, Vocab::kEos});
      }
    }
  }
  auto alive = candidates(st, top, rows, K, /*eos=*/false);
  if (static_cast<int64_t>(alive.size()) > K) alive.resize(static_cast<std::size_t>(K));
  return alive;
}

// kShrink (the beam search of RNNsearch, Nematus and Marian): a sentence with k alive prefixes
// takes the k best extensions, </s> among them; those ending in </s> are finished and the beam
// shrinks by as many, so the sentence is done once K hypotheses have ended.
std::vector<Candidate> shrink_rule(BeamState& st, const TopTokens& top,
                                   const std::vector<int64_t>& rows, int64_t b,
                                   std::vector<Candidate>& ended) {
  const auto k = st.beam - static_cast<int64_t>(st.finished[static_cast<std::size_t>(b)].size());
  auto best = candidates(st, top, rows, k, /*eos=*/true);
  if (static_cast<int64_t>(best.size()) > k) best.resize(static_cast<std::size_t>(k));
  std::vector<Candidate> alive;
  for (const auto& c : best) (c.token == Vocab::kEos ? ended : alive).push_back(c);
  return alive;
}

// Sentence b at `step`, its alive device rows `rows`: the rule's ended extensions become
// finished hypotheses, its alive ones go to `alive`, best first.
void advance_sentence(BeamState& st, int64_t b, const std::vector<int64_t>& rows, int64_t step,
                      const TopTokens& top, std::vector<Candidate>& alive) {
  std::vector<Candidate> ended;
  alive = st.rule == BeamRule::kShrink ? shrink_rule(st, top, rows, b, ended)
                                       : full_rule(st, top, rows, ended);
  if (st.prune > 0 && !alive.empty()) {  // relative threshold pruning (eval/search.h)
    const double floor = alive.front().score - st.prune;
    while (alive.back().score < floor) alive.pop_back();
  }
  auto& finished = st.finished[static_cast<std::size_t>(b)];
  for (const auto& e : ended) {
    finished.push_back({step, st.rows[static_cast<std::size_t>(e.row)], e.score,
                        e.score / length_penalty(step + 1, st.alpha)});
  }
  // Scores only fall as tokens are added, so an alive prefix with score s can at best reach
  // s / lp(limit + 1) (alpha >= 0, s <= 0): stop once that cannot beat the n_best-th finished
  // one, the last hypothesis returned.
  const int64_t limit = st.limits[static_cast<std::size_t>(b)];
  const double bound =
      alive.empty() ? kNegInf : alive.front().score / length_penalty(limit + 1, st.alpha);
  if (step >= limit || kth_best(finished, st.n_best) >= bound) {
    st.done[static_cast<std::size_t>(b)] = true;
    alive.clear();
  }
}

// Per sentence, the device rows that hold its alive prefixes.
std::vector<std::vector<int64_t>> live_rows(const BeamState& st) {
  std::vector<std::vector<int64_t>> out(static_cast<std::size_t>(st.batch));
  for (std::size_t i = 0; i < st.rows.size(); ++i) {
    if (st.rows[i] >= 0)
      out[static_cast<std::size_t>(st.owner[i])].push_back(static_cast<int64_t>(i));
  }
  return out;
}

// The next step's device rows: where each comes from (this step's row of its parent) and the
// token it appends; `compacted` when the rows were laid out anew (memory and limits follow).
struct NextRows {
  std::vector<int64_t> from, tokens;
  bool compacted = false;
};

// Each sentence's alive extensions take the rows its sentence held, the rest of them dead,
// unless they do not fit (after step 0) or an eighth of the rows would be dead: then the rows
// are the alive prefixes only (a copy of the memory, so not after every ended prefix).
NextRows next_rows(BeamState& st, const std::vector<std::vector<Candidate>>& alive) {
  const int64_t K = st.beam;
  std::vector<int64_t> held(static_cast<std::size_t>(st.batch), 0), placed(held.size(), 0);
  for (const int64_t b : st.owner) ++held[static_cast<std::size_t>(b)];
  std::size_t live = 0;
  bool fits = true;
  for (std::size_t b = 0; b < alive.size(); ++b) {
    live += alive[b].size();
    fits = fits && static_cast<int64_t>(alive[b].size()) <= held[b];
  }
  NextRows next;
  next.compacted = !fits || 8 * (st.rows.size() - live) >= st.rows.size();
  std::vector<int64_t> parents(static_cast<std::size_t>(st.batch * K), 0);
  std::vector<int64_t> tokens(parents.size(), Vocab::kPad);
  std::vector<int64_t> rows, owner;
  std::vector<double> score;
  const auto put = [&](int64_t b, int64_t from) {
    auto& k = placed[static_cast<std::size_t>(b)];
    const auto& mine = alive[static_cast<std::size_t>(b)];
    if (k >= static_cast<int64_t>(mine.size())) {  // a dead row
      rows.push_back(-1), owner.push_back(b), score.push_back(kNegInf);
      next.from.push_back(from), next.tokens.push_back(Vocab::kPad);
      return;
    }
    const auto& c = mine[static_cast<std::size_t>(k)];
    const auto slot = static_cast<std::size_t>(b * K + k++);
    parents[slot] = st.rows[static_cast<std::size_t>(c.row)];
    tokens[slot] = c.token;
    rows.push_back(static_cast<int64_t>(slot)), owner.push_back(b), score.push_back(c.score);
    next.from.push_back(c.row), next.tokens.push_back(c.token);
  };
  if (next.compacted) {
    for (int64_t b = 0; b < st.batch; ++b) {
      for (std::size_t k = 0; k < alive[static_cast<std::size_t>(b)].size(); ++k) put(b, 0);
    }
  } else {
    for (std::size_t i = 0; i < st.rows.size(); ++i) put(st.owner[i], static_cast<int64_t>(i));
  }
  st.rows = std::move(rows), st.owner = std::move(owner), st.score = std::move(score);
  st.parents.push_back(std::move(parents));
  st.tokens.push_back(std::move(tokens));
  return next;
}

// This step's attention [R, m, S] in the layout of slots [B*K, m, S], zero where no prefix is.
torch::Tensor slot_attention(const torch::Tensor& attention, const BeamState& st) {
  std::vector<int64_t> rows, slots;
  for (std::size_t i = 0; i < st.rows.size(); ++i) {
    if (st.rows[i] >= 0) rows.push_back(static_cast<int64_t>(i)), slots.push_back(st.rows[i]);
  }
  const auto device = attention.device();
  return detail::scatter_rows(
      attention.index_select(0, torch::tensor(rows, torch::kLong).to(device)),
      torch::tensor(slots, torch::kLong).to(device), st.batch * st.beam);
}

// Follows the backpointers from (step, slot) to step 0: the tokens and, with `attention`
// [steps, B*K, m, S] on the CPU, the attention rows of the hypothesis.
Hypothesis backtrack(const BeamState& st, const Finished& f, const torch::Tensor& attention,
                     int64_t src_len) {
  Hypothesis h;
  h.score = f.score;
  h.normalized_score = f.normalized;
  std::vector<int64_t> slots(static_cast<std::size_t>(f.step + 1));
  slots[static_cast<std::size_t>(f.step)] = f.slot;
  h.tokens.resize(static_cast<std::size_t>(f.step));
  for (int64_t s = f.step; s > 0; --s) {
    const auto prev = static_cast<std::size_t>(s - 1);
    const auto slot = static_cast<std::size_t>(slots[static_cast<std::size_t>(s)]);
    h.tokens[prev] = st.tokens[prev][slot];
    slots[prev] = st.parents[prev][slot];
  }
  if (attention.defined()) {
    const auto steps = torch::arange(f.step + 1, torch::kLong);
    h.attention = attention.index({steps, torch::tensor(slots, torch::kLong)})
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

torch::Tensor long_tensor(const std::vector<int64_t>& v, torch::Device device) {
  return torch::tensor(v, torch::kLong).to(device);
}

// Each device row's length limit, from its sentence's.
torch::Tensor row_limits(const BeamState& st, torch::Device device) {
  std::vector<int64_t> limits;
  for (const int64_t b : st.owner) limits.push_back(st.limits[static_cast<std::size_t>(b)]);
  return long_tensor(limits, device);
}

}  // namespace

std::vector<std::vector<Hypothesis>> beam_search(const Ensemble& models,
                                                 const batching::Batch& batch,
                                                 const SearchOptions& options) {
  if (batch.size() == 0) return {};
  torch::NoGradGuard no_grad;
  const EnsembleEvalMode eval_mode(models.members());
  const auto device = batch.src.device();
  BeamState st(batch, options);
  const bool keep = detail::keeps_attention(models, options);
  const auto encoded = models.encode(batch.src, batch.src_lengths);
  auto memory = encoded.memory;  // one row per sentence at step 0, as the state
  auto state = encoded.state;
  auto limits = row_limits(st, device);
  auto prev = torch::full({st.batch}, Vocab::kBos, torch::dtype(torch::kLong).device(device));
  std::vector<torch::Tensor> attention;  // per step [B*K, m, S]
  for (int64_t t = 0; t <= st.longest(); ++t) {
    const auto out = models.step(prev, state, memory);
    detail::count_rows(prev.size(0));
    const auto& logp = out.log_probs;  // [R, V]
    detail::mask_log_probs_(logp, limits.le(t));
    if (keep) attention.push_back(slot_attention(out.attention, st));
    RECORD_USER_SCOPE("s2s::search");  // experiments/breakdown.h: to the end of the step
    const auto top = top_tokens(logp, st.beam);
    const auto live = live_rows(st);
    std::vector<std::vector<Candidate>> alive(static_cast<std::size_t>(st.batch));
    for (int64_t b = 0; b < st.batch; ++b) {
      const auto i = static_cast<std::size_t>(b);
      if (!st.done[i]) advance_sentence(st, b, live[i], t, top, alive[i]);
    }
    if (st.all_done()) break;
    const auto next = next_rows(st, alive);
    state = state.index_select(long_tensor(next.from, device));
    prev = long_tensor(next.tokens, device);
    if (next.compacted) {
      memory = encoded.memory.index_select(long_tensor(st.owner, device));
      limits = row_limits(st, device);
    }
  }
  const auto all_attention =
      keep ? torch::stack(attention).to(torch::kCPU, torch::kFloat) : torch::Tensor();
  return collect_beams(st, all_attention, batch);
}

}  // namespace s2s::eval
