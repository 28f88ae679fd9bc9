#pragma once
// A trained run, ready to decode: the config, vocabularies and tokenizers of a run directory
// (run/run_dir.h) and its model with the weights of one of its checkpoints, or an ensemble of
// several checkpoints and runs that share vocabularies and tokenization (eval/ensemble.h).

#include <torch/torch.h>

#include <memory>
#include <string>
#include <vector>

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
  model::Seq2Seq model{nullptr};          // the first (or only) model
  std::vector<model::Seq2Seq> members;    // every model decoded, `model` first
  std::vector<std::string> member_names;  // per member: RUN/checkpoints/NAME.pt
  torch::Device device = torch::kCPU;
  device::PrecisionChoice precision;  // evaluation.precision on this device
};

// What checkpoints of `run` must fit: run::model_signature of its config and vocabularies.
std::string run_signature(const LoadedRun& run);

// Reads config, vocabularies and checkpoints/<checkpoint>.pt ("best", "last", "step_N", or a
// name `s2s average` wrote); the model is in eval mode on the config's device. A directory
// without config.json is "not a run directory"; missing or broken files are InputErrors naming
// them.
// `precision`: the decoding precision ("auto", "fp32", "bf16", "int8"; checked by the caller)
// instead of the config's evaluation.precision, "" for the config's; a precision this device
// does not offer is a ConfigError naming --precision or evaluation.precision.
LoadedRun load_run(const std::string& run_dir, const std::string& checkpoint = "best",
                   const std::string& precision = "");

// An ensemble: each checkpoint of `checkpoints` of each run of `run_dirs`, in that order
// (members = runs x checkpoints). The config, vocabularies, tokenizers, device and precision
// are the first run's; each member keeps its own architecture. A run whose vocabularies or
// tokenization (tokenizer, lower-casing, SentencePiece models) differ from the first run's is
// refused with an InputError naming both runs and what differs. One run and one checkpoint is
// load_run, `precision` as there.
LoadedRun load_ensemble(const std::vector<std::string>& run_dirs,
                        const std::vector<std::string>& checkpoints,
                        const std::string& precision = "");

// What keeps the runs in `a_dir` and `b_dir` from decoding as an ensemble (their vocabularies or
// tokenization, as load_ensemble checks them), or "" when nothing does. Loads no model.
std::string ensemble_difference(const std::string& a_dir, const std::string& b_dir);

}  // namespace s2s::checkpoint
