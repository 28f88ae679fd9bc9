#pragma once
// The run directory: everything needed to evaluate, translate or resume a run.
//   config.json            resolved config (after --set overrides)
//   src_vocab.txt, tgt_vocab.txt
//   checkpoints/last.pt, checkpoints/best.pt (and pending.pt, a periodic save not yet
//                          confirmed by the next step's loss)
//   metrics.jsonl          one JSON object per log or validation event
//   train.log              the training log
//   train.lock             held by the training running in it (its PID)
//   manifest.json          the files this program wrote (run/manifest.h)
//   <split>.hyp, <split>.scores.json   outputs of each evaluation
// checkpoint/load_run.h loads a run to decode.

#include <string>

#include "config/config.h"
#include "data/corpus.h"

namespace s2s::run {

struct RunPaths {
  explicit RunPaths(std::string run_dir) : dir(std::move(run_dir)) {}
  std::string dir;
  std::string config() const { return dir + "/config.json"; }
  std::string src_vocab() const { return dir + "/src_vocab.txt"; }
  std::string tgt_vocab() const { return dir + "/tgt_vocab.txt"; }
  std::string checkpoints() const { return dir + "/checkpoints"; }
  std::string checkpoint(const std::string& name) const {
    return checkpoints() + "/" + name + ".pt";
  }
  std::string metrics() const { return dir + "/metrics.jsonl"; }
  std::string log() const { return dir + "/train.log"; }
  std::string lock() const { return dir + "/train.lock"; }
  // Member k (from 1) of an ensemble trained into this directory (training.members).
  std::string member(int64_t k) const { return dir + "/member" + std::to_string(k); }
  // `full` relative to the run directory ("checkpoints/last.pt"), for the manifest.
  std::string relative(const std::string& full) const { return full.substr(dir.size() + 1); }
};

// Describes the architecture a checkpoint fits: the model config and the vocabulary sizes.
std::string model_signature(const config::ModelConfig& model, int64_t src_vocab_size,
                            int64_t tgt_vocab_size, bool learned_baseline = false);

// The corpus of `path` (a split of the config's data: train, valid or test) as reader input.
data::CorpusSpec corpus_spec(const config::DataConfig& data, const std::string& path);

}  // namespace s2s::run
