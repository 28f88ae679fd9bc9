#pragma once
// Attention over encoder states: a_i = softmax_i(s(k_i, q)) over unmasked positions,
// context = sum_i a_i v_i (Bahdanau et al. 2015, eqs. 5-6), wrapped in two options:
//   key_value: K = H W_k, V = H W_v (separate key and value projections), else K = V = H;
//   heads m:   queries projected and split into m heads, keys and values split into m slices;
//              each head attends with the scorer; contexts concatenated, then projected by W_o.
//
// Shapes: B batch, S source length, Dm memory (encoder state) size, Dq query size,
// Dk / Dv key / value size (Dm, or the attention size A with key_value), m heads.
// prepare() runs once per sentence; forward() once per decoder step.

#include <torch/torch.h>

#include <string>

#include "model/scorer.h"

namespace s2s::model {

struct AttentionOptions {
  AttentionOptions(std::string scorer, int64_t query_size, int64_t memory_size)
      : scorer_(std::move(scorer)), query_size_(query_size), memory_size_(memory_size) {}
  TORCH_ARG(std::string, scorer);
  TORCH_ARG(int64_t, query_size);
  TORCH_ARG(int64_t, memory_size);
  // Attention size A: key/value projection size and additive hidden size; 0 = query_size.
  TORCH_ARG(int64_t, size) = 0;
  TORCH_ARG(int64_t, heads) = 1;
  TORCH_ARG(bool, key_value) = false;
  TORCH_ARG(int64_t, rank) = 0;  // bilinear low rank
};

// Key-side tensors of one batch of sentences, computed once by prepare().
struct AttentionMemory {
  torch::Tensor projected;  // [B, m, S, P] scorer key projections
  torch::Tensor values;     // [B, m, S, Dv/m]
  torch::Tensor mask_bias;  // [B, m, S] 0 at real tokens, -inf at padding
  // Rows `index` [B'] of every tensor: beam search reorders hypotheses with it.
  AttentionMemory index_select(const torch::Tensor& index) const;
};

struct AttentionOutput {
  torch::Tensor context;  // [B, Dv]
  torch::Tensor weights;  // [B, m, S], each row sums to 1, exactly 0 at padding
};

class AttentionImpl : public torch::nn::Module {
 public:
  explicit AttentionImpl(const AttentionOptions& options);

  // memory [B, S, Dm], mask [B, S] (true = real token).
  AttentionMemory prepare(const torch::Tensor& memory, const torch::Tensor& mask);
  // query [B, Dq] -> context and weights.
  AttentionOutput forward(const torch::Tensor& query, const AttentionMemory& memory);

  int64_t context_size() const { return value_size_; }
  int64_t heads() const { return options_.heads(); }
  const AttentionOptions& options() const { return options_; }

 private:
  AttentionOptions options_;
  int64_t key_size_, value_size_;
  torch::nn::Linear key_proj_{nullptr}, value_proj_{nullptr};  // key_value only
  torch::nn::Linear query_proj_{nullptr};   // heads > 1, or dot scorers with Dq != Dk
  torch::nn::Linear output_proj_{nullptr};  // heads > 1: W_o over concatenated contexts
  std::shared_ptr<ScorerImpl> scorer_;
};
TORCH_MODULE(Attention);

}  // namespace s2s::model
