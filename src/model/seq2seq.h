#pragma once
// The encoder-decoder: encode once, then run the decoder step by step.
//
// Shapes: B batch, S source length, T target length (with </s>), V target vocabulary,
// m attention heads.

#include <torch/torch.h>

#include "model/decoder.h"
#include "model/encoder.h"

namespace s2s::model {

struct ForwardOutput {
  torch::Tensor logits;     // [B, T, V]
  torch::Tensor attention;  // [B, T, m, S]; undefined without attention
};

// What search needs after encoding a batch.
struct EncodedBatch {
  DecoderMemory memory;
  DecoderState state;
  torch::Tensor mask;  // [B, S]
};

class Seq2SeqImpl : public torch::nn::Module {
 public:
  Seq2SeqImpl(const EncoderOptions& encoder, const DecoderOptions& decoder);

  EncodedBatch encode(const torch::Tensor& src, const torch::Tensor& src_lengths);

  // Training pass. tgt_in [B, T] starts with <s>. With teacher_forcing < 1 each step feeds
  // the gold token with that probability and the model's own argmax otherwise.
  ForwardOutput forward(const torch::Tensor& src, const torch::Tensor& src_lengths,
                        const torch::Tensor& tgt_in, double teacher_forcing = 1.0,
                        bool keep_attention = false);

  Encoder encoder{nullptr};
  Decoder decoder{nullptr};
};
TORCH_MODULE(Seq2Seq);

}  // namespace s2s::model
