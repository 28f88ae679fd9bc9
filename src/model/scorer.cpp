#include "model/scorer.h"

#include <cmath>

#include "config/config.h"
#include "util/error.h"

namespace s2s::model {
namespace {

// [N, S, P] x [N, P] -> [N, S]: one batched matrix-vector product.
torch::Tensor batched_dot(const torch::Tensor& projected, const torch::Tensor& query) {
  return torch::bmm(projected, query.unsqueeze(/*dim=*/2)).squeeze(/*dim=*/2);
}

}  // namespace

AdditiveScorerImpl::AdditiveScorerImpl(const ScorerOptions& o)
    : key_layer_(register_module(
          "key_layer",
          torch::nn::Linear(torch::nn::LinearOptions(o.key_size(), o.hidden_size()).bias(false)))),
      query_layer_(register_module(
          "query_layer",
          torch::nn::Linear(
              torch::nn::LinearOptions(o.query_size(), o.hidden_size()).bias(false)))),
      energy_layer_(register_module(
          "energy_layer",
          torch::nn::Linear(torch::nn::LinearOptions(o.hidden_size(), 1).bias(false)))) {
  TORCH_CHECK(o.hidden_size() > 0, "additive scorer needs hidden_size > 0");
}

torch::Tensor AdditiveScorerImpl::project_keys(const torch::Tensor& keys) {
  return key_layer_(keys);  // W k: [N, S, A]
}

torch::Tensor AdditiveScorerImpl::score(const torch::Tensor& query,
                                        const torch::Tensor& projected) {
  // tanh(W k + U q): [N, S, A]; v^T(.) -> [N, S]
  const auto energy = torch::tanh(projected + query_layer_(query).unsqueeze(/*dim=*/1));
  return energy_layer_(energy).squeeze(/*dim=*/2);
}

DotScorerImpl::DotScorerImpl(const ScorerOptions& o, bool scaled)
    : scale_(scaled ? 1.0 / std::sqrt(static_cast<double>(o.key_size())) : 1.0) {
  TORCH_CHECK(o.key_size() == o.query_size(), "dot scorers need equal key and query sizes, got ",
              o.key_size(), " and ", o.query_size());
}

torch::Tensor DotScorerImpl::project_keys(const torch::Tensor& keys) {
  // Folding the scale into the keys once saves a multiply per decoder step.
  return scale_ == 1.0 ? keys : keys * scale_;
}

torch::Tensor DotScorerImpl::score(const torch::Tensor& query, const torch::Tensor& projected) {
  return batched_dot(projected, query);
}

BilinearScorerImpl::BilinearScorerImpl(const ScorerOptions& o) {
  const int64_t key_out = o.rank() > 0 ? o.rank() : o.query_size();
  key_layer_ = register_module(
      "key_layer", torch::nn::Linear(torch::nn::LinearOptions(o.key_size(), key_out).bias(false)));
  if (o.rank() > 0) {
    query_layer_ = register_module(
        "query_layer",
        torch::nn::Linear(torch::nn::LinearOptions(o.query_size(), o.rank()).bias(false)));
  }
}

torch::Tensor BilinearScorerImpl::project_keys(const torch::Tensor& keys) {
  return key_layer_(keys);  // W^T k [N, S, Dq], or U k [N, S, r]
}

torch::Tensor BilinearScorerImpl::score(const torch::Tensor& query,
                                        const torch::Tensor& projected) {
  return batched_dot(projected, query_layer_ ? query_layer_(query) : query);
}

const std::vector<std::string>& scorer_names() { return config::scorer_names(); }

bool scorer_needs_equal_sizes(const std::string& name) {
  return name == "dot" || name == "scaled_dot";
}

std::shared_ptr<ScorerImpl> make_scorer(const std::string& name, const ScorerOptions& options) {
  if (name == "additive") return std::make_shared<AdditiveScorerImpl>(options);
  if (name == "dot") return std::make_shared<DotScorerImpl>(options, /*scaled=*/false);
  if (name == "scaled_dot") return std::make_shared<DotScorerImpl>(options, /*scaled=*/true);
  if (name == "bilinear") return std::make_shared<BilinearScorerImpl>(options);
  std::string valid;
  for (const auto& n : scorer_names()) {
    if (n != "none") valid += (valid.empty() ? "" : ", ") + n;
  }
  throw ConfigError("unknown attention scorer '" + name + "' (valid: " + valid + ")");
}

}  // namespace s2s::model
