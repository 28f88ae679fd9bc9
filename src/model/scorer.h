#pragma once
// Attention scorers s(k, q): how well a key k matches a query q. One explicit registry
// (scorer_registry) names them and builds them. Heads are folded into the batch dimension by the
// caller (model/attention.h), so a scorer sees N = batch * heads rows.
//
// Shapes: N rows, S source positions, Dk key size, Dq query size.
//   keys   [N, S, Dk]  ->  project_keys  ->  projected [N, S, P]   (once per sentence)
//   query  [N, Dq]     ->  score(query, projected) -> scores [N, S]  (once per decoder step)
// Moving every key-side product into project_keys keeps it out of the decoder loop.

#include <torch/torch.h>

#include <memory>
#include <string>
#include <vector>

#include "model/step_shared.h"

namespace s2s::model {

struct ScorerOptions {
  ScorerOptions(int64_t key_size, int64_t query_size)
      : key_size_(key_size), query_size_(query_size) {}
  TORCH_ARG(int64_t, key_size);
  TORCH_ARG(int64_t, query_size);
  // additive: A, the size of the energies (model/additive_step.h).
  TORCH_ARG(int64_t, hidden_size) = 0;
  // bilinear: 0 = full W (Dk x Dq); r > 0 = low rank (U k)^T (V q) with U, V in R^{r x D}.
  TORCH_ARG(int64_t, rank) = 0;
};

class ScorerImpl : public torch::nn::Module {
 public:
  // [N, S, Dk] -> [N, S, P]: the key-side half of the score, computed once per sentence.
  virtual torch::Tensor project_keys(const torch::Tensor& keys) = 0;
  // query [N, Dq], projected keys [N, S, P] -> unnormalized scores [N, S].
  virtual torch::Tensor score(const torch::Tensor& query, const torch::Tensor& projected) = 0;
  // The same for one decoder step, the keys shared by all steps [N' >= N, S, P] (first N rows
  // used; model/step_shared.h). By default score() on the recorded prefix.
  virtual torch::Tensor score_step(const torch::Tensor& query, const StepShared& projected) {
    return score(query, step_rows(projected, query.size(0)));
  }
};

// additive (Bahdanau et al. 2015, eq. A.1.2; equations: model/additive_step.h): W k projects
// the keys, U q the query, v the energies.
class AdditiveScorerImpl : public ScorerImpl {
 public:
  explicit AdditiveScorerImpl(const ScorerOptions& options);
  torch::Tensor project_keys(const torch::Tensor& keys) override;
  torch::Tensor score(const torch::Tensor& query, const torch::Tensor& projected) override;
  // In training one node per step (model/additive_step.h), whose backward adds the keys'
  // gradient into their shared buffer in place; in CPU fp32 decoding the fused kernel.
  torch::Tensor score_step(const torch::Tensor& query, const StepShared& projected) override;

 private:
  torch::nn::Linear key_layer_{nullptr}, query_layer_{nullptr}, energy_layer_{nullptr};
};

// dot (Luong et al. 2015, eq. 8): s = k^T q; scaled_dot (Vaswani et al. 2017, eq. 1):
// s = k^T q / sqrt(Dk), which keeps the variance of s at 1 for unit-variance k and q.
// Needs Dk == Dq (model/attention.h projects the query when they differ).
class DotScorerImpl : public ScorerImpl {
 public:
  DotScorerImpl(const ScorerOptions& options, bool scaled);
  torch::Tensor project_keys(const torch::Tensor& keys) override;
  torch::Tensor score(const torch::Tensor& query, const torch::Tensor& projected) override;

 private:
  double scale_;
};

// bilinear / "general" (Luong et al. 2015, eq. 8): s = k^T W q, precomputed as (W^T k)^T q.
// With rank r: s = (U k)^T (V q), r (Dk + Dq) parameters instead of Dk Dq.
class BilinearScorerImpl : public ScorerImpl {
 public:
  explicit BilinearScorerImpl(const ScorerOptions& options);
  torch::Tensor project_keys(const torch::Tensor& keys) override;
  torch::Tensor score(const torch::Tensor& query, const torch::Tensor& projected) override;

 private:
  torch::nn::Linear key_layer_{nullptr};    // full: k -> W^T k (Dq); low rank: k -> U k (r)
  torch::nn::Linear query_layer_{nullptr};  // low rank only: q -> V q (r)
};

// Multiply-adds of one head's scorer, the FLOP model of `s2s bench`: the key side per key
// position (once per sentence), the query side per query (once per decoder step), and the
// work per (query, key) pair.
struct ScorerMacs {
  int64_t per_key = 0, per_query = 0, per_pair = 0;
};

// One scorer of the registry: everything the rest of the code needs to know about it.
struct ScorerSpec {
  const char* name;
  // Compares k and q directly, so needs Dk == Dq (the attention projects the query if not).
  bool needs_equal_sizes;
  std::shared_ptr<ScorerImpl> (*make)(const ScorerOptions& options);
  ScorerMacs (*macs)(const ScorerOptions& options);
  int64_t (*parameters)(const ScorerOptions& options);      // what make() allocates
  int64_t (*projected_size)(const ScorerOptions& options);  // P of project_keys()
};

// The registry: every scorer, in the order help texts and errors list them. Adding a scorer
// means a class above, one entry in scorer.cpp, its test and the README. The config value
// "none" is not a scorer: such a model has no attention at all (config::uses_attention).
const std::vector<ScorerSpec>& scorer_registry();
// The entry named `name` (TORCH_CHECK; config validation rejects unknown names earlier).
const ScorerSpec& scorer_spec(const std::string& name);
std::vector<std::string> scorer_names();
std::shared_ptr<ScorerImpl> make_scorer(const std::string& name, const ScorerOptions& options);

}  // namespace s2s::model
