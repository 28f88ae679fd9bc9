#include "model/normalizer.h"

#include <limits>

#include "util/strings.h"

namespace s2s::model {
namespace {

using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

// Scores shifted so that each row's maximum is 0, and floored at -4: the same weights, finite
// and small numbers for the sort and the sums of squares. The floor moves no weight: sparsemax's
// threshold is tau >= -1 (the largest weight 0 - tau is at most 1), and 1.5-entmax's, on s / 2,
// is tau >= -1 likewise, so a score at or below -4 (a padding -inf included) has weight 0 either
// way, and the threshold each algorithm finds is the same with or without the floor.
torch::Tensor shifted(const torch::Tensor& scores) {
  return (scores - std::get<0>(scores.max(/*dim=*/-1, /*keepdim=*/true))).clamp_min(-4.0);
}

// k = 1..S along the last dimension, in the scores' type.
torch::Tensor ranks(const torch::Tensor& sorted) {
  return torch::arange(1, sorted.size(-1) + 1, sorted.options());
}

// Martins & Astudillo 2016, Algorithm 1: with z sorted in decreasing order, the support size is
// K = max{k : 1 + k z_(k) > sum_{j<=k} z_(j)} (the condition holds exactly on a prefix), the
// threshold tau = (sum_{j<=K} z_(j) - 1) / K, and a = [z - tau]_+.
torch::Tensor sparsemax_forward(const torch::Tensor& scores) {
  const auto z = shifted(scores);
  const auto sorted = std::get<0>(z.sort(/*dim=*/-1, /*descending=*/true));
  const auto excess = sorted.cumsum(-1) - 1.0;  // sum_{j<=k} z_(j) - 1
  const auto size = (ranks(sorted) * sorted > excess).sum(-1, /*keepdim=*/true);  // K [N, 1]
  const auto tau = excess.gather(-1, size - 1) / size.to(z.scalar_type());
  return (z - tau).clamp_min(0.0);
}

// Peters et al. 2019, Algorithm 2 (alpha = 1.5): on x = s / 2 sorted in decreasing order, the
// threshold if the support were the first k is tau_k = mean_k - sqrt((1 - ss_k) / k), where
// mean_k and ss_k are the mean and the sum of squared deviations of x_(1..k) (from
// sum_{j<=k} (x_(j) - tau)^2 = 1). The support size K is the largest k with tau_k <= x_(k), and
// a = [x - tau_K]_+^2.
torch::Tensor entmax15_forward(const torch::Tensor& scores) {
  const auto x = shifted(scores) / 2.0;
  const auto sorted = std::get<0>(x.sort(/*dim=*/-1, /*descending=*/true));
  const auto k = ranks(sorted);
  const auto mean = sorted.cumsum(-1) / k;
  const auto mean_sq = (sorted * sorted).cumsum(-1) / k;
  const auto ss = k * (mean_sq - mean * mean);
  const auto tau = mean - ((1.0 - ss) / k).clamp_min(0.0).sqrt();
  const auto size = (tau <= sorted).sum(-1, /*keepdim=*/true);  // K [N, 1]
  const auto tau_star = tau.gather(-1, size - 1);
  return (x - tau_star).clamp_min(0.0).pow(2);
}

struct SparsemaxFunction : public torch::autograd::Function<SparsemaxFunction> {
  static torch::Tensor forward(AutogradContext* ctx, const torch::Tensor& scores) {
    auto weights = sparsemax_forward(scores);
    ctx->save_for_backward({weights});
    return weights;
  }
  // (J^T g)_i = [a_i > 0] (g_i - mean over the support of g).
  static variable_list backward(AutogradContext* ctx, variable_list grads) {
    const auto support = (ctx->get_saved_variables()[0] > 0).to(grads[0].scalar_type());
    const auto g = grads[0] * support;
    const auto mean = g.sum(-1, /*keepdim=*/true) / support.sum(-1, /*keepdim=*/true);
    return {g - mean * support};
  }
};

struct Entmax15Function : public torch::autograd::Function<Entmax15Function> {
  static torch::Tensor forward(AutogradContext* ctx, const torch::Tensor& scores) {
    auto weights = entmax15_forward(scores);
    ctx->save_for_backward({weights});
    return weights;
  }
  // With r = sqrt(a) (0 off the support): (J^T g)_i = r_i g_i - r_i (sum_j r_j g_j) / sum_j r_j.
  static variable_list backward(AutogradContext* ctx, variable_list grads) {
    const auto r = ctx->get_saved_variables()[0].sqrt();
    const auto rg = grads[0] * r;
    const auto q = rg.sum(-1, /*keepdim=*/true) / r.sum(-1, /*keepdim=*/true);
    return {rg - q * r};
  }
};

// The sparse maps run in float at least: bf16 has too few bits for their thresholds.
torch::Tensor widened(const torch::Tensor& scores) {
  const auto type = scores.scalar_type();
  return type == torch::kFloat || type == torch::kDouble ? scores : scores.to(torch::kFloat);
}

torch::Tensor softmax(const torch::Tensor& scores) {
  return torch::softmax(widened(scores), /*dim=*/-1);
}

}  // namespace

torch::Tensor sparsemax(const torch::Tensor& scores) {
  return SparsemaxFunction::apply(widened(scores));
}

torch::Tensor entmax15(const torch::Tensor& scores) {
  return Entmax15Function::apply(widened(scores));
}

const std::vector<NormalizerSpec>& normalizer_registry() {
  static const std::vector<NormalizerSpec> registry = {
      {"softmax", "exp(s_i) / sum_j exp(s_j): dense (Bahdanau et al. 2015)", softmax, false},
      {"sparsemax",
       "Euclidean projection onto the simplex, [s_i - tau]_+: exact zeros "
       "(Martins & Astudillo 2016)",
       sparsemax, true},
      {"entmax15",
       "1.5-entmax, [s_i / 2 - tau]_+^2: sparse, smoother than sparsemax (Peters "
       "et al. 2019)",
       entmax15, true},
  };
  return registry;
}

std::vector<std::string> normalizer_names() {
  std::vector<std::string> names;
  for (const auto& spec : normalizer_registry()) names.emplace_back(spec.name);
  return names;
}

const NormalizerSpec& normalizer_spec(const std::string& name) {
  for (const auto& spec : normalizer_registry()) {
    if (name == spec.name) return spec;
  }
  TORCH_CHECK(false, "unknown attention normalizer '", name,
              "' (valid: ", util::join(normalizer_names(), ", "), ")");
}

torch::Tensor log_weights(const torch::Tensor& weights) {
  // The clamp keeps the unused branch finite, so that its zero gradient stays zero.
  const auto positive = weights > 0;
  return torch::where(positive, weights.clamp_min(1e-38).log(),
                      torch::full({}, -std::numeric_limits<double>::infinity(), weights.options()));
}

}  // namespace s2s::model
