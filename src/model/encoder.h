#pragma once
// Bidirectional GRU encoder (Bahdanau et al. 2015, sec. 3.2): h_i = [fwd_i; bwd_i].
// Sequences are packed, so padding never enters the recurrence and the backward direction
// starts at each sentence's own last token.
//
// Shapes: B batch, S source length (with </s>), E embedding size, H hidden size per direction.

#include <torch/torch.h>

#include "model/self_attention.h"

namespace s2s::model {

struct EncoderOptions {
  EncoderOptions(int64_t vocab_size, int64_t emb_size, int64_t hidden_size)
      : vocab_size_(vocab_size), emb_size_(emb_size), hidden_size_(hidden_size) {}
  TORCH_ARG(int64_t, vocab_size);
  TORCH_ARG(int64_t, emb_size);
  TORCH_ARG(int64_t, hidden_size);
  TORCH_ARG(int64_t, layers) = 1;
  TORCH_ARG(double, dropout) = 0.0;         // on the embeddings and between GRU layers
  TORCH_ARG(double, output_dropout) = 0.0;  // on the states the decoder attends to
  TORCH_ARG(int64_t, pad_id) = 0;
  TORCH_ARG(bool, self_attention) = false;  // multi-head self-attention after the GRU
  TORCH_ARG(int64_t, self_attention_heads) = 4;
};

struct EncoderOutput {
  torch::Tensor states;          // [B, S, 2H], zero at padding
  torch::Tensor mask;            // [B, S] bool, true at real tokens
  torch::Tensor final;           // [B, 2H] top layer's last forward and last backward states
  torch::Tensor self_attention;  // [B, m, S, S] with encoder self-attention, else undefined
};

class EncoderImpl : public torch::nn::Module {
 public:
  explicit EncoderImpl(const EncoderOptions& options);

  // src [B, S] token ids, lengths [B] (int64, any device).
  EncoderOutput forward(const torch::Tensor& src, const torch::Tensor& lengths);

  const EncoderOptions& options() const { return options_; }

  torch::nn::Embedding embedding{nullptr};
  torch::nn::GRU rnn{nullptr};
  SelfAttention self_attention{nullptr};

 private:
  EncoderOptions options_;
  torch::nn::Dropout dropout_{nullptr}, output_dropout_{nullptr};
};
TORCH_MODULE(Encoder);

}  // namespace s2s::model
