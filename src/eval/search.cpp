#include "eval/search.h"

#include <atomic>
#include <cmath>
#include <string>

#include "data/vocab.h"
#include "eval/search_steps.h"
#include "util/error.h"

namespace s2s::eval {
namespace {

std::atomic<int64_t> stepped_rows{0};

}  // namespace

int64_t decoded_rows() { return stepped_rows.load(std::memory_order_relaxed); }

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
  if (!(o.max_len_ratio > 0)) {
    fail("max_len_ratio", "must be > 0", std::to_string(o.max_len_ratio));
  }
  if (!(o.beam_prune >= 0)) fail("beam_prune", "must be >= 0", std::to_string(o.beam_prune));
  if (o.max_len_extra < 0) fail("max_len_extra", "must be >= 0", std::to_string(o.max_len_extra));
}

double length_penalty(int64_t length, double alpha) {
  return std::pow((5.0 + static_cast<double>(length)) / 6.0, alpha);
}

int64_t max_target_length(const SearchOptions& options, int64_t src_len) {
  return static_cast<int64_t>(std::ceil(options.max_len_ratio * static_cast<double>(src_len))) +
         options.max_len_extra;
}

std::vector<std::vector<Hypothesis>> search(const Ensemble& models, const batching::Batch& batch,
                                            const SearchOptions& options) {
  validate_search_options(options);
  return options.beam_size == 1 ? greedy_search(models, batch, options)
                                : beam_search(models, batch, options);
}

namespace detail {

void count_rows(int64_t rows) { stepped_rows.fetch_add(rows, std::memory_order_relaxed); }

std::vector<int64_t> max_lengths(const batching::Batch& batch, const SearchOptions& options) {
  const auto lengths = batch.src_lengths.to(torch::kCPU, torch::kLong).contiguous();
  std::vector<int64_t> out(static_cast<std::size_t>(lengths.numel()));
  for (std::size_t i = 0; i < out.size(); ++i) {
    out[i] = max_target_length(options, lengths[static_cast<int64_t>(i)].item<int64_t>());
  }
  return out;
}

void mask_log_probs_(const torch::Tensor& log_probs, const torch::Tensor& forced) {
  using data::Vocab;
  log_probs.select(1, Vocab::kPad).fill_(kNegInf);
  log_probs.select(1, Vocab::kBos).fill_(kNegInf);
  const auto rows = forced.nonzero().squeeze(1);
  if (rows.numel() == 0) return;
  const auto eos = log_probs.select(1, Vocab::kEos).index_select(0, rows);
  log_probs.index_fill_(0, rows, kNegInf);
  log_probs.select(1, Vocab::kEos).index_copy_(0, rows, eos);
}

bool keeps_attention(const Ensemble& models, const SearchOptions& options) {
  return options.keep_attention && models.has_attention();
}

torch::Tensor scatter_rows(const torch::Tensor& x, const torch::Tensor& rows, int64_t total) {
  auto sizes = x.sizes().vec();
  sizes[0] = total;
  return torch::zeros(sizes, x.options()).index_copy_(0, rows, x);
}

}  // namespace detail
}  // namespace s2s::eval
