#pragma once
// Decoding: from a batch of source sentences to target hypotheses, behind one entry point
// (search) that takes an options struct and dispatches on the beam size.
//
//   greedy (beam_size == 1): y_t = argmax_y log p(y | y_<t, x), all rows of the batch at once
//     (rows that have ended leave the batch).
//   beam search (beam_size K > 1): up to K prefixes per sentence, by summed log-probability,
//     stay alive. beam_rule kShrink (RNNsearch, Nematus, Marian): a sentence with k alive
//     prefixes keeps the k best extensions, </s> among them; those ending in </s> are finished
//     and the beam shrinks by as many. kFull: K prefixes stay alive, and a prefix's </s>
//     extension is finished when </s> is among its own K most likely tokens. Finished
//     hypotheses are ranked by the GNMT length-normalized score
//     score / lp(Y),  lp(Y) = ((5 + |Y|) / 6)^alpha  (Wu et al. 2016, eq. 14), |Y| counting
//     </s>. A sentence stops when no prefix is alive, when it has n_best finished hypotheses
//     that no alive prefix can beat, or at its length limit. Only alive prefixes are rows of
//     the batch (ended ones leave it), so a shrinking beam costs less.
//     beam_prune d > 0 (relative threshold pruning, Freitag & Al-Onaizan 2017, in log space):
//     after each step, alive prefixes whose score is more than d below the best alive prefix
//     of their sentence are dropped. A model sure of its next word then decodes few rows, but
//     the search is no longer the K-best one; 0 (the default) prunes nothing.
//
// Length limit of batch row i: max_len_i = ceil(max_len_ratio * src_len_i) + max_len_extra
// target tokens before </s>, src_len_i being batch.src_lengths[i] (the tokens the encoder sees,
// </s> included). At step max_len_i only </s> may be chosen (as fairseq does), so every
// hypothesis is a complete sentence, its score includes log p(</s>), and its attention has a
// row for </s>. <pad> and <s> are never chosen. Scores are the model's own log-probabilities
// (masking happens after the softmax), so they equal teacher-forced scoring of the hypothesis.
//
// Shapes: B batch, K beam, V target vocabulary, S longest source, m attention heads.

#include <torch/torch.h>

#include <cstdint>
#include <vector>

#include "batching/batch.h"
#include "config/choices.h"
#include "eval/ensemble.h"
#include "model/seq2seq.h"

namespace s2s::eval {

using config::BeamRule;

struct SearchOptions {
  int64_t beam_size = 1;        // 1 = greedy search
  double length_penalty = 0.6;  // GNMT alpha (>= 0); 0 ranks by the plain sum of log-probs
  BeamRule beam_rule = BeamRule::kShrink;  // what ends a hypothesis (config/choices.h)
  double beam_prune = 0.0;     // > 0: drop prefixes this many nats below their sentence's best
  int64_t n_best = 1;          // hypotheses returned per sentence, 1 <= n_best <= beam_size
  double max_len_ratio = 2.0;  // max target length = ceil(ratio * src_len) + max_len_extra
  int64_t max_len_extra = 10;  // see max_len_ratio
  bool keep_attention = true;  // return each hypothesis' attention weights
};

struct Hypothesis {
  std::vector<int64_t> tokens;    // target ids, without <s> and without </s>
  double score = 0.0;             // sum of log-probs of tokens and </s>
  double normalized_score = 0.0;  // score / lp(tokens + 1)
  // [tokens + 1 (the </s> step), m, S_i] on the CPU, S_i = that source's real length (with
  // </s>); row t is the attention that produced token t. Undefined if the model has no
  // attention or keep_attention is false.
  torch::Tensor attention;
};

// Throws ConfigError naming the option for values out of range (before any tensor work); the
// same rules as the config's evaluation section. search() checks its options with it.
void validate_search_options(const SearchOptions& options);

// The decoder rows all searches of this process have stepped so far (a row is one prefix at one
// step): what a search costs, independent of the machine (`s2s bench` reports it per sentence).
int64_t decoded_rows();

// GNMT length penalty ((5 + length) / 6)^alpha.
double length_penalty(int64_t length, double alpha);

// The most tokens (</s> included) a hypothesis of a source of `src_len` tokens may have:
// ceil(max_len_ratio * src_len) + max_len_extra.
int64_t max_target_length(const SearchOptions& options, int64_t src_len);

// Per batch row, min(n_best, found) hypotheses, best (highest normalized score) first.
// Runs without autograd and with the models in eval mode (their previous modes are restored).
// `models`: one model, or an ensemble whose members' step distributions are combined
// (eval/ensemble.h).
std::vector<std::vector<Hypothesis>> search(const Ensemble& models, const batching::Batch& batch,
                                            const SearchOptions& options);

// The two strategies (eval/greedy_search.cpp, eval/beam_search.cpp), exposed for tests;
// search() checks the options and picks one by options.beam_size. Greedy returns one
// hypothesis per row and ignores beam_size and n_best.
std::vector<std::vector<Hypothesis>> greedy_search(const Ensemble& models,
                                                   const batching::Batch& batch,
                                                   const SearchOptions& options);
std::vector<std::vector<Hypothesis>> beam_search(const Ensemble& models,
                                                 const batching::Batch& batch,
                                                 const SearchOptions& options);

}  // namespace s2s::eval
