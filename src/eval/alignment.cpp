#include "eval/alignment.h"

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

#include "util/error.h"

namespace s2s::eval {
namespace {

// A non-negative decimal integer, all of `text`; false otherwise.
bool parse_index(const std::string& text, int64_t* out) {
  if (text.empty() || text.size() > 9) return false;
  int64_t value = 0;
  for (const char c : text) {
    if (c < '0' || c > '9') return false;
    value = value * 10 + (c - '0');
  }
  *out = value;
  return true;
}

std::set<std::pair<int64_t, int64_t>> as_set(const Alignment& links) {
  return {links.begin(), links.end()};
}

}  // namespace

Alignment parse_alignment_line(const std::string& line, const std::string& where) {
  Alignment links;
  std::istringstream in(line);
  std::string link;
  while (in >> link) {
    const auto dash = link.find('-');
    int64_t i = 0, j = 0;
    if (dash == std::string::npos || !parse_index(link.substr(0, dash), &i) ||
        !parse_index(link.substr(dash + 1), &j)) {
      throw InputError(where + ": bad alignment link '" + link +
                       "' (expected i-j, 0-based source and target positions)");
    }
    links.emplace_back(i, j);
  }
  return links;
}

std::vector<Alignment> read_alignments(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path + ": cannot open alignment file");
  std::vector<Alignment> out;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    out.push_back(parse_alignment_line(line, path + ":" + std::to_string(out.size() + 1)));
  }
  return out;
}

void check_alignment(const Alignment& gold, int64_t src_len, int64_t tgt_len,
                     const std::string& where) {
  for (const auto& [i, j] : gold) {
    if (i >= src_len || j >= tgt_len) {
      throw InputError(where + ": link " + std::to_string(i) + "-" + std::to_string(j) +
                       " lies outside the sentence (" + std::to_string(src_len) + " source and " +
                       std::to_string(tgt_len) + " target tokens)");
    }
  }
}

Alignment predicted_alignment(const torch::Tensor& attention) {
  TORCH_CHECK(attention.dim() == 3, "attention must be [T + 1, m, S + 1], got ", attention.sizes());
  const int64_t targets = attention.size(0) - 1, sources = attention.size(2) - 1;
  Alignment links;
  if (targets <= 0 || sources <= 0) return links;
  // Mean over heads, without the </s> step and the source </s>: [T, S].
  const auto weights = attention.slice(0, 0, targets).mean(/*dim=*/1).slice(/*dim=*/1, 0, sources);
  const auto best = weights.argmax(/*dim=*/1).to(torch::kCPU, torch::kLong).contiguous();
  const auto* data = best.data_ptr<int64_t>();
  for (int64_t t = 0; t < targets; ++t) links.emplace_back(data[t], t);
  return links;
}

AerCounts& AerCounts::operator+=(const AerCounts& other) {
  predicted += other.predicted;
  gold += other.gold;
  matched += other.matched;
  return *this;
}

double AerCounts::aer() const {
  const int64_t total = predicted + gold;
  if (total == 0) return 0.0;
  return 1.0 - 2.0 * static_cast<double>(matched) / static_cast<double>(total);
}

AerCounts aer_counts(const Alignment& predicted, const Alignment& gold) {
  const auto a = as_set(predicted), g = as_set(gold);
  AerCounts c;
  c.predicted = static_cast<int64_t>(a.size());
  c.gold = static_cast<int64_t>(g.size());
  c.matched = static_cast<int64_t>(
      std::count_if(a.begin(), a.end(), [&g](const auto& link) { return g.count(link) > 0; }));
  return c;
}

EntropyStats& EntropyStats::operator+=(const EntropyStats& other) {
  sum += other.sum;
  steps += other.steps;
  weights += other.weights;
  zeros += other.zeros;
  return *this;
}

double EntropyStats::mean() const { return steps == 0 ? 0.0 : sum / static_cast<double>(steps); }

double EntropyStats::zero_fraction() const {
  return weights == 0 ? 0.0 : static_cast<double>(zeros) / static_cast<double>(weights);
}

EntropyStats attention_entropy(const torch::Tensor& attention) {
  TORCH_CHECK(attention.dim() == 3, "attention must be [T', m, S'], got ", attention.sizes());
  const auto a = attention.to(torch::kDouble);
  // 0 ln 0 = 0: padding and fully ignored positions add nothing.
  const auto terms = torch::where(a > 0, -a * a.log(), torch::zeros_like(a));
  EntropyStats s;
  s.sum = terms.sum(/*dim=*/2).mean(/*dim=*/1).sum().item<double>();  // [T', m] -> [T'] -> sum
  s.steps = attention.size(0);
  s.weights = attention.numel();
  s.zeros = a.eq(0).sum().item<int64_t>();
  return s;
}

}  // namespace s2s::eval
