#pragma once
// Turning encoded sentences into padded tensors.
//
// Shapes: B sentences, S longest source (with </s>), T longest target (with </s>).

#include <torch/torch.h>

#include <vector>

#include "data/corpus.h"
#include "data/vocab.h"

namespace s2s::batching {

// Token ids of a corpus: sources end with </s>; targets are <s> y_1 .. y_n </s>.
struct EncodedCorpus {
  std::vector<std::vector<int64_t>> src, tgt;
  std::vector<int64_t> src_lengths() const;
  std::vector<int64_t> tgt_lengths() const;  // without <s>: the number of predicted tokens
  std::size_t size() const { return src.size(); }
};

EncodedCorpus encode_corpus(const data::TokenizedCorpus& corpus, const data::Vocab& src_vocab,
                            const data::Vocab& tgt_vocab);

struct Batch {
  torch::Tensor src;                 // [B, S] padded with <pad>
  torch::Tensor src_lengths;         // [B] int64
  torch::Tensor tgt_in;              // [B, T] <s> y_1 .. y_n, padded
  torch::Tensor tgt_out;             // [B, T] y_1 .. y_n </s>, padded
  std::vector<std::size_t> indices;  // which corpus examples, in row order
  // [B, T, S] float: the gold alignment of each target step, rows normalized (zero where the
  // gold links nothing); undefined unless training with guided alignment
  // (train/guided_alignment.h).
  torch::Tensor alignment;
  int64_t target_tokens = 0;  // real (non-pad) tokens in tgt_out
  int64_t size() const { return src.size(0); }
};

Batch make_batch(const EncodedCorpus& corpus, const std::vector<std::size_t>& indices,
                 const torch::Device& device);

// Source-only batch for translation of raw input (targets left undefined).
Batch make_source_batch(const std::vector<std::vector<int64_t>>& sources,
                        const std::vector<std::size_t>& indices, const torch::Device& device);

}  // namespace s2s::batching
