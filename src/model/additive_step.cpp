#include "model/additive_step.h"

#include "model/additive_kernel.h"

namespace s2s::model {
namespace {

using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

AdditiveKernelShape kernel_shape(const torch::Tensor& u, const torch::Tensor& keys) {
  return {u.size(0), keys.size(1), keys.size(2)};
}

// Scores of the first r rows of the keys without autograd: [r, S]; the energies [r, S, A] into
// `energy` when not null.
torch::Tensor fused_scores(const torch::Tensor& u, const torch::Tensor& keys,
                           const torch::Tensor& v, torch::Tensor* energy) {
  const auto shape = kernel_shape(u, keys);
  const auto u_c = u.contiguous(), weights = v.contiguous();
  auto scores = torch::empty({shape.rows, shape.len}, u.options());
  if (energy != nullptr) *energy = torch::empty({shape.rows, shape.len, shape.hidden}, u.options());
  additive_kernel_forward(keys.data_ptr<float>(), u_c.data_ptr<float>(), weights.data_ptr<float>(),
                          shape, energy != nullptr ? energy->data_ptr<float>() : nullptr,
                          scores.data_ptr<float>());
  return scores;
}

// Inputs u [r, A], keys [R, S, A], v [1, A] and the keys' gradient buffer [R, S, A] (equations:
// model/additive_step.h).
struct AdditiveStepScore : torch::autograd::Function<AdditiveStepScore> {
  static torch::Tensor forward(AutogradContext* ctx, const torch::Tensor& u,
                               const torch::Tensor& keys, const torch::Tensor& v,
                               const torch::Tensor& buffer) {
    const int64_t rows = u.size(0), hidden = v.size(1);
    ctx->saved_data["v"] = v.detach();
    ctx->saved_data["buffer"] = buffer;
    ctx->saved_data["u_dtype"] = u.scalar_type();
    if (additive_kernel_applies(u, keys, v) && buffer.is_contiguous()) {
      torch::Tensor energy;
      auto scores = fused_scores(u, keys, v, &energy);
      ctx->saved_data["energy"] = energy;
      return scores;
    }
    const auto energy = torch::tanh(keys.narrow(0, 0, rows) + u.unsqueeze(1));  // e [r, S, A]
    ctx->saved_data["energy"] = energy;
    const auto v_e = v.detach().to(energy.scalar_type()).view({hidden});
    return energy.view({-1, hidden}).mv(v_e).view({rows, energy.size(1)});
  }
  static variable_list backward(AutogradContext* ctx, variable_list grads) {
    const auto energy = ctx->saved_data["energy"].toTensor();
    const auto v = ctx->saved_data["v"].toTensor();
    const int64_t rows = energy.size(0), hidden = energy.size(2);
    auto buffer = ctx->saved_data["buffer"].toTensor().narrow(0, 0, rows);
    const auto u_dtype = ctx->saved_data["u_dtype"].toScalarType();
    if (additive_kernel_applies(energy, buffer, v) && energy.is_contiguous()) {
      const auto ds = grads[0].to(torch::kFloat).contiguous();  // [r, S]
      const auto weights = v.contiguous();
      auto d_u = torch::empty({rows, hidden}, energy.options());
      auto dv = torch::empty_like(weights);
      additive_kernel_backward(energy.data_ptr<float>(), weights.data_ptr<float>(),
                               ds.data_ptr<float>(), kernel_shape(d_u, energy),
                               buffer.data_ptr<float>(), d_u.data_ptr<float>(),
                               dv.data_ptr<float>());
      return {d_u.to(u_dtype), torch::Tensor(), dv, torch::Tensor()};
    }
    const auto ds = grads[0].to(energy.scalar_type());  // [r, S]
    auto da = energy.square().neg_().add_(1);           // 1 - e^2
    da.mul_(v.to(energy.scalar_type()).view({1, 1, hidden})).mul_(ds.unsqueeze(2));
    const auto dv = ds.reshape({1, -1}).mm(energy.view({-1, hidden})).to(v.scalar_type());
    buffer.add_(da);
    const auto d_u = da.sum(1).to(u_dtype);
    return {d_u, torch::Tensor(), dv, torch::Tensor()};
  }
};

}  // namespace

bool additive_kernel_applies(const torch::Tensor& u, const torch::Tensor& keys,
                             const torch::Tensor& v) {
  return u.device().is_cpu() && keys.device().is_cpu() && u.scalar_type() == torch::kFloat &&
         keys.scalar_type() == torch::kFloat && v.scalar_type() == torch::kFloat &&
         keys.is_contiguous();
}

torch::Tensor additive_step_scores(const torch::Tensor& u, const torch::Tensor& keys,
                                   const torch::Tensor& v) {
  return fused_scores(u, keys, v, nullptr);
}

torch::Tensor additive_step_node(const torch::Tensor& u, const StepShared& keys,
                                 const torch::Tensor& v) {
  return AdditiveStepScore::apply(u, keys.tensor, v, keys.grad);
}

}  // namespace s2s::model
