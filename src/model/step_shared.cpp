#include "model/step_shared.h"

#include "model/weighted_sum_kernel.h"

namespace s2s::model {
namespace {

using torch::Tensor;
using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

// The fused kernel's case (model/weighted_sum_kernel.h): fp32 on a CPU, values [R >= r, S, D]
// contiguous (their first r rows are then contiguous too).
// Other shapes take bmm, which names what is wrong.
bool kernel_applies(const Tensor& mix, const Tensor& values) {
  return mix.device().is_cpu() && values.device().is_cpu() && mix.scalar_type() == torch::kFloat &&
         values.scalar_type() == torch::kFloat && values.is_contiguous() && mix.dim() == 2 &&
         values.dim() == 3 && mix.size(1) == values.size(1) && mix.size(0) <= values.size(0);
}

WeightedSumShape shape_of(const Tensor& mix, const Tensor& values) {
  return {mix.size(0), values.size(1), values.size(2)};
}

// mix [r, S], values [R >= r, S, D] -> sum_s mix[r, s] V[r, s, :] [r, D].
Tensor context_of(const Tensor& mix, const Tensor& values) {
  const int64_t rows = mix.size(0);
  if (!kernel_applies(mix, values)) {
    return torch::bmm(mix.unsqueeze(1), values.narrow(0, 0, rows)).squeeze(1);
  }
  const auto a = mix.contiguous();
  auto context = torch::empty({rows, values.size(2)}, a.options());
  weighted_sum_forward(a.data_ptr<float>(), values.data_ptr<float>(), shape_of(a, values),
                       context.data_ptr<float>());
  return context;
}

// x -> x, whose gradient is the buffer the steps filled, plus their deferred products (plus
// any gradient that reached the returned tensor directly).
struct CollectGrad : torch::autograd::Function<CollectGrad> {
  static Tensor forward(AutogradContext* ctx, const Tensor& x, const Tensor& buffer,
                        const c10::intrusive_ptr<PendingProducts>& pending) {
    ctx->saved_data["buffer"] = buffer;
    if (pending) ctx->saved_data["pending"] = c10::IValue::make_capsule(pending);
    ctx->set_materialize_grads(false);
    return x;
  }
  static variable_list backward(AutogradContext* ctx, variable_list grads) {
    auto buffer = ctx->saved_data["buffer"].toTensor();
    const auto found = ctx->saved_data.find("pending");
    if (found != ctx->saved_data.end()) PendingProducts::from(found->second)->flush(buffer);
    if (grads[0].defined()) buffer = buffer + grads[0];
    return {buffer.to(grads[0].defined() ? grads[0].scalar_type() : buffer.scalar_type()), Tensor(),
            Tensor()};
  }
};

// One step: mix [r, S], values [R, S, D] -> [r, D]. Its backward returns d mix and adds
// mix^T g into the buffer's first r rows instead of returning d values.
struct StepWeightedSum : torch::autograd::Function<StepWeightedSum> {
  static Tensor forward(AutogradContext* ctx, const Tensor& mix, const Tensor& values,
                        const Tensor& buffer) {
    ctx->save_for_backward({mix});
    ctx->saved_data["values"] = values.detach();
    ctx->saved_data["buffer"] = buffer;
    return context_of(mix, values);
  }
  static variable_list backward(AutogradContext* ctx, variable_list grads) {
    const auto mix = ctx->get_saved_variables()[0];
    const int64_t rows = mix.size(0);
    const auto values = ctx->saved_data["values"].toTensor().narrow(0, 0, rows);
    auto buffer = ctx->saved_data["buffer"].toTensor().narrow(0, 0, rows);
    const auto& g = grads[0];  // [r, D]
    if (kernel_applies(mix, values) && buffer.is_contiguous()) {
      const auto a = mix.contiguous(), g_c = g.to(torch::kFloat).contiguous();
      auto d_mix = torch::empty_like(a);
      weighted_sum_backward(a.data_ptr<float>(), values.data_ptr<float>(), g_c.data_ptr<float>(),
                            shape_of(a, values), d_mix.data_ptr<float>(), buffer.data_ptr<float>());
      return {d_mix, Tensor(), Tensor()};
    }
    // d mix [r, S] = g V^T;  d V [r, S, D] += mix^T g, an outer product per row.
    const auto d_mix = torch::bmm(g.unsqueeze(1).to(values.scalar_type()), values.transpose(1, 2))
                           .squeeze(1)
                           .to(mix.scalar_type());
    // One broadcast pass over [r, S, D] (baddbmm_ on a CPU runs a small product per row).
    buffer.addcmul_(mix.unsqueeze(2).to(buffer.scalar_type()),
                    g.unsqueeze(1).to(buffer.scalar_type()));
    return {d_mix, Tensor(), Tensor()};
  }
};

StepShared share(const torch::Tensor& x, c10::intrusive_ptr<PendingProducts> pending) {
  if (!torch::GradMode::is_enabled() || !x.requires_grad()) return {x, {}, {}};
  const auto buffer_dtype = x.scalar_type() == torch::kDouble ? torch::kDouble : torch::kFloat;
  auto buffer = torch::zeros(x.sizes(), x.options().dtype(buffer_dtype));
  return {CollectGrad::apply(x, buffer, pending), buffer, pending};
}

}  // namespace

StepShared share_across_steps(const torch::Tensor& x) { return share(x, {}); }

StepShared share_weight_across_steps(const torch::Tensor& w) {
  return share(w, c10::make_intrusive<PendingProducts>());
}

void PendingProducts::add(const torch::Tensor& a, const torch::Tensor& b) {
  left.push_back(a);
  right.push_back(b);
}

c10::intrusive_ptr<PendingProducts> PendingProducts::from(const c10::IValue& capsule) {
  return c10::static_intrusive_pointer_cast<PendingProducts>(capsule.toCapsule());
}

void PendingProducts::flush(torch::Tensor& into) {
  if (left.empty()) return;
  const auto a = torch::cat(left), b = torch::cat(right).to(a.scalar_type());
  if (a.scalar_type() == into.scalar_type()) {
    into.addmm_(a.t(), b);
  } else {  // bf16 products (model/gru_cell.h): a bf16 product, added in fp32
    into.add_(torch::mm(a.t(), b));
  }
  left.clear();
  right.clear();
}

torch::Tensor step_rows(const StepShared& shared, int64_t r) {
  return shared.tensor.narrow(0, 0, r);
}

torch::Tensor weighted_sum(const torch::Tensor& mix, const StepShared& values) {
  const bool grad_mode = torch::GradMode::is_enabled();
  if (grad_mode && values.grad.defined()) {
    return StepWeightedSum::apply(mix, values.tensor, values.grad);
  }
  if (grad_mode && (mix.requires_grad() || values.tensor.requires_grad())) {  // recorded op by op
    return torch::bmm(mix.unsqueeze(1), step_rows(values, mix.size(0))).squeeze(1);
  }
  return context_of(mix, values.tensor);  // nothing to record
}

}  // namespace s2s::model
