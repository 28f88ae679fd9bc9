#include "metrics/bleu.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string_view>
#include <unordered_map>

#include "metrics/metric_input.h"
#include "metrics/sacre_tokenizers.h"
#include "util/error.h"
#include "util/unicode.h"

namespace s2s::metrics {
namespace {

// sacreBLEU's my_log: log(0) is a large negative number instead of -inf, so that
// exp(sum / order) gives exactly 0.
constexpr double kLogZero = -9999999999.0;
constexpr double kDefaultFloor = 0.1;
constexpr double kDefaultAddK = 1.0;

double my_log(double x) { return x == 0.0 ? kLogZero : std::log(x); }

// Python's f"{x:.{digits}f}" (both round the exact binary value half to even).
std::string fixed(double x, int digits) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", digits, x);
  return buffer;
}

double smooth_value_or_default(const BleuOptions& options) {
  if (options.smooth_value) return *options.smooth_value;
  return options.smooth == BleuSmooth::kFloor ? kDefaultFloor : kDefaultAddK;
}

// str.split(): the tokens of a tokenized line, as views into it.
std::vector<std::u32string_view> split_tokens(std::u32string_view s) {
  std::vector<std::u32string_view> tokens;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && util::is_space(s[i])) ++i;
    const std::size_t start = i;
    while (i < s.size() && !util::is_space(s[i])) ++i;
    if (i > start) tokens.push_back(s.substr(start, i - start));
  }
  return tokens;
}

// [n - 1]: counts of each n-gram, keyed by its tokens joined with spaces (tokens hold none).
using NgramCounts = std::vector<std::unordered_map<std::u32string, std::int64_t>>;

NgramCounts count_ngrams(const std::vector<std::u32string_view>& tokens, int max_order) {
  NgramCounts counts(static_cast<std::size_t>(max_order));
  for (std::size_t n = 1; n <= counts.size(); ++n) {
    for (std::size_t i = 0; i + n <= tokens.size(); ++i) {
      std::u32string key(tokens[i]);
      for (std::size_t k = i + 1; k < i + n; ++k) {
        key.push_back(U' ');
        key.append(tokens[k]);
      }
      ++counts[n - 1][key];
    }
  }
  return counts;
}

// One segment's preprocessing (sacreBLEU's BLEU._preprocess_segment): lower-case, rstrip(),
// tokenize.
class Preprocessor {
 public:
  explicit Preprocessor(const BleuOptions& options)
      : tokenizer_(make_sacre_tokenizer(options.tokenize)), lowercase_(options.lowercase) {}

  std::u32string operator()(std::u32string sentence) const {
    if (lowercase_) sentence = util::to_lower(sentence);
    std::size_t end = sentence.size();
    while (end > 0 && util::is_space(sentence[end - 1])) --end;
    sentence.resize(end);
    return tokenizer_->tokenize(sentence);
  }

 private:
  std::unique_ptr<SacreTokenizer> tokenizer_;
  bool lowercase_;
};

// The reference length closest to `hyp_len`, the shorter on a tie (sacreBLEU's
// _get_closest_ref_len).
std::int64_t closest_ref_len(std::int64_t hyp_len, const std::vector<std::int64_t>& ref_lens) {
  std::int64_t closest = ref_lens.front();
  for (const auto len : ref_lens) {
    const auto diff = std::abs(hyp_len - len), best = std::abs(hyp_len - closest);
    if (diff < best || (diff == best && len < closest)) closest = len;
  }
  return closest;
}

// Adds one segment's statistics to `stats` (sacreBLEU's _extract_reference_info and
// _compute_segment_statistics): reference n-gram counts are the maximum over the references.
void add_segment(std::u32string_view hyp, const std::vector<std::u32string>& refs, int max_order,
                 BleuStats& stats) {
  const std::vector<std::u32string_view> hyp_tokens = split_tokens(hyp);
  NgramCounts ref_ngrams(static_cast<std::size_t>(max_order));
  std::vector<std::int64_t> ref_lens;
  for (const auto& ref : refs) {
    const std::vector<std::u32string_view> ref_tokens = split_tokens(ref);
    ref_lens.push_back(static_cast<std::int64_t>(ref_tokens.size()));
    const NgramCounts counts = count_ngrams(ref_tokens, max_order);
    for (std::size_t n = 0; n < counts.size(); ++n) {
      for (const auto& [ngram, count] : counts[n]) {
        auto& kept = ref_ngrams[n][ngram];
        kept = std::max(kept, count);
      }
    }
  }
  const auto hyp_len = static_cast<std::int64_t>(hyp_tokens.size());
  stats.sys_len += hyp_len;
  stats.ref_len += closest_ref_len(hyp_len, ref_lens);
  const NgramCounts hyp_ngrams = count_ngrams(hyp_tokens, max_order);
  for (std::size_t n = 0; n < hyp_ngrams.size(); ++n) {
    for (const auto& [ngram, count] : hyp_ngrams[n]) {
      stats.totals[n] += count;
      const auto found = ref_ngrams[n].find(ngram);
      if (found != ref_ngrams[n].end()) stats.counts[n] += std::min(count, found->second);
    }
  }
}

}  // namespace

const std::vector<std::string>& bleu_smooth_names() {
  static const std::vector<std::string> names = {"none", "floor", "add-k", "exp"};
  return names;
}

std::string to_string(BleuSmooth smooth) {
  switch (smooth) {
    case BleuSmooth::kExp:
      return "exp";
    case BleuSmooth::kFloor:
      return "floor";
    case BleuSmooth::kAddK:
      return "add-k";
    case BleuSmooth::kNone:
      return "none";
  }
  return "exp";
}

