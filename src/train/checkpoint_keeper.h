#pragma once
// The checkpoints of a training in its run directory (checkpoints/*.pt):
//   last.pt     the last good weights: written at step 0, at every validation and on an
//               interrupt; what --resume continues from;
//   pending.pt  a periodic save (training.checkpoint_every, checkpoint_every_minutes), promoted
//               to last.pt only once the next step's loss, computed with those weights, has come
//               out finite: a diverged model never becomes last.pt;
//   best.pt     the weights of the best validation;
//   step_N.pt   every validation's weights (training.keep_step_checkpoints), which the end of
//               training averages into average_last.pt (training.average_last).
// Rank 0 alone writes: on the other ranks of a distributed training every save does nothing.

#include <torch/torch.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "checkpoint/checkpoint.h"
#include "config/config.h"
#include "model/seq2seq.h"
#include "train/training_run_dir.h"

namespace s2s::train {

class CheckpointKeeper {
 public:
  // Keeps the checkpoints of `model` and `optimizer` (which outlive it) in `run_dir`;
  // `signature`: run::model_signature of the model; `vocabularies` (which outlive it too): the
  // run's, whose checksums every checkpoint stores; `writes`: false on the ranks other than 0.
  CheckpointKeeper(const config::TrainingConfig& training, const TrainingRunDir& run_dir,
                   model::Seq2Seq model, torch::optim::Optimizer& optimizer, std::string signature,
                   checkpoint::Vocabularies vocabularies, bool writes);

  // --resume: loads last.pt into the model and the optimizer (and the RNG); its training state.
  checkpoint::TrainingState resume();

  // Writes checkpoints/<name>.pt with `state` and records it in the manifest.
  void save(const std::string& name, const checkpoint::TrainingState& state);
  // After a step without validation: last.pt takes pending.pt's weights, those of the step
  // before, which this step's finite loss confirmed.
  void promote_pending();
  // Whether a periodic save is due after `step`: a pending.pt then.
  bool periodic_due(int64_t step) const;
  // Divergence, interrupt, or a validation's newer last.pt: pending.pt is not kept.
  void discard_pending();
  // training.checkpoint_every_minutes counts from now.
  void restart_clock() { last_save_time_ = std::chrono::steady_clock::now(); }

  // The step of checkpoints/last.pt.
  int64_t last_saved_step() const { return last_saved_step_; }

  // training.average_last: the step checkpoints averaged into average_last.pt (none: too few
  // kept, or not rank 0).
  std::vector<std::string> average_at_end() const;

 private:
  config::TrainingConfig training_;
  const TrainingRunDir& run_dir_;
  model::Seq2Seq model_;
  torch::optim::Optimizer& optimizer_;
  std::string signature_;
  checkpoint::Vocabularies vocabularies_;
  bool writes_;
  int64_t last_saved_step_ = -1;  // the step of checkpoints/last.pt
  int64_t pending_step_ = -1;     // the step of checkpoints/pending.pt, -1 if none
  std::chrono::steady_clock::time_point last_save_time_ = std::chrono::steady_clock::now();
};

}  // namespace s2s::train
