#include "model/build_model.h"

#include "model/init.h"

namespace s2s::model {

bool has_learned_baseline(const config::ModelConfig& model,
                          const config::ReinforceConfig& reinforce) {
  return config::samples_attention(model) &&
         config::reinforce_baseline(reinforce) == config::ReinforceBaseline::kLearned;
}

Seq2Seq build_model(const config::ModelConfig& c, int64_t src_vocab_size, int64_t tgt_vocab_size,
                    const config::ReinforceConfig& reinforce) {
  const auto encoder = EncoderOptions(src_vocab_size, c.emb_size, c.hidden_size)
                           .layers(c.encoder.layers)
                           .dropout(c.encoder.dropout)
                           .output_dropout(c.encoder.output_dropout)
                           .self_attention(c.encoder.self_attention)
                           .self_attention_heads(c.encoder.self_attention_heads);
  const int64_t encoder_size = 2 * c.hidden_size;
  auto decoder = DecoderOptions(tgt_vocab_size, c.emb_size, c.hidden_size, encoder_size)
                     .style(config::decoder_style(c.decoder))
                     .layers(c.decoder.layers)
                     .dropout(c.decoder.dropout)
                     .output_dropout(c.decoder.output_dropout)
                     .bridge(config::bridge(c.decoder))
                     .tie_embeddings(c.decoder.tie_embeddings);
  if (config::uses_attention(c)) {
    decoder.attention(AttentionOptions(c.attention.scorer, c.hidden_size, encoder_size)
                          .normalizer(c.attention.normalizer)
                          .size(c.attention.size)
                          .heads(c.attention.heads)
                          .key_value(c.attention.key_value)
                          .rank(c.attention.rank)
                          .coverage(c.attention.coverage)
                          .local(config::local_attention(c.attention))
                          .window(c.attention.window)
                          .hard(config::hard_attention(c.attention))
                          .hard_eval(config::hard_attention_eval(c.attention))
                          .p_expect(reinforce.p_expect));
  }
  Seq2Seq model(encoder, decoder, has_learned_baseline(c, reinforce));
  initialize(*model, c.init, c.init_scale);
  return model;
}

namespace {

// A GRU layer (one direction) or GRUCell: W_ih [3H, I], W_hh [3H, H] and two biases [3H].
double gru_parameters(double input, double hidden) { return 3 * hidden * (input + hidden + 2); }

double linear_parameters(double in, double out, bool bias) { return out * (in + (bias ? 1 : 0)); }

// The attention module: key/value projections, query projection, one scorer shared by the
// heads, output projection (model/attention.cpp).
double attention_parameters(const config::ModelConfig& c, double* context_size) {
  const auto& a = c.attention;
  const double hidden = static_cast<double>(c.hidden_size);
  const auto options = AttentionOptions(a.scorer, c.hidden_size, 2 * c.hidden_size)
                           .size(a.size)
                           .heads(a.heads)
                           .key_value(a.key_value)
                           .rank(a.rank);
  const auto sizes = attention_sizes(options);
  const double key = static_cast<double>(sizes.key_size), size = static_cast<double>(sizes.size);
  *context_size = key;
  double n = 0;
  if (a.key_value) n += 2 * linear_parameters(2 * hidden, size, false);
  if (sizes.projects_query) n += linear_parameters(hidden, key, false);
  n += static_cast<double>(scorer_spec(a.scorer).parameters(sizes.scorer));
  if (a.heads > 1) n += linear_parameters(key, key, false);
  const auto& scorer = scorer_spec(a.scorer);
  if (a.coverage) n += static_cast<double>(a.heads * scorer.projected_size(sizes.scorer));
  if (config::local_attention(a) == config::LocalAttention::kPredictive) {  // W_p, v_p
    n += linear_parameters(hidden, size, false) +
         linear_parameters(size, static_cast<double>(a.heads), false);
  }
  return n;
}

}  // namespace

double expected_parameters(const config::ModelConfig& c, int64_t src_vocab_size,
                           int64_t tgt_vocab_size, const config::ReinforceConfig& reinforce) {
  const double emb = static_cast<double>(c.emb_size), hidden = static_cast<double>(c.hidden_size);
  const double state = 2 * hidden;  // encoder state: forward and backward
  double n = static_cast<double>(src_vocab_size) * emb;
  for (int64_t l = 0; l < c.encoder.layers; ++l) {
    n += 2 * gru_parameters(l == 0 ? emb : state, hidden);
  }
  if (c.encoder.self_attention) n += 4 * linear_parameters(state, state, true) + 2 * state;
  double context = state;  // without attention: the encoder summary
  if (config::uses_attention(c)) n += attention_parameters(c, &context);
  const bool luong = config::decoder_style(c.decoder) == DecoderStyle::kLuong;
  n += static_cast<double>(tgt_vocab_size) * emb;
  for (int64_t l = 0; l < c.decoder.layers; ++l) {
    n += gru_parameters(l == 0 ? emb + (luong ? hidden : context) : hidden, hidden);
  }
  const double layers = static_cast<double>(c.decoder.layers);
  if (config::bridge(c.decoder) == Bridge::kTanh)
    n += linear_parameters(state, layers * hidden, true);
  if (luong) n += linear_parameters(context + hidden, hidden, false);
  const double features = luong ? hidden : hidden + context + emb;
  const double vocab = static_cast<double>(tgt_vocab_size);
  n += c.decoder.tie_embeddings ? linear_parameters(features, emb, true) + vocab
                                : linear_parameters(features, vocab, true);
  if (has_learned_baseline(c, reinforce)) n += linear_parameters(hidden, 1, true);
  return n;
}

int64_t count_parameters(const torch::nn::Module& model) {
  int64_t n = 0;
  for (const auto& p : model.parameters()) {
    if (p.requires_grad()) n += p.numel();
  }
  return n;
}

}  // namespace s2s::model
