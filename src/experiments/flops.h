#pragma once
// The FLOP model of `s2s bench`: multiply-adds (MACs) of one forward pass of the model a config
// describes, over a batch of a given shape, so that the measured speed can be read as a fraction
// of the machine's matrix-product peak.

#include <cstdint>
#include <vector>

#include "batching/batch.h"
#include "config/config.h"

namespace s2s::experiments {

// What one padded batch looks like to the model.
struct BatchShape {
  int64_t batch = 0;       // B
  int64_t src_len = 0;     // S, padded
  int64_t src_tokens = 0;  // sum of the real source lengths: the packed encoder sees only these
  int64_t tgt_steps = 0;   // decoder steps actually run: a row leaves the batch when it ends
};

// The shape of a training batch.
BatchShape batch_shape(const batching::Batch& batch);

// Multiply-adds of one forward pass of the model described by `model` (vocabulary sizes
// included) over a batch of `shape`; see flops.cpp for the term of every layer.
int64_t forward_macs(const config::ModelConfig& model, int64_t tgt_vocab, const BatchShape& shape);

}  // namespace s2s::experiments
