#include "train/adam.h"

#include <cmath>
#include <string>
#include <unordered_set>

#include "train/adam_kernel.h"

namespace s2s::train {
namespace {

using torch::optim::AdamOptions;
using torch::optim::AdamParamState;

// A tensor the loop may read or write as n contiguous elements of p's type.
bool dense_like(const torch::Tensor& t, const torch::Tensor& p) {
  return t.device().is_cpu() && !t.is_sparse() && t.is_contiguous() &&
         t.scalar_type() == p.scalar_type() && t.numel() == p.numel();
}

// The key of p's state, as LibTorch's Adam names it (so that either loads the other's state).
std::string state_key(const torch::Tensor& p) {
  return c10::guts::to_string(p.unsafeGetTensorImpl());
}

}  // namespace

bool FusedAdam::fused() const {
  for (const auto& group : param_groups_) {
    const auto& o = static_cast<const AdamOptions&>(group.options());
    for (const auto& p : group.params()) {
      const auto type = p.scalar_type();
      if (o.amsgrad() || (type != torch::kFloat && type != torch::kDouble) || !dense_like(p, p)) {
        return false;
      }
      if (p.grad().defined() && !dense_like(p.grad(), p)) return false;
      const auto found = state_.find(state_key(p));
      if (found == state_.end()) continue;
      const auto& state = static_cast<const AdamParamState&>(*found->second);
      if (!dense_like(state.exp_avg(), p) || !dense_like(state.exp_avg_sq(), p)) return false;
    }
  }
  return true;
}

void FusedAdam::scale_gradients(const std::vector<torch::Tensor>& params,
                                const torch::Tensor& scale) {
  scaled_ = params;
  scale_ = scale;
}

torch::Tensor FusedAdam::step(LossClosure closure) {
  const auto scaled = std::move(scaled_);
  const auto scale = std::move(scale_);
  scaled_.clear();
  if (!fused()) {
    const torch::NoGradGuard no_grad;
    for (const auto& p : scaled) {
      if (p.grad().defined()) p.grad().mul_(scale);
    }
    return torch::optim::Adam::step(std::move(closure));
  }
  std::unordered_set<const c10::TensorImpl*> scaled_params;
  for (const auto& p : scaled) scaled_params.insert(p.unsafeGetTensorImpl());
  const double scale_value = scale.defined() ? scale.item<double>() : 1.0;
  torch::NoGradGuard no_grad;
  torch::Tensor loss;
  if (closure != nullptr) {
    const at::AutoGradMode enable_grad(true);
    loss = closure();
  }
  for (auto& group : param_groups_) {
    const auto& o = static_cast<const AdamOptions&>(group.options());
    for (auto& p : group.params()) {
      if (!p.grad().defined()) continue;
      auto& slot = state_[state_key(p)];
      if (!slot) {
        auto fresh = std::make_unique<AdamParamState>();
        fresh->step(0);
        fresh->exp_avg(torch::zeros_like(p, torch::MemoryFormat::Contiguous));
        fresh->exp_avg_sq(torch::zeros_like(p, torch::MemoryFormat::Contiguous));
        slot = std::move(fresh);
      }
      auto& state = static_cast<AdamParamState&>(*slot);
      auto& m = state.exp_avg();
      auto& v = state.exp_avg_sq();
      state.step(state.step() + 1);
      const auto t = static_cast<double>(state.step());
      const auto [beta1, beta2] = o.betas();
      AdamScalars s{beta1,
                    beta2,
                    o.eps(),
                    o.weight_decay(),
                    o.lr() / (1 - std::pow(beta1, t)),
                    std::sqrt(1 - std::pow(beta2, t))};
      if (scaled_params.count(p.unsafeGetTensorImpl()) != 0) s.grad_scale = scale_value;
      const auto& g = p.grad();
      AT_DISPATCH_FLOATING_TYPES(p.scalar_type(), "fused_adam", [&] {
        adam_update(p.data_ptr<scalar_t>(), g.data_ptr<scalar_t>(), m.data_ptr<scalar_t>(),
                    v.data_ptr<scalar_t>(), p.numel(), s);
      });
      // Written through its pointer, p is changed in place as p.add_(...) would change it: say
      // so, as in-place ops do, for what keys on the version (autograd's saved-tensor checks,
      // the int8 copies of decoding weights in model/int8_linear.h).
      torch::autograd::impl::bump_version(p);
    }
  }
  return loss;
}

}  // namespace s2s::train
