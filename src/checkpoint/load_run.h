#pragma once
// A trained run, ready to decode: the config, vocabularies and tokenizers of a run directory
// (run/run_dir.h) and its model with the weights of one of its checkpoints.

#include <torch/torch.h>

#include <memory>
#include <string>

#include "config/config.h"
#include "data/tokenizer.h"
#include "data/vocab.h"
#include "device/precision.h"
#include "model/seq2seq.h"

namespace s2s::checkpoint {

struct LoadedRun {
  config::Config config;
  data::Vocab src_vocab, tgt_vocab;
  std::unique_ptr<data::Tokenizer> src_tokenizer, tgt_tokenizer;
  model::Seq2Seq model{nullptr};
  torch::Device device = torch::kCPU;
  device::PrecisionChoice precision;  // evaluation.precision on this device
};

// What checkpoints of `run` must fit: run::model_signature of its config and vocabularies.
std::string run_signature(const LoadedRun& run);

// Reads config, vocabularies and checkpoints/<checkpoint>.pt ("best", "last", "step_N", or a
// name `s2s average` wrote); the model is in eval mode on the config's device. A directory
// without config.json is "not a run directory"; missing or broken files are InputErrors naming
// them.
LoadedRun load_run(const std::string& run_dir, const std::string& checkpoint = "best");

}  // namespace s2s::checkpoint
