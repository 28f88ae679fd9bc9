#pragma once
// One optimizer update, exactly as the trainer makes it and the benchmark times it:
//   forward (teacher forcing), label-smoothed cross-entropy per target token,
//   + the REINFORCE term / tokens for hard attention trained by sampling (train/reinforce.h),
//   + lambda x the coverage loss / tokens (training.coverage_loss, train/attention_loss.h),
//   + lambda_t x the guided alignment loss / tokens when the batch has gold alignments
//     (training.guided_alignment, train/guided_alignment.h),
//   finite check, backward, global gradient-norm clipping, optimizer step.

#include <torch/torch.h>

#include <unordered_set>

#include "batching/batch.h"
#include "config/config.h"
#include "device/device.h"
#include "device/precision.h"
#include "model/seq2seq.h"
#include "train/distributed.h"
#include "train/reinforce.h"

namespace s2s::train {

struct StepResult {
  double loss = 0.0;         // mean (label-smoothed) cross-entropy per target token
  bool finite = true;        // false: the loss was not finite, and no update was made
  ReinforceStats reinforce;  // filled for hard attention trained by sampling
  int64_t tokens = 0;        // target tokens of the step, over every rank
  int interrupt = 0;         // a signal any rank received (several processes), else 0
};

class TrainStep {
 public:
  // `precision`: fp32, or bf16 mixed precision (device/precision.h) for the forward pass and the
  // loss; the backward pass follows the forward's dtypes and the weights stay fp32.
  TrainStep(const config::Config& config, torch::Device device, device::Precision precision,
            Distributed* distributed = nullptr);

  // Updates `model` with `optimizer` on `batch`; `reinforce_state` is what REINFORCE carries
  // from step to step (train/reinforce.h; unused otherwise).
  // With several processes, `interrupt` (a signal this rank received, or 0) travels with the
  // step's counts so that every rank learns of it at the same step. `step`: the update's index
  // (from 0), which the guided alignment weight's decay follows.
  StepResult operator()(model::Seq2Seq& model, torch::optim::Optimizer& optimizer,
                        const batching::Batch& batch, std::vector<double>& reinforce_state,
                        int interrupt = 0, int64_t step = 0) const;

  // Sentences the model decodes per batch row: K for leave-one-out REINFORCE, else 1.
  int64_t rows_per_sentence() const;

 private:
  // The attention losses' sum, each x lambda / tokens (0 when neither applies).
  torch::Tensor attention_losses(const torch::Tensor& attention, const batching::Batch& batch,
                                 int64_t k, int64_t tokens, int64_t step) const;
  bool uses_attention_losses(const batching::Batch& batch, int64_t step) const;
  // Global gradient-norm clipping of every parameter but the learned REINFORCE baseline's: the
  // fused Adam applies the coefficient inside its update (train/adam.h), others get mul_.
  void clip_gradients(model::Seq2Seq& model, torch::optim::Optimizer& optimizer) const;

  // After backward: a zero gradient for every parameter that had one at an earlier step and got
  // none at this one, as optimizer.zero_grad() leaves them (the optimizer then still updates
  // it, and every rank all-reduces the same gradients).
  void keep_zero_gradients(torch::optim::Optimizer& optimizer) const;

  config::TrainingConfig training_;
  bool samples_attention_;  // hard attention trained with REINFORCE
  config::GuidedAlignmentLoss guided_loss_;
  config::AlignmentHeads guided_heads_;
  Reinforce reinforce_;
  torch::Device device_;
  device::Precision precision_;
  Distributed* distributed_;
  // One thread per free core, re-checked as steps run: how fast a step runs, not what it does.
  mutable device::LoadFollowingThreads threads_;
  mutable std::unordered_set<const c10::TensorImpl*> had_gradient_;  // keep_zero_gradients()
};

}  // namespace s2s::train
