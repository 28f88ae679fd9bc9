#pragma once
// Losses on the attention weights themselves, added to the cross-entropy of a training step
// (train/train_step.h), each divided by the step's target tokens as the cross-entropy is.
//
// Shapes: B sentences, T target steps, m heads, S source positions.

#include <torch/torch.h>

#include <cstdint>

#include "config/choices.h"
#include "config/config.h"

namespace s2s::train {

// See et al. 2017 (eqs. 12-13): covloss_t = sum_i min(a_ti, c_ti) with the coverage
// c_t = sum_{tau<t} a_tau, the attention position i has had before step t. It is 0 while every
// step attends where no step has before, and grows with repeated attention (the repetition it
// penalizes). attention [B, T, m, S], zero at padded steps -> sum over sentences and steps,
// mean over heads (a scalar; the caller scales it by lambda / tokens).
torch::Tensor coverage_loss(const torch::Tensor& attention);

// Guided alignment (Chen et al. 2016, sec. 3; Marian's guided-alignment-cost): attention a
// against the gold alignment G [B, T, S] (train/guided_alignment.h: each linked target step's
// row sums to 1, other rows are 0), over the steps the gold links:
//   ce:  -sum_t sum_i G_ti log(a_ti + 1e-6)      (the epsilon keeps sparse zeros finite)
//   mse:  sum_t sum_i (a_ti - G_ti)^2 / 2         (rows without gold links left out)
// a is the heads' mean, or head 0 alone (`heads`). attention [B, T, m, S] -> a scalar summed
// over sentences and steps (the caller scales it by lambda / tokens).
torch::Tensor guided_alignment_loss(const torch::Tensor& attention, const torch::Tensor& gold,
                                    config::GuidedAlignmentLoss loss, config::AlignmentHeads heads);

// lambda at update `step`: training.guided_alignment.weight, falling linearly to 0 at
// decay_steps when that is > 0.
double guided_alignment_weight(const config::GuidedAlignmentConfig& guided, int64_t step);

}  // namespace s2s::train
