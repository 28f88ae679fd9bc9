#pragma once
// Attention as word alignment: gold alignments in Pharaoh format, the alignment error rate
// (AER, Och and Ney 2003) of attention against them, and attention entropy.
//
// Predicted alignment of a sentence: each target token t is linked to argmax_i a_{t,i}, the
// source position it attends to most (weights averaged over heads). Two positions are left out
// because the gold never links them: the </s> target step (the last row) and the source </s>
// (the last column); the argmax is taken over real source tokens only.
//
// AER = 1 - (|A ∩ S| + |A ∩ P|) / (|A| + |S|), A predicted, S sure and P possible gold links.
// The gold here is sure-only (S = P = gold), so AER = 1 - 2 |A ∩ G| / (|A| + |G|). Corpus AER
// sums the counts over sentences before dividing.
//
// Shapes: T target tokens, S source tokens (each without </s>), m heads;
// attention [T + 1, m, S + 1] as search and teacher forcing return it.

#include <torch/torch.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace s2s::eval {

// One sentence's links (source index i, target index j), 0-based.
using Alignment = std::vector<std::pair<int64_t, int64_t>>;

// Pharaoh format: one line per sentence, whitespace-separated "i-j" links (0-based source and
// target positions); an empty line is a sentence without links. A malformed link throws
// InputError "PATH:LINE: ...".
std::vector<Alignment> read_alignments(const std::string& path);
// Parses one line; `where` ("PATH:LINE") prefixes errors.
Alignment parse_alignment_line(const std::string& line, const std::string& where);

// Throws InputError prefixed with `where` if a link lies outside a sentence with
// `src_len` source and `tgt_len` target tokens.
void check_alignment(const Alignment& gold, int64_t src_len, int64_t tgt_len,
                     const std::string& where);

// attention [T + 1, m, S + 1] -> T links (argmax_i, t), sorted by target position.
Alignment predicted_alignment(const torch::Tensor& attention);

// Counts that corpus AER sums over sentences.
struct AerCounts {
  int64_t predicted = 0;  // |A|
  int64_t gold = 0;       // |G|
  int64_t matched = 0;    // |A ∩ G|
  AerCounts& operator+=(const AerCounts& other);
  // 1 - 2 |A ∩ G| / (|A| + |G|); 0 when both sets are empty.
  double aer() const;
};

// Duplicate links count once on either side.
AerCounts aer_counts(const Alignment& predicted, const Alignment& gold);

// Sums of attention entropy H(a_t) = -sum_i a_{t,i} ln a_{t,i} (nats), per target step, and
// the count of exact zeros among the weights (sparse normalizers: model/normalizer.h).
struct EntropyStats {
  double sum = 0.0;  // entropy summed over target steps (each the mean over heads)
  int64_t steps = 0;
  int64_t weights = 0, zeros = 0;  // every weight a_{t,i} of every head, and those exactly 0
  EntropyStats& operator+=(const EntropyStats& other);
  double mean() const;           // 0 without steps
  double zero_fraction() const;  // zeros / weights; 0 without weights
};

// attention [T', m, S'] -> entropy of every row (all target steps, </s> included, over all
// source positions: the distributions the model actually used), averaged over heads.
EntropyStats attention_entropy(const torch::Tensor& attention);

}  // namespace s2s::eval
