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
  // Only real target positions are decoded: logits has one row per (sentence, step) whose target
  // token is not <pad>, N in all, time-major; token_index says where each row belongs in [B, T].
  torch::Tensor logits;       // [N, V]
  torch::Tensor token_index;  // [N] b * T + t
  torch::Tensor attention;    // [B, T, m, S], zero at padded steps; undefined unless asked for
  // Hard attention only:
  torch::Tensor sample_log_prob;  // [B, T] sum over heads of log a_t[s_t] (0 where soft or padded)
  torch::Tensor attention_entropy;  // [B, T] entropy of a_t, summed over heads
  torch::Tensor baseline;           // [B, T] learned REINFORCE baseline b_t, if the model has one
};

// What search needs after encoding a batch.
struct EncodedBatch {
  DecoderMemory memory;
  DecoderState state;
  torch::Tensor mask;  // [B, S]
};

class Seq2SeqImpl : public torch::nn::Module {
 public:
  // learned_baseline: a linear REINFORCE baseline per decoder step, b_t = w^T q_t + c on the
  // (detached) attention query q_t [H], which knows the sentence and the words so far but not
  // step t's sample; fitted by squared error to the reward step t is credited with.
  Seq2SeqImpl(const EncoderOptions& encoder, const DecoderOptions& decoder,
              bool learned_baseline = false);

  EncodedBatch encode(const torch::Tensor& src, const torch::Tensor& src_lengths);

  // Training pass. tgt_in [B, T] starts with <s>. With teacher_forcing < 1 each step feeds
  // the gold token with that probability and the model's own argmax otherwise. Rows are
  // decoded sorted by target length so that a row leaves the batch once its target has ended;
  // every output comes back in the caller's row order.
  ForwardOutput forward(const torch::Tensor& src, const torch::Tensor& src_lengths,
                        const torch::Tensor& tgt_in, double teacher_forcing = 1.0,
                        bool keep_attention = false);

  Encoder encoder{nullptr};
  Decoder decoder{nullptr};
  torch::nn::Linear baseline{nullptr};
};
TORCH_MODULE(Seq2Seq);

}  // namespace s2s::model
