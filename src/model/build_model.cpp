#include "model/build_model.h"

#include "model/init.h"

namespace s2s::model {
namespace {

// The config's mode strings (validated) as the enums the modules take.
HardAttention hard_attention(const std::string& mode) {
  if (mode == "sample") return HardAttention::kSample;
  if (mode == "argmax") return HardAttention::kArgmax;
  return HardAttention::kSoft;
}

DecoderStyle decoder_style(const std::string& style) {
  return style == "luong" ? DecoderStyle::kLuong : DecoderStyle::kBahdanau;
}

Bridge bridge(const std::string& name) { return name == "zero" ? Bridge::kZero : Bridge::kTanh; }

}  // namespace

bool has_learned_baseline(const config::ModelConfig& model,
                          const config::ReinforceConfig& reinforce) {
  return config::samples_attention(model) && reinforce.baseline == "learned";
}

Seq2Seq build_model(const config::ModelConfig& c, int64_t src_vocab_size, int64_t tgt_vocab_size,
                    const config::ReinforceConfig& reinforce) {
  const auto encoder = EncoderOptions(src_vocab_size, c.emb_size, c.hidden_size)
                           .layers(c.encoder.layers)
                           .dropout(c.encoder.dropout)
                           .self_attention(c.encoder.self_attention)
                           .self_attention_heads(c.encoder.self_attention_heads);
  const int64_t encoder_size = 2 * c.hidden_size;
  auto decoder = DecoderOptions(tgt_vocab_size, c.emb_size, c.hidden_size, encoder_size)
                     .style(decoder_style(c.decoder.style))
                     .layers(c.decoder.layers)
                     .dropout(c.decoder.dropout)
                     .bridge(bridge(c.decoder.bridge));
  if (config::uses_attention(c)) {
    decoder.attention(AttentionOptions(c.attention.scorer, c.hidden_size, encoder_size)
                          .size(c.attention.size)
                          .heads(c.attention.heads)
                          .key_value(c.attention.key_value)
                          .rank(c.attention.rank)
                          .hard(hard_attention(c.attention.hard))
                          .hard_eval(hard_attention(c.attention.hard_eval))
                          .p_expect(reinforce.p_expect));
  }
  Seq2Seq model(encoder, decoder, has_learned_baseline(c, reinforce));
  initialize(*model, c.init, c.init_scale);
  return model;
}

int64_t count_parameters(const torch::nn::Module& model) {
  int64_t n = 0;
  for (const auto& p : model.parameters()) {
    if (p.requires_grad()) n += p.numel();
  }
  return n;
}

}  // namespace s2s::model
