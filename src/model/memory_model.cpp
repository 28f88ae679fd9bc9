#include "model/memory_model.h"

namespace s2s::model {
namespace {

constexpr double kFloatBytes = 4.0;

double heads_of(const config::ModelConfig& model) {
  return config::uses_attention(model) ? static_cast<double>(model.attention.heads) : 0.0;
}

}  // namespace

double training_step_bytes(const config::ModelConfig& model, int64_t tgt_vocab,
                           const BatchExtent& extent) {
  const auto E = static_cast<double>(model.emb_size), H = static_cast<double>(model.hidden_size);
  const auto V = static_cast<double>(tgt_vocab), m = heads_of(model);
  const auto S = static_cast<double>(extent.src_len), T = static_cast<double>(extent.tgt_len);
  const double per_sentence = S * (E + 10 * H) + T * (E + 8 * H + 2 * V) + T * S * 2 * m;
  return kFloatBytes * static_cast<double>(extent.batch) * per_sentence;
}

double search_bytes(const config::ModelConfig& model, int64_t tgt_vocab, int64_t batch,
                    int64_t beam, int64_t src_len, int64_t max_steps, bool keeps_attention) {
  const auto H = static_cast<double>(model.hidden_size), V = static_cast<double>(tgt_vocab);
  const auto S = static_cast<double>(src_len), T = static_cast<double>(max_steps);
  const double attention = keeps_attention ? 2 * T * heads_of(model) * S : 0.0;
  const double per_hypothesis = S * 2 * H + 3 * V + 4 * T + attention;
  return kFloatBytes * static_cast<double>(batch) * static_cast<double>(beam) * per_hypothesis;
}

}  // namespace s2s::model