BleuSmooth parse_bleu_smooth(const std::string& name) {
  for (const BleuSmooth smooth :
       {BleuSmooth::kExp, BleuSmooth::kFloor, BleuSmooth::kAddK, BleuSmooth::kNone}) {
    if (to_string(smooth) == name) return smooth;
  }
  std::string valid;
  for (const std::string& known : bleu_smooth_names()) valid += (valid.empty() ? "" : ", ") + known;
  throw ConfigError("unknown BLEU smoothing '" + name + "' (valid: " + valid + ")");
}

void validate_bleu_options(const BleuOptions& options) {
  make_sacre_tokenizer(options.tokenize);  // throws for an unknown name
  if (options.max_order < 1) {
    throw ConfigError("BLEU max_order must be at least 1, got " +
                      std::to_string(options.max_order));
  }
}

double BleuResult::ratio() const {
  return ref_len == 0 ? 0.0 : static_cast<double>(sys_len) / static_cast<double>(ref_len);
}

std::string BleuResult::signature() const {
  std::string smooth = to_string(options.smooth);
  if (options.smooth == BleuSmooth::kFloor || options.smooth == BleuSmooth::kAddK) {
    smooth += "[" + fixed(smooth_value_or_default(options), 2) + "]";
  }
  return "nrefs:" + std::to_string(nrefs) + "|case:" + (options.lowercase ? "lc" : "mixed") +
         "|eff:no|tok:" + options.tokenize + "|smooth:" + smooth + "|version:" + kSacreBleuVersion;
}

std::string BleuResult::format() const {
  std::string precision_text;
  for (const double p : precisions) {
    precision_text += (precision_text.empty() ? "" : "/") + fixed(p, 1);
  }
  return "BLEU = " + fixed(score, 2) + " " + precision_text + " (BP = " + fixed(bp, 3) +
         " ratio = " + fixed(ratio(), 3) + " hyp_len = " + std::to_string(sys_len) +
         " ref_len = " + std::to_string(ref_len) + ")";
}

BleuResult compute_bleu(const BleuStats& stats, const BleuOptions& options) {
  validate_bleu_options(options);
  const auto order = static_cast<std::size_t>(options.max_order);
  if (stats.counts.size() != order || stats.totals.size() != order) {
    throw std::invalid_argument("BLEU statistics must have max_order counts and totals");
  }
  BleuResult result;
  result.counts = stats.counts;
  result.totals = stats.totals;
  result.sys_len = stats.sys_len;
  result.ref_len = stats.ref_len;
  result.options = options;
  result.precisions.assign(order, 0.0);

  if (stats.sys_len < stats.ref_len) {
    result.bp = stats.sys_len > 0 ? std::exp(1.0 - static_cast<double>(stats.ref_len) /
                                                       static_cast<double>(stats.sys_len))
                                  : 0.0;
  } else {
    result.bp = 1.0;
  }

  // Early exit when nothing matches (sacreBLEU issue #141).
  if (std::all_of(stats.counts.begin(), stats.counts.end(),
                  [](std::int64_t c) { return c == 0; })) {
    result.score = 0.0;
    return result;
  }

  const double smooth_value = smooth_value_or_default(options);
  double smooth_mteval = 1.0;
  for (std::size_t n = 0; n < order; ++n) {
    auto correct = static_cast<double>(stats.counts[n]);
    auto total = static_cast<double>(stats.totals[n]);
    if (options.smooth == BleuSmooth::kAddK && n > 0) {
      correct += smooth_value;
      total += smooth_value;
    }
    if (total == 0.0) break;
    if (correct == 0.0) {
      if (options.smooth == BleuSmooth::kExp) {
        smooth_mteval *= 2.0;
        result.precisions[n] = 100.0 / (smooth_mteval * total);
      } else if (options.smooth == BleuSmooth::kFloor) {
        result.precisions[n] = 100.0 * smooth_value / total;
      }
    } else {
      result.precisions[n] = 100.0 * correct / total;
    }
  }

  double log_sum = 0.0;
  for (const double p : result.precisions) log_sum += my_log(p);
  result.score = result.bp * std::exp(log_sum / static_cast<double>(order));
  return result;
}

BleuResult corpus_bleu(const std::vector<std::string>& hyps, const std::vector<std::string>& refs,
                       const BleuOptions& options) {
  return corpus_bleu_multi(hyps, {refs}, options);
}

BleuResult corpus_bleu_multi(const std::vector<std::string>& hyps,
                             const std::vector<std::vector<std::string>>& references,
                             const BleuOptions& options) {
  validate_bleu_options(options);
  check_reference_sets(hyps, references);
  const Preprocessor preprocess(options);
  BleuStats stats;
  stats.counts.assign(static_cast<std::size_t>(options.max_order), 0);
  stats.totals.assign(static_cast<std::size_t>(options.max_order), 0);
  std::vector<std::u32string> refs(references.size());
  for (std::size_t i = 0; i < hyps.size(); ++i) {
    const std::u32string hyp = preprocess(decode_sentence(hyps[i], "hypothesis", i + 1));
    for (std::size_t r = 0; r < references.size(); ++r) {
      refs[r] = preprocess(decode_sentence(references[r][i], "reference", i + 1));
    }
    add_segment(hyp, refs, options.max_order, stats);
  }
  auto result = compute_bleu(stats, options);
  result.nrefs = static_cast<int>(references.size());
  return result;
}

}  // namespace s2s::metrics
