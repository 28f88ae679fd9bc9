#include "model/encoder.h"

#include "model/dropout.h"
#include "model/gru.h"

namespace s2s::model {

EncoderImpl::EncoderImpl(const EncoderOptions& o)
    : embedding(register_module(
          "embedding",
          torch::nn::Embedding(
              torch::nn::EmbeddingOptions(o.vocab_size(), o.emb_size()).padding_idx(o.pad_id())))),
      rnn(register_module("rnn", torch::nn::GRU(torch::nn::GRUOptions(o.emb_size(), o.hidden_size())
                                                    .num_layers(o.layers())
                                                    .dropout(o.layers() > 1 ? o.dropout() : 0.0)
                                                    .bidirectional(true)
                                                    .batch_first(true)))),
      options_(o),
      dropout_(register_module("dropout", torch::nn::Dropout(o.dropout()))),
      output_dropout_(register_module("output_dropout", torch::nn::Dropout(o.output_dropout()))) {
  if (o.self_attention()) {
    self_attention = register_module(
        "self_attention",
        SelfAttention(SelfAttentionOptions(2 * o.hidden_size(), o.self_attention_heads())
                          .dropout(o.dropout())));
  }
}

EncoderOutput EncoderImpl::forward(const torch::Tensor& src, const torch::Tensor& lengths) {
  const auto embedded = dropout(dropout_, embedding(src));  // [B, S, E]
  // Under bf16 autocast (CPU or CUDA) the input projections of all steps run as one bf16
  // product and the hidden products in bf16 inside the written-out recurrence (model/gru.h).
  auto gru = bidirectional_gru(*rnn, embedded, lengths.to(torch::kCPU, torch::kLong),
                               options_.layers() > 1 ? options_.dropout() : 0.0, is_training(),
                               /*bf16_hidden=*/mixed_precision(embedded));
  const auto& states = gru.states;  // [B, S, 2H]
  const auto& final = gru.final;    // [B, 2H]
  const auto positions = torch::arange(src.size(1), lengths.options().dtype(torch::kLong));
  const auto mask = positions.unsqueeze(0) < lengths.to(torch::kLong).unsqueeze(1);  // [B, S]
  EncoderOutput out{dropout(output_dropout_, states), mask.to(src.device()), final, {}};
  if (self_attention) {
    const CpuAutocastOff fp32_on_cpu;  // model/gru.h
    auto attended = self_attention(out.states, out.mask);
    out.states = attended.states;
    out.self_attention = attended.weights;
  }
  return out;
}

}  // namespace s2s::model
