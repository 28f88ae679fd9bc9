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

constexpr double kNegInf = -std::numeric_limits<double>::infinity();

// max_len_i = ceil(ratio * src_len_i) + extra for every batch row, on the CPU.
std::vector<int64_t> max_lengths(const batching::Batch& batch, const SearchOptions& options);

// Which vocabulary columns a step may not choose: <pad> and <s> always; everything but </s>
// once a row has reached its length limit.
struct StepMasks {
  StepMasks(int64_t vocab_size, const torch::Device& device);
  torch::Tensor banned;   // [1, V]
  torch::Tensor not_eos;  // [1, V]
};

// One step's log p(y | prefix) [R, V] (float, Ensemble::step) with the masks applied: masked
// after the softmax, so the chosen tokens keep the models' own log-probabilities. `forced` [R]
// bool: rows at their limit.
torch::Tensor masked_log_probs(const torch::Tensor& log_probs, const StepMasks& masks,
                               const torch::Tensor& forced);

// Whether search returns attention: asked for, and a model has some.
bool keeps_attention(const Ensemble& models, const SearchOptions& options);

// x [R, ...] of the rows `rows` [R] -> [total, ...], zero at the other rows: a step's attention
// in the layout of the whole batch.
torch::Tensor scatter_rows(const torch::Tensor& x, const torch::Tensor& rows, int64_t total);

}  // namespace s2s::eval::detail
