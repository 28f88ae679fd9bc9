#include "model/seq2seq.h"

namespace s2s::model {

Seq2SeqImpl::Seq2SeqImpl(const EncoderOptions& enc, const DecoderOptions& dec,
                         bool learned_baseline)
    : encoder(register_module("encoder", Encoder(enc))),
      decoder(register_module("decoder", Decoder(dec))) {
  if (learned_baseline) {
    baseline = register_module("baseline", torch::nn::Linear(dec.encoder_size(), 1));
  }
}

EncodedBatch Seq2SeqImpl::encode(const torch::Tensor& src, const torch::Tensor& src_lengths) {
  const auto encoded = encoder(src, src_lengths);

  return {decoder->prepare(encoded), decoder->initial_state(encoded), encoded.mask};
}

ForwardOutput Seq2SeqImpl::forward(const torch::Tensor& src, const torch::Tensor& src_lengths,
                                   const torch::Tensor& tgt_in, double teacher_forcing,
                                   bool keep_attention) {
  const auto encoded = encoder(src, src_lengths);
  auto memory = decoder->prepare(encoded);
  auto state = decoder->initial_state(encoded);
  const int64_t steps = tgt_in.size(1);
  const bool always_gold = teacher_forcing >= 1.0;
  std::vector<torch::Tensor> features, logits, attention, log_probs, entropies;
  features.reserve(static_cast<std::size_t>(steps));
  torch::Tensor prev = tgt_in.select(1, 0);
  for (int64_t t = 0; t < steps; ++t) {
    auto out = decoder->step(prev, state, memory);
    if (keep_attention && out.attention.defined()) attention.push_back(out.attention);
    if (out.log_prob.defined()) {
      log_probs.push_back(out.log_prob);
      entropies.push_back(out.entropy);
    }
    if (always_gold) {
      // The output layer runs once over all steps after the loop: one large product.
      features.push_back(out.features);
      if (t + 1 < steps) prev = tgt_in.select(1, t + 1);
      continue;
    }
    logits.push_back(decoder->logits(out.features));
    if (t + 1 < steps) {
      const auto gold =
          torch::rand({prev.size(0)}, tgt_in.options().dtype(torch::kFloat)) < teacher_forcing;
      prev = torch::where(gold, tgt_in.select(1, t + 1), logits.back().argmax(/*dim=*/-1));
    }
  }
  ForwardOutput result;
  result.logits = always_gold ? decoder->logits(torch::stack(features, /*dim=*/1))
                              : torch::stack(logits, /*dim=*/1);
  if (!attention.empty()) result.attention = torch::stack(attention, /*dim=*/1);
  if (!log_probs.empty()) {
    result.sample_log_prob = torch::stack(log_probs, /*dim=*/1);
    result.attention_entropy = torch::stack(entropies, /*dim=*/1);
  }
  if (baseline) result.baseline = baseline(encoded.final.detach()).squeeze(1);
  return result;
}

}  // namespace s2s::model
