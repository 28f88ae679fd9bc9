#pragma once
// One optimizer update, exactly as the trainer makes it and the benchmark times it:
//   forward (teacher forcing), label-smoothed cross-entropy per target token,
//   + the REINFORCE term / tokens for hard attention trained by sampling (train/reinforce.h),
//   finite check, backward, global gradient-norm clipping, optimizer step.

#include <torch/torch.h>

#include "config/config.h"
#include "model/seq2seq.h"
#include "run/batch.h"
#include "train/reinforce.h"

namespace s2s::train {

struct StepResult {
  double loss = 0.0;         // mean (label-smoothed) cross-entropy per target token
  bool finite = true;        // false: the loss was not finite, and no update was made
  ReinforceStats reinforce;  // filled for hard attention trained by sampling
};

class TrainStep {
 public:
  explicit TrainStep(const config::Config& config);

  // Updates `model` with `optimizer` on `batch`; `baseline` is the moving-average REINFORCE
  // baseline carried from step to step (unused otherwise).
  StepResult operator()(model::Seq2Seq& model, torch::optim::Optimizer& optimizer,
                        const run::Batch& batch, double& baseline) const;

  // Sentences the model decodes per batch row: K for leave-one-out REINFORCE, else 1.
  int64_t rows_per_sentence() const;

 private:
  config::TrainingConfig training_;
  bool samples_attention_;  // hard attention trained with REINFORCE
  Reinforce reinforce_;
};

}  // namespace s2s::train
