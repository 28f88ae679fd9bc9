#pragma once
// Attention scorers s(k, q): how well a key k matches a query q. One explicit registry
// (make_scorer) builds them by name. Heads are folded into the batch dimension by the caller
// (model/attention.h), so a scorer sees N = batch * heads rows.
//
// Shapes: N rows, S source positions, Dk key size, Dq query size.
//   keys   [N, S, Dk]  ->  project_keys  ->  projected [N, S, P]   (once per sentence)
//   query  [N, Dq]     ->  score(query, projected) -> scores [N, S]  (once per decoder step)
// Moving every key-side product into project_keys keeps it out of the decoder loop.

#include <torch/torch.h>

#include <memory>
#include <string>
#include <vector>

namespace s2s::model {

struct ScorerOptions {
  ScorerOptions(int64_t key_size, int64_t query_size)
      : key_size_(key_size), query_size_(query_size) {}
  TORCH_ARG(int64_t, key_size);
  TORCH_ARG(int64_t, query_size);
  // additive: size of the hidden layer v^T tanh(W k + U q).
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
};

// additive (Bahdanau et al. 2015, eq. A.1.2): s = v^T tanh(W k + U q).
class AdditiveScorerImpl : public ScorerImpl {
 public:
  explicit AdditiveScorerImpl(const ScorerOptions& options);
  torch::Tensor project_keys(const torch::Tensor& keys) override;
  torch::Tensor score(const torch::Tensor& query, const torch::Tensor& projected) override;

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

// The registry. "none" is not a scorer: the model then has no attention at all.
std::shared_ptr<ScorerImpl> make_scorer(const std::string& name, const ScorerOptions& options);
const std::vector<std::string>& scorer_names();
// True for scorers that compare k and q directly and so need Dk == Dq.
bool scorer_needs_equal_sizes(const std::string& name);

}  // namespace s2s::model
