#pragma once
// Memory estimates from sizes alone, so that a batch or a search too large for the machine is
// refused at start-up, naming the key to change, instead of swapping or ending in a raw
// allocator error hours later (data.max_len = 0 with a 1 MB line asked for 5.3 GB and more).
//
// They count the tensors that grow with the batch, in fp32, and leave out the constant terms
// and workspace: a lower estimate, so that what they refuse cannot fit, while a refusal of a
// configuration that would have run stays unlikely.
//
// Legend: B sentences in a batch, S source length, T target length (both padded, with </s>),
// E emb_size, H hidden_size, m attention heads, V target vocabulary.

#include <cstdint>

#include "config/config.h"

namespace s2s::model {

// The padded shape of one batch.
struct BatchExtent {
  int64_t batch = 0;    // B
  int64_t src_len = 0;  // S
  int64_t tgt_len = 0;  // T
};

// Bytes that autograd keeps from the forward pass of one training step for the backward, plus
// the gradient of the logits: per sentence
//   S (E + 10 H)      embeddings, both encoder directions' gates and states
//   T (E + 8 H + 2 V) decoder gates and states, context, logits and their gradient
//   T S (2 m)         attention scores and weights of every decoder step
double training_step_bytes(const config::ModelConfig& model, int64_t tgt_vocab,
                           const BatchExtent& extent);

// What a search of one batch holds at its longest (B sentences, K hypotheses each, at most T
// decoder steps, S source positions): per hypothesis
//   S (2 H)           the encoder states and keys, repeated for each hypothesis
//   3 V               one step's logits, log-probabilities and the candidates ranked over them
//   4 T               the token and back-pointer (int64) of every step
//   T m S (x 2)       the attention rows kept for every step, and their copy at the end
// (attention only when `keeps_attention`).
double search_bytes(const config::ModelConfig& model, int64_t tgt_vocab, int64_t batch,
                    int64_t beam, int64_t src_len, int64_t max_steps, bool keeps_attention);

}  // namespace s2s::model
