#include "metrics/chrf.h"

#include <algorithm>
#include <cstdio>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "metrics/bleu.h"
#include "metrics/metric_input.h"
#include "util/error.h"
#include "util/unicode.h"

namespace s2s::metrics {
namespace {

// ''.join(s.split()) after the optional str.lower().
std::u32string preprocess(std::u32string sentence, bool lowercase) {
  if (lowercase) sentence = util::to_lower(sentence);
  sentence.erase(std::remove_if(sentence.begin(), sentence.end(), util::is_space), sentence.end());
  return sentence;
}

using CharNgramCounts = std::unordered_map<std::u32string_view, std::int64_t>;

CharNgramCounts count_char_ngrams(std::u32string_view s, std::size_t n) {
  CharNgramCounts counts;
  for (std::size_t i = 0; i + n <= s.size(); ++i) ++counts[s.substr(i, n)];
  return counts;
}

// One segment pair's statistics (sacreBLEU's CHRF._get_match_statistics, per order).
std::vector<ChrfOrderStats> segment_stats(std::u32string_view hyp, std::u32string_view ref,
                                          std::size_t orders) {
  std::vector<ChrfOrderStats> stats(orders);
  for (std::size_t n = 1; n <= orders; ++n) {
    const CharNgramCounts hyp_ngrams = count_char_ngrams(hyp, n);
    const CharNgramCounts ref_ngrams = count_char_ngrams(ref, n);
    std::int64_t hyp_count = 0;
    std::int64_t ref_count = 0;
    std::int64_t match_count = 0;
    for (const auto& [ngram, count] : hyp_ngrams) {
      hyp_count += count;
      const auto found = ref_ngrams.find(ngram);
      if (found != ref_ngrams.end()) match_count += std::min(count, found->second);
    }
    for (const auto& entry : ref_ngrams) ref_count += entry.second;
    // Hypothesis n-grams count only where the reference has n-grams of this order.
    stats[n - 1] = {ref_ngrams.empty() ? 0 : hyp_count, ref_count, match_count};
  }
  return stats;
}

}  // namespace

std::string ChrfResult::name() const { return "chrF" + std::to_string(options.beta); }

std::string ChrfResult::signature() const {
  return "nrefs:" + std::to_string(nrefs) + "|case:" + (options.lowercase ? "lc" : "mixed") +
         "|eff:yes|nc:" + std::to_string(options.char_order) +
         "|nw:0|space:no|version:" + kSacreBleuVersion;
}

std::string ChrfResult::format() const {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.2f", score);
  return name() + " = " + buffer;
}

double compute_chrf(const std::vector<ChrfOrderStats>& stats, int beta) {
  const double factor = static_cast<double>(beta) * static_cast<double>(beta);
  double avg_precision = 0.0;
  double avg_recall = 0.0;
  int effective_order = 0;
  for (const ChrfOrderStats& order : stats) {
    if (order.hyp > 0 && order.ref > 0) {
      avg_precision += static_cast<double>(order.match) / static_cast<double>(order.hyp);
      avg_recall += static_cast<double>(order.match) / static_cast<double>(order.ref);
      ++effective_order;
    }
  }
  if (effective_order == 0) return 0.0;
  avg_precision /= effective_order;
  avg_recall /= effective_order;
  if (avg_precision + avg_recall == 0.0) return 0.0;
  const double score = (1.0 + factor) * avg_precision * avg_recall;
  return 100.0 * (score / (factor * avg_precision + avg_recall));
}

ChrfResult corpus_chrf(const std::vector<std::string>& hyps, const std::vector<std::string>& refs,
                       const ChrfOptions& options) {
  return corpus_chrf_multi(hyps, {refs}, options);
}

ChrfResult corpus_chrf_multi(const std::vector<std::string>& hyps,
                             const std::vector<std::vector<std::string>>& references,
                             const ChrfOptions& options) {
  if (options.char_order < 1) {
    throw ConfigError("chrF char_order must be at least 1, got " +
                      std::to_string(options.char_order));
  }
  if (options.beta < 0) {
    throw ConfigError("chrF beta must not be negative, got " + std::to_string(options.beta));
  }
  check_reference_sets(hyps, references);
  ChrfResult result;
  result.options = options;
  result.nrefs = static_cast<int>(references.size());
  const auto orders = static_cast<std::size_t>(options.char_order);
  result.stats.assign(orders, ChrfOrderStats{});
  for (std::size_t i = 0; i < hyps.size(); ++i) {
    const std::u32string hyp =
        preprocess(decode_sentence(hyps[i], "hypothesis", i + 1), options.lowercase);
    // The reference whose segment chrF is best (sacreBLEU's _compute_segment_statistics).
    std::vector<ChrfOrderStats> best;
    double best_score = -1.0;
    for (const auto& refs : references) {
      const std::u32string ref =
          preprocess(decode_sentence(refs[i], "reference", i + 1), options.lowercase);
      auto stats = segment_stats(hyp, ref, orders);
      const double score = compute_chrf(stats, options.beta);
      if (score > best_score) {
        best_score = score;
        best = std::move(stats);
      }
    }
    for (std::size_t n = 0; n < orders; ++n) {
      result.stats[n].hyp += best[n].hyp;
      result.stats[n].ref += best[n].ref;
      result.stats[n].match += best[n].match;
    }
  }
  result.score = compute_chrf(result.stats, options.beta);
  return result;
}

}  // namespace s2s::metrics
