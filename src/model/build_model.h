#pragma once
// The only place where the config becomes module options.

#include "config/config.h"
#include "model/seq2seq.h"

namespace s2s::model {

// Builds and initializes the model (config already validated).
Seq2Seq build_model(const config::ModelConfig& config, int64_t src_vocab_size,
                    int64_t tgt_vocab_size);

// Number of trainable parameters.
int64_t count_parameters(const torch::nn::Module& model);

}  // namespace s2s::model
