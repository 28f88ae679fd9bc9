#pragma once
// The only place where the config becomes module options.

#include "config/config.h"
#include "model/seq2seq.h"

namespace s2s::model {

// Builds and initializes the model (config already validated). `reinforce` matters only for
// hard attention trained by sampling: p_expect, and whether the model carries a learned baseline.
Seq2Seq build_model(const config::ModelConfig& config, int64_t src_vocab_size,
                    int64_t tgt_vocab_size, const config::ReinforceConfig& reinforce = {});

// True when the model needs a learned REINFORCE baseline (hard = sample, baseline = learned).
bool has_learned_baseline(const config::ModelConfig& model,
                          const config::ReinforceConfig& reinforce);

// Number of trainable parameters.
int64_t count_parameters(const torch::nn::Module& model);

// The parameters build_model would allocate, computed from the sizes alone (as a double: a
// mistyped size can ask for more than int64 holds), so that a model too large for the machine
// is refused before any allocation.
double expected_parameters(const config::ModelConfig& model, int64_t src_vocab_size,
                           int64_t tgt_vocab_size, const config::ReinforceConfig& reinforce = {});

}  // namespace s2s::model
