#pragma once
// Dropout (Srivastava et al. 2014) with a counter-based mask: y = x * m / (1 - p), m_i ~
// Bernoulli(1 - p), as torch::nn::Dropout computes it, with the mask drawn differently.
//
// Why: LibTorch's CPU bernoulli_ draws each element from the default generator under its lock
// (~12 ns an element): on the reference model two embedding dropouts took 2.6% of a training
// step. Here one 64-bit draw from the default generator seeds the call, and element pairs
// (2j, 2j + 1) take the two halves of splitmix64(seed + j): keep where the 32-bit half is below
// (1 - p) 2^32. The mask is a function of the seed and the position only, so it is the same
// for any number of threads, and torch::manual_seed still fixes every mask.

#include <torch/torch.h>

namespace s2s::model {

// x unchanged when !training or p == 0; x * 0 when p == 1 (as LibTorch's dropout).
torch::Tensor dropout(const torch::Tensor& x, double p, bool training);

// The module's p and training mode (the modules stay for their options and train()/eval()).
torch::Tensor dropout(const torch::nn::Dropout& module, const torch::Tensor& x);

// The mask m / (1 - p) alone, [n] fp32 from `seed`: what dropout() multiplies by.
torch::Tensor dropout_mask(int64_t n, double p, uint64_t seed);

}  // namespace s2s::model
