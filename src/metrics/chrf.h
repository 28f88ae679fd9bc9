#pragma once
// Corpus chrF (Popović, 2015) exactly as sacreBLEU 2.6.0's CHRF computes it with its defaults
// (sacrebleu/metrics/chrf.py): character n-grams up to order 6, no word n-grams (not chrF++),
// beta = 2, whitespace removed before counting, effective-order averaging (eps_smoothing off).
//
//   each segment: lower-case (optional), drop all whitespace, count character n-grams
//   (n = 1..6) of hypothesis and reference and their clipped matches; a hypothesis n-gram
//   order counts only if the reference has n-grams of that order;
//   several references: each segment keeps the statistics of the reference with the best
//   segment-level chrF (the first on a tie);
//   corpus: sum those statistics, then for the orders where both sides have n-grams average
//   precision P = match / hyp and recall R = match / ref;
//   chrF = 100 * (1 + beta^2) P R / (beta^2 P + R).

#include <cstdint>
#include <string>
#include <vector>

namespace s2s::metrics {

struct ChrfOptions {
  int char_order = 6;      // highest character n-gram order
  int beta = 2;            // recall is beta times as important as precision
  bool lowercase = false;  // lower-case both sides first (Python's str.lower)
};

// Per order n (index n - 1): hypothesis n-grams, reference n-grams, clipped matches.
struct ChrfOrderStats {
  std::int64_t hyp = 0;
  std::int64_t ref = 0;
  std::int64_t match = 0;
};

struct ChrfResult {
  double score = 0.0;                 // 0..100
  std::vector<ChrfOrderStats> stats;  // corpus sums, [n - 1]
  ChrfOptions options;                // what produced it, for the name and signature
  int nrefs = 1;                      // references per segment

  // "chrF2" for beta 2.
  std::string name() const;
  // sacreBLEU's signature, e.g. "nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.6.0".
  std::string signature() const;
  // sacreBLEU's text line, e.g. "chrF2 = 54.59".
  std::string format() const;
};

// chrF from already summed statistics (sacreBLEU's CHRF._compute_f_score).
double compute_chrf(const std::vector<ChrfOrderStats>& stats, int beta);

// Corpus chrF of UTF-8 hypotheses against one reference each. Throws s2s::ConfigError for a
// char_order below 1 or a negative beta, s2s::InputError if the counts differ, a reference is
// empty, or a line is not valid UTF-8.
ChrfResult corpus_chrf(const std::vector<std::string>& hyps, const std::vector<std::string>& refs,
                       const ChrfOptions& options = {});
// Against several references per segment: `references[r]` holds the r-th reference of each.
ChrfResult corpus_chrf_multi(const std::vector<std::string>& hyps,
                             const std::vector<std::vector<std::string>>& references,
                             const ChrfOptions& options = {});

}  // namespace s2s::metrics
