#include "model/scorer.h"

#include <cmath>

#include "model/additive_step.h"
#include "util/strings.h"

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
  // The energies e [N, S, A], then the scores e v [N, S] (equations: model/additive_step.h).
  const auto energy = torch::tanh(projected + query_layer_(query).unsqueeze(/*dim=*/1));
  return energy_layer_(energy).squeeze(/*dim=*/2);
}

torch::Tensor AdditiveScorerImpl::score_step(const torch::Tensor& query,
                                             const StepShared& projected) {
  const auto& v = energy_layer_->weight;
  if (!torch::GradMode::is_enabled() &&
      additive_kernel_applies(query, projected.tensor, v)) {  // decoding
    const auto uq = query_layer_(query);  // bf16 under CPU autocast: then recorded below
    if (uq.scalar_type() == torch::kFloat) return additive_step_scores(uq, projected.tensor, v);
  }
  if (!projected.grad.defined() || !torch::GradMode::is_enabled()) {
    return ScorerImpl::score_step(query, projected);
  }
  return additive_step_node(query_layer_(query), projected, energy_layer_->weight);
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

namespace {

template <class Scorer>
std::shared_ptr<ScorerImpl> make(const ScorerOptions& o) {
  return std::make_shared<Scorer>(o);
}

std::shared_ptr<ScorerImpl> make_dot(const ScorerOptions& o) {
  return std::make_shared<DotScorerImpl>(o, /*scaled=*/false);
}

std::shared_ptr<ScorerImpl> make_scaled_dot(const ScorerOptions& o) {
  return std::make_shared<DotScorerImpl>(o, /*scaled=*/true);
}

// Multiply-adds per head, A the additive hidden size, r the bilinear rank (see ScorerMacs).
ScorerMacs additive_macs(const ScorerOptions& o) {  // W k once; U q per step; v^T tanh per pair
  const int64_t a = o.hidden_size();
  return {o.key_size() * a, o.query_size() * a, a};
}

ScorerMacs dot_macs(const ScorerOptions& o) {  // k^T q; the 1/sqrt(D) scale is folded into k
  return {0, 0, o.key_size()};
}

ScorerMacs bilinear_macs(const ScorerOptions& o) {
  if (o.rank() > 0) return {o.key_size() * o.rank(), o.query_size() * o.rank(), o.rank()};
  return {o.key_size() * o.query_size(), 0, o.query_size()};  // (W^T k)^T q
}

// Parameters: W, U and v; none; W, or U and V.
int64_t additive_parameters(const ScorerOptions& o) {
  return (o.key_size() + o.query_size() + 1) * o.hidden_size();
}

int64_t dot_parameters(const ScorerOptions&) { return 0; }

int64_t bilinear_parameters(const ScorerOptions& o) {
  if (o.rank() > 0) return (o.key_size() + o.query_size()) * o.rank();
  return o.key_size() * o.query_size();
}

// P, the size of the projected keys: A; Dk; Dq, or r.
int64_t additive_projected(const ScorerOptions& o) { return o.hidden_size(); }

int64_t dot_projected(const ScorerOptions& o) { return o.key_size(); }

int64_t bilinear_projected(const ScorerOptions& o) {
  return o.rank() > 0 ? o.rank() : o.query_size();
}

}  // namespace

const std::vector<ScorerSpec>& scorer_registry() {
  static const std::vector<ScorerSpec> registry = {
      {"additive", /*needs_equal_sizes=*/false, make<AdditiveScorerImpl>, additive_macs,
       additive_parameters, additive_projected},
      {"dot", /*needs_equal_sizes=*/true, make_dot, dot_macs, dot_parameters, dot_projected},
      {"scaled_dot", /*needs_equal_sizes=*/true, make_scaled_dot, dot_macs, dot_parameters,
       dot_projected},
      {"bilinear", /*needs_equal_sizes=*/false, make<BilinearScorerImpl>, bilinear_macs,
       bilinear_parameters, bilinear_projected},
  };
  return registry;
}

std::vector<std::string> scorer_names() {
  std::vector<std::string> names;
  for (const auto& spec : scorer_registry()) names.emplace_back(spec.name);
  return names;
}

const ScorerSpec& scorer_spec(const std::string& name) {
  for (const auto& spec : scorer_registry()) {
    if (name == spec.name) return spec;
  }
  TORCH_CHECK(false, "unknown attention scorer '", name,
              "' (valid: ", util::join(scorer_names(), ", "), ")");
}

std::shared_ptr<ScorerImpl> make_scorer(const std::string& name, const ScorerOptions& options) {
  return scorer_spec(name).make(options);
}

}  // namespace s2s::model
