#include "model/encoder.h"

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
  const CpuAutocastOff fp32_on_cpu;
  namespace rnn_utils = torch::nn::utils::rnn;
  const auto cpu_lengths = lengths.to(torch::kCPU, torch::kLong);
  const auto embedded = dropout_(embedding(src));  // [B, S, E]
  torch::Tensor states, final;                     // [B, S, 2H], [B, 2H]
  if (mixed_precision(embedded)) {
    // bf16 autocast on CUDA: the model's own GRU loop, with bf16 projections (model/gru.h).
    auto gru = bidirectional_gru(*rnn, embedded, cpu_lengths,
                                 options_.layers() > 1 ? options_.dropout() : 0.0, is_training());
    states = gru.states;
    final = gru.final;
  } else {
    const auto packed = rnn_utils::pack_padded_sequence(embedded, cpu_lengths,
                                                        /*batch_first=*/true,
                                                        /*enforce_sorted=*/false);
    auto [packed_out, hidden] = rnn->forward_with_packed_input(packed);
    // hidden [layers * 2, B, H]: the last two rows are the top layer's forward and backward.
    states = std::get<0>(rnn_utils::pad_packed_sequence(packed_out, /*batch_first=*/true,
                                                        /*padding_value=*/0.0,
                                                        /*total_length=*/src.size(1)));
    const int64_t n = hidden.size(0);
    final = torch::cat({hidden[n - 2], hidden[n - 1]}, /*dim=*/1);
  }
  const auto positions = torch::arange(src.size(1), lengths.options().dtype(torch::kLong));
  const auto mask = positions.unsqueeze(0) < lengths.to(torch::kLong).unsqueeze(1);  // [B, S]
  EncoderOutput out{output_dropout_(states), mask.to(src.device()), final, {}};
  if (self_attention) {
    auto attended = self_attention(out.states, out.mask);
    out.states = attended.states;
    out.self_attention = attended.weights;
  }
  return out;
}

}  // namespace s2s::model
