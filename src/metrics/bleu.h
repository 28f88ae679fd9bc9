#pragma once
// Corpus BLEU (Papineni et al., 2002) exactly as sacreBLEU 2.6.0 computes it with one or more
// references per segment (sacrebleu/metrics/bleu.py), so that our numbers can be quoted next to
// published ones with the same signature:
//
//   each segment: lower-case (optional), rstrip(), tokenize, split on whitespace;
//   p_n  = clipped matching n-grams / hypothesis n-grams, summed over the corpus (n = 1..4),
//          a hypothesis n-gram clipped by its largest count in any one reference;
//   ref_len: per segment, the reference length closest to the hypothesis's (the shorter on a
//          tie), summed;
//   BP   = 1 if sys_len >= ref_len, else exp(1 - ref_len / sys_len) (0 if sys_len = 0);
//   BLEU = BP * exp(sum_n log(p_n) / 4), with log(0) taken as -9999999999.
//
// Smoothing (Chen and Cherry, 2014) fills in zero matches: `exp` (sacreBLEU's default, NIST's
// method 3) uses 1 / (2^k * total) for the k-th order without matches, `floor` uses
// value / total, `add-k` adds `value` to the counts and totals of orders 2 and up, `none` leaves
// 0. With no match at all, BLEU is 0 (sacreBLEU's early exit); an order without hypothesis
// n-grams (after add-k) leaves that precision and the higher ones at 0, so BLEU is 0 too.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace s2s::metrics {

// The sacreBLEU release whose numbers and signatures we reproduce.
inline constexpr char kSacreBleuVersion[] = "2.6.0";

enum class BleuSmooth { kExp, kFloor, kAddK, kNone };

// "exp", "floor", "add-k" or "none"; anything else throws s2s::ConfigError listing them.
BleuSmooth parse_bleu_smooth(const std::string& name);
std::string to_string(BleuSmooth smooth);
const std::vector<std::string>& bleu_smooth_names();

struct BleuOptions {
  std::string tokenize = "13a";          // sacreBLEU tokenizer: 13a, intl, char or none
  bool lowercase = false;                // lower-case both sides first (Python's str.lower)
  BleuSmooth smooth = BleuSmooth::kExp;  // how zero n-gram matches are smoothed
  std::optional<double> smooth_value;    // floor: 0.1, add-k: 1 when unset (sacreBLEU's)
  int max_order = 4;                     // highest n-gram order
};

// Sufficient statistics: corpus BLEU depends on the corpus only through these sums.
struct BleuStats {
  std::int64_t sys_len = 0;          // hypothesis tokens
  std::int64_t ref_len = 0;          // reference tokens
  std::vector<std::int64_t> counts;  // [n - 1]: clipped matching n-grams
  std::vector<std::int64_t> totals;  // [n - 1]: hypothesis n-grams
};

struct BleuResult {
  double score = 0.0;                // 0..100
  std::vector<std::int64_t> counts;  // [n - 1]: clipped matching n-grams (before add-k)
  std::vector<std::int64_t> totals;  // [n - 1]: hypothesis n-grams (before add-k)
  std::vector<double> precisions;    // [n - 1]: smoothed precision, in percent
  double bp = 0.0;                   // brevity penalty
  std::int64_t sys_len = 0;
  std::int64_t ref_len = 0;
  BleuOptions options;  // what produced it, for the signature
  int nrefs = 1;        // references per segment

  // sys_len / ref_len, 0 when there is no reference token.
  double ratio() const;
  // sacreBLEU's signature, e.g. "nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0".
  std::string signature() const;
  // sacreBLEU's text line, e.g. "BLEU = 34.21 65.3/41.2/28.0/19.5 (BP = 0.977 ratio = 0.977
  // hyp_len = 12345 ref_len = 12634)".
  std::string format() const;
};

// Throws s2s::ConfigError for an unknown tokenizer or smoothing, or a max order below 1.
void validate_bleu_options(const BleuOptions& options);

// BLEU from already summed statistics (sacreBLEU's BLEU.compute_bleu).
BleuResult compute_bleu(const BleuStats& stats, const BleuOptions& options);

// Corpus BLEU of UTF-8 hypotheses against one reference each. Throws s2s::InputError if the
// counts differ, a reference is empty, or a line is not valid UTF-8.
BleuResult corpus_bleu(const std::vector<std::string>& hyps, const std::vector<std::string>& refs,
                       const BleuOptions& options = {});
// Against several references per segment: `references[r]` holds the r-th reference of each.
BleuResult corpus_bleu_multi(const std::vector<std::string>& hyps,
                             const std::vector<std::vector<std::string>>& references,
                             const BleuOptions& options = {});

}  // namespace s2s::metrics
