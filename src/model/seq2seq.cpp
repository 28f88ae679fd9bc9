#include "model/seq2seq.h"

namespace s2s::model {

Seq2SeqImpl::Seq2SeqImpl(const EncoderOptions& enc, const DecoderOptions& dec)
    : encoder(register_module("encoder", Encoder(enc))),
      decoder(register_module("decoder", Decoder(dec))) {}

EncodedBatch Seq2SeqImpl::encode(const torch::Tensor& src, const torch::Tensor& src_lengths) {
  const auto encoded = encoder(src, src_lengths);
  return {decoder->prepare(encoded), decoder->initial_state(encoded), encoded.mask};
}

ForwardOutput Seq2SeqImpl::forward(const torch::Tensor& src, const torch::Tensor& src_lengths,
                                   const torch::Tensor& tgt_in, double teacher_forcing,
                                   bool keep_attention) {
  auto batch = encode(src, src_lengths);
  const int64_t steps = tgt_in.size(1);
  const bool always_gold = teacher_forcing >= 1.0;
  std::vector<torch::Tensor> features, logits, attention;
  features.reserve(static_cast<std::size_t>(steps));
  torch::Tensor prev = tgt_in.select(1, 0);
  for (int64_t t = 0; t < steps; ++t) {
    auto out = decoder->step(prev, batch.state, batch.memory);
    if (keep_attention && out.attention.defined()) attention.push_back(out.attention);
    if (always_gold) {
      // The output layer runs once over all steps after the loop: one large product.
      features.push_back(out.features);
      if (t + 1 < steps) prev = tgt_in.select(1, t + 1);
      continue;
    }
    logits.push_back(decoder->logits(out.features));
    if (t + 1 < steps) {
      const auto gold = torch::rand({prev.size(0)}, tgt_in.options().dtype(torch::kFloat)) <
                        teacher_forcing;
      prev = torch::where(gold, tgt_in.select(1, t + 1), logits.back().argmax(/*dim=*/-1));
    }
  }
  ForwardOutput result;
  result.logits = always_gold ? decoder->logits(torch::stack(features, /*dim=*/1))
                              : torch::stack(logits, /*dim=*/1);
  if (!attention.empty()) result.attention = torch::stack(attention, /*dim=*/1);
  return result;
}

}  // namespace s2s::model
