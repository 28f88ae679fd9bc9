#include "experiments/flops.h"

#include <algorithm>

#include "model/attention.h"

namespace s2s::experiments {
namespace {

// Multiply-adds of the attention for one batch (see forward_macs): the key side once per
// padded source position, the query side once per decoder step and row.
struct AttentionMacs {
  int64_t per_source_position = 0;  // x B S
  int64_t per_step = 0;             // x decoder steps
  int64_t context_size = 0;         // C: the size of the context the decoder reads
};

AttentionMacs attention_macs(const config::ModelConfig& m, int64_t src_len) {
  const auto& a = m.attention;
  const int64_t memory = 2 * m.hidden_size;  // Dm
  const auto options = model::AttentionOptions(a.scorer, m.hidden_size, memory)
                           .size(a.size)
                           .heads(a.heads)
                           .key_value(a.key_value)
                           .rank(a.rank);
  const auto sizes = model::attention_sizes(options);
  const int64_t key = sizes.key_size, heads = a.heads;  // Dk = Dv, m
  AttentionMacs r;
  r.context_size = key;
  if (a.key_value) r.per_source_position += 2 * memory * sizes.size;  // K = H W_k, V = H W_v
  if (sizes.projects_query) r.per_step += m.hidden_size * key;        // W_q: H -> Dk
  if (heads > 1) r.per_step += key * key;  // W_o over the concatenated contexts
  r.per_step += src_len * key;             // context = sum_i a_i v_i
  // The scorer of each head, from its registry entry.
  const auto scorer = model::scorer_spec(a.scorer).macs(sizes.scorer);
  r.per_source_position += heads * scorer.per_key;
  r.per_step += heads * (scorer.per_query + src_len * scorer.per_pair);
  return r;
}

}  // namespace

BatchShape batch_shape(const batching::Batch& batch) {
  BatchShape s;
  s.batch = batch.size();
  s.src_len = batch.src.size(1);
  s.src_tokens = batch.src_lengths.sum().item<int64_t>();
  // The decoder runs one step per target token after <s>: tgt_out's real tokens.
  s.tgt_steps = batch.target_tokens;
  return s;
}

// Multiply-adds (MACs) of one forward pass. E embedding, H hidden, L layers, V target
// vocabulary, Dm = 2H encoder state, A attention size, m heads, C context size, B S T the batch
// shape, n the real source tokens. Embedding lookups, additions, nonlinearities and softmaxes
// count as free; a matrix [p, q] times a vector costs p q.
//   encoder biGRU:  n x 2 directions x 3 gates x H (I + H) per layer (input and hidden
//                   products), I = E for the first layer and 2H above; packed, so padding is free
//   self-attention: B S 4 Dm^2 (W_q W_k W_v W_o) + B S^2 2 Dm (scores and mixing), if on
//   bridge:         B Dm L H (tanh bridge)
//   attention:      key side once per padded source position (B S), query projection and
//                   scorer x S once per decoder step; see attention_macs and the scorers'
//                   registry (model/scorer.cpp)
//   decoder GRU:    3H (I + H) per layer and step, I = E + C (bahdanau) or E + H (luong) first,
//                   H above
//   luong combine:  (C + H) H per step
//   output layer:   F V per step, F = H + C + E (bahdanau) or H (luong); tied embeddings:
//                   F E + E V
// The decoder runs one step per real target token (n_t rows at step t; padding is skipped).
// Training counts backward as twice the forward (input and weight gradients), and 2 FLOPs per
// MAC, so training FLOPs = 3 x 2 x MACs.
int64_t forward_macs(const config::ModelConfig& m, int64_t tgt_vocab, const BatchShape& s) {
  const int64_t E = m.emb_size, H = m.hidden_size, Dm = 2 * H;
  int64_t macs = 0;
  for (int64_t l = 0; l < m.encoder.layers; ++l) {
    macs += s.src_tokens * 2 * 3 * H * ((l == 0 ? E : Dm) + H);
  }
  if (m.encoder.self_attention) macs += s.batch * s.src_len * (4 * Dm * Dm + 2 * s.src_len * Dm);
  if (config::bridge(m.decoder) == config::Bridge::kTanh)
    macs += s.batch * Dm * m.decoder.layers * H;
  AttentionMacs att;
  att.context_size = Dm;  // without attention the context is the encoder summary
  if (config::uses_attention(m)) att = attention_macs(m, s.src_len);
  macs += s.batch * s.src_len * att.per_source_position;
  const int64_t C = att.context_size;
  const bool luong = config::decoder_style(m.decoder) == config::DecoderStyle::kLuong;
  int64_t per_step = att.per_step;
  for (int64_t l = 0; l < m.decoder.layers; ++l) {
    per_step += 3 * H * ((l == 0 ? E + (luong ? H : C) : H) + H);
  }
  if (luong) per_step += (C + H) * H;
  const int64_t F = luong ? H : H + C + E;
  per_step += m.decoder.tie_embeddings ? F * E + E * tgt_vocab : F * tgt_vocab;
  return macs + s.tgt_steps * per_step;
}

}  // namespace s2s::experiments
