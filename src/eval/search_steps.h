#pragma once
// What greedy and beam search share (eval/greedy_search.cpp, eval/beam_search.cpp): length
// limits, the vocabulary masks of a step, and one step's log-probabilities. Internal to eval/.
//
// Shapes: R rows being decoded, V target vocabulary, m heads, S longest source.

#include <torch/torch.h>

#include <cstdint>
#include <limits>
#include <vector>

#include "batching/batch.h"
#include "eval/ensemble.h"
#include "eval/search.h"

namespace s2s::eval::detail {

// Adds a step's rows to decoded_rows() (eval/search.h).
void count_rows(int64_t rows);

constexpr double kNegInf = -std::numeric_limits<double>::infinity();

// max_len_i = ceil(ratio * src_len_i) + extra for every batch row, on the CPU.
std::vector<int64_t> max_lengths(const batching::Batch& batch, const SearchOptions& options);

// Masks one step's log p(y | prefix) [R, V] (float, Ensemble::step) in place: <pad> and <s>
// are never chosen, and rows at their length limit (`forced` [R] bool) may choose only </s>.
// Masked after the softmax, so the chosen tokens keep the models' own log-probabilities. Only the
// masked entries are written: [R, V] masks built and applied every step were most of a greedy
// step's search bookkeeping.
void mask_log_probs_(const torch::Tensor& log_probs, const torch::Tensor& forced);

// Whether search returns attention: asked for, and a model has some.
bool keeps_attention(const Ensemble& models, const SearchOptions& options);

// x [R, ...] of the rows `rows` [R] -> [total, ...], zero at the other rows: a step's attention
// in the layout of the whole batch.
torch::Tensor scatter_rows(const torch::Tensor& x, const torch::Tensor& rows, int64_t total);

}  // namespace s2s::eval::detail
