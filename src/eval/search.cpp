#include "eval/search.h"

#include <cmath>
#include <string>

#include "data/vocab.h"
#include "eval/search_steps.h"
#include "util/error.h"

namespace s2s::eval {

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

std::vector<int64_t> max_lengths(const batching::Batch& batch, const SearchOptions& options) {
  const auto lengths = batch.src_lengths.to(torch::kCPU, torch::kLong).contiguous();
  std::vector<int64_t> out(static_cast<std::size_t>(lengths.numel()));
  for (std::size_t i = 0; i < out.size(); ++i) {
    out[i] = max_target_length(options, lengths[static_cast<int64_t>(i)].item<int64_t>());
  }
  return out;
}

StepMasks::StepMasks(int64_t vocab_size, const torch::Device& device) {
  using data::Vocab;
  const auto opts = torch::TensorOptions().dtype(torch::kBool).device(device);
  banned = torch::zeros({1, vocab_size}, opts);
  banned.index_put_({0, Vocab::kPad}, true);
  banned.index_put_({0, Vocab::kBos}, true);
  not_eos = torch::ones({1, vocab_size}, opts);
  not_eos.index_put_({0, Vocab::kEos}, false);
}

torch::Tensor masked_log_probs(const torch::Tensor& log_probs, const StepMasks& masks,
                               const torch::Tensor& forced) {
  const auto mask = masks.banned | (forced.unsqueeze(1) & masks.not_eos);
  return log_probs.masked_fill(mask, kNegInf);
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
