#pragma once
// Losses on the attention weights themselves, added to the cross-entropy of a training step
// (train/train_step.h), each divided by the step's target tokens as the cross-entropy is.
//
// Shapes: B sentences, T target steps, m heads, S source positions.

#include <torch/torch.h>

namespace s2s::train {

// See et al. 2017 (eqs. 12-13): covloss_t = sum_i min(a_ti, c_ti) with the coverage
// c_t = sum_{tau<t} a_tau, the attention position i has had before step t. It is 0 while every
// step attends where no step has before, and grows with repeated attention (the repetition it
// penalizes). attention [B, T, m, S], zero at padded steps -> sum over sentences and steps,
// mean over heads (a scalar; the caller scales it by lambda / tokens).
torch::Tensor coverage_loss(const torch::Tensor& attention);

}  // namespace s2s::train
