#pragma once
// Weight initialization, chosen by `model.init`.
//
// pytorch: each layer keeps the initialization LibTorch gives it, which is PyTorch's: GRU
// weights and biases U(-1/sqrt(H), 1/sqrt(H)), embeddings N(0, 1), linear layers
// U(-1/sqrt(n_in), 1/sqrt(n_in)) (Kaiming-uniform with a = sqrt(5)) for weights and biases;
// target embeddings tied to the output layer N(0, 1/E) instead (model/decoder.cpp says why).
//
// xavier_uniform / xavier_normal (Glorot & Bengio 2010): Var(w) = 2 / (n_in + n_out), so that
// activations and gradients keep their variance through a layer. A GRU stores its three gates
// stacked as one [3H, I] matrix; plain Xavier on it would use n_out = 3H and shrink the variance
// by a third, so each [H, I] gate block is initialized on its own. Biases start at zero and the
// embeddings' padding rows at zero.

#include <torch/torch.h>

#include <string>
#include <vector>

namespace s2s::model {

// One initialization of a weight matrix; `scale` is the half-width of "uniform" or the standard
// deviation of "normal", unused by Xavier.
struct InitScheme {
  const char* name;
  void (*init)(torch::Tensor weight, double scale);
};

// The registry, in the order help texts and errors list it.
const std::vector<InitScheme>& init_registry();
std::vector<std::string> init_names();

// Initializes every parameter of `model` with the scheme named `method` (TORCH_CHECK; config
// validation rejects unknown names earlier).
void initialize(torch::nn::Module& model, const std::string& method, double scale);

}  // namespace s2s::model
