#pragma once
// Weight initialization, chosen by `model.init`.
//
// xavier_uniform / xavier_normal (Glorot & Bengio 2010): Var(w) = 2 / (n_in + n_out), so that
// activations and gradients keep their variance through a layer. A GRU stores its three gates
// stacked as one [3H, I] matrix; plain Xavier on it would use n_out = 3H and shrink the variance
// by a third, so each [H, I] gate block is initialized on its own. Biases start at zero and the
// embeddings' padding rows at zero.

#include <torch/torch.h>

#include <string>

namespace s2s::model {

// scale: half-width of "uniform" or standard deviation of "normal"; unused by Xavier.
void initialize(torch::nn::Module& model, const std::string& method, double scale);

}  // namespace s2s::model
