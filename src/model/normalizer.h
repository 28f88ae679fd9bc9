#pragma once
// Attention normalizers a = normalize(s): map the scores s [N, S] of N rows over S source
// positions to weights on the probability simplex (a_i >= 0, sum_i a_i = 1). One explicit
// registry (normalizer_registry) names them, as scorer_registry names the scorers.
//
//   softmax   a_i = exp(s_i) / sum_j exp(s_j): dense, every weight > 0.
//   sparsemax a = argmin_{p in simplex} ||p - s||^2 (Martins & Astudillo 2016, eq. 2): the
//             Euclidean projection onto the simplex, a_i = [s_i - tau]_+ with tau such that the
//             weights sum to 1. Positions scoring below tau get exactly 0.
//   entmax15  1.5-entmax (Peters, Niculae & Martins 2019, eq. 10 with alpha = 1.5):
//             a_i = [s_i / 2 - tau]_+^2, between the two: sparse, but smoother than sparsemax.
//
// Both sparse maps are computed exactly from one sort of each row (Martins & Astudillo 2016,
// Algorithm 1; Peters et al. 2019, Algorithm 2), and their backward passes are the closed forms,
// not autograd through the sort. With J = da/ds, g the gradient of the weights and S the
// support {i : a_i > 0}:
//   sparsemax  (J^T g)_i = [i in S] (g_i - mean_{j in S} g_j)                 (M&A eq. 14)
//   entmax15   (J^T g)_i = r_i g_i - r_i (sum_j r_j g_j) / sum_j r_j,  r = sqrt(a)  (P et al.)
//
// Masked positions arrive as -inf scores (model/attention.cpp) and get exactly 0 weight from
// every normalizer, and no gradient.

#include <torch/torch.h>

#include <string>
#include <vector>

namespace s2s::model {

// scores [N, S] -> weights [N, S], float or double (lower precisions are widened to float, by
// every normalizer of the registry).
torch::Tensor sparsemax(const torch::Tensor& scores);
torch::Tensor entmax15(const torch::Tensor& scores);

// One normalizer of the registry.
struct NormalizerSpec {
  const char* name;
  const char* help;  // for `s2s config --template` and docs
  torch::Tensor (*normalize)(const torch::Tensor& scores);
  bool sparse;  // may give exact zeros at real (unmasked) positions
};

// The registry, in the order help texts and errors list them; softmax, the default, first.
const std::vector<NormalizerSpec>& normalizer_registry();
// The entry named `name` (TORCH_CHECK listing the valid names; config validation rejects unknown
// names earlier, naming the key).
const NormalizerSpec& normalizer_spec(const std::string& name);
std::vector<std::string> normalizer_names();

// log a for weights a of a sparse normalizer: -inf where a = 0, and no gradient flows through
// those positions (d log a / da = 1/a would be 1/0 there).
torch::Tensor log_weights(const torch::Tensor& weights);

}  // namespace s2s::model
