#include "model/gru_cell.h"

#include <ATen/record_function.h>

#include "model/gru.h"
#include "model/gru_gates.h"

namespace s2s::model {
namespace {

using torch::Tensor;
using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

// The weights a step multiplies with: the bf16 copies where there are, else the weights.
struct ProductWeights {
  Tensor w_ih, w_hh, b_ih, b_hh;
};

ProductWeights product_weights(const StepCell& c) {
  if (c.w_ih_bf16.defined()) return {c.w_ih_bf16, c.w_hh_bf16, c.b_ih_bf16, c.b_hh_bf16};
  return {c.w_ih.tensor, c.w_hh.tensor, c.b_ih.tensor, c.b_hh.tensor};
}

struct CellForward {
  GruGatesForward gates;  // saved [B, 4H], next [B, H]
  Tensor x_mm, h_mm;      // x and h in the products' type (model/gru_gates.h)
};

CellForward cell_forward(const Tensor& x, const Tensor& h, const ProductWeights& p,
                         bool for_backward) {
  const auto state_dtype = h.scalar_type() == torch::kDouble ? torch::kDouble : torch::kFloat;
  const auto product_dtype = p.w_ih.scalar_type();
  CellForward out;
  out.x_mm = x.to(product_dtype);
  out.h_mm = h.to(product_dtype);
  const auto gi = torch::addmm(p.b_ih, out.x_mm, p.w_ih.t());  // [B, 3H]
  const auto gh = torch::addmm(p.b_hh, out.h_mm, p.w_hh.t());  // [B, 3H]
  out.gates = gru_gates_forward(gi, gh, h.to(state_dtype).contiguous(), for_backward);
  return out;
}

// Inputs: x, h, then the weights as the steps see them (the gradient edges, which the node
// leaves empty), and the cell with their buffers and the product weights.
struct GruCellStep : torch::autograd::Function<GruCellStep> {
  static Tensor forward(AutogradContext* ctx, const Tensor& x, const Tensor& h,
                        const Tensor& /*w_ih*/, const Tensor& /*w_hh*/, const Tensor& /*b_ih*/,
                        const Tensor& /*b_hh*/, const StepCell& cell) {
    const AutocastOff no_autocast;
    const auto p = product_weights(cell);
    auto out = cell_forward(x, h, p, /*for_backward=*/true);
    ctx->save_for_backward({x, h, out.x_mm, out.h_mm});
    ctx->saved_data["gates"] = out.gates.saved;
    ctx->saved_data["w_ih"] = p.w_ih.detach();
    ctx->saved_data["w_hh"] = p.w_hh.detach();
    ctx->saved_data["biases"] = std::vector<Tensor>{cell.b_ih.grad, cell.b_hh.grad};
    ctx->saved_data["pending_ih"] = c10::IValue::make_capsule(cell.w_ih.pending);
    ctx->saved_data["pending_hh"] = c10::IValue::make_capsule(cell.w_hh.pending);
    return out.gates.next;
  }

  static variable_list backward(AutogradContext* ctx, variable_list grads) {
    const AutocastOff no_autocast;
    const auto saved = ctx->get_saved_variables();
    const auto &x = saved[0], &h = saved[1], &x_mm = saved[2], &h_mm = saved[3];
    const auto gates = ctx->saved_data["gates"].toTensor();
    const auto w_ih = ctx->saved_data["w_ih"].toTensor(), w_hh = ctx->saved_data["w_hh"].toTensor();
    auto biases = ctx->saved_data["biases"].toTensorVector();
    const auto state_dtype = gates.scalar_type();
    auto g = gru_gates_backward(grads[0], Tensor(), gates, h.to(state_dtype).contiguous(),
                                w_ih.scalar_type());
    const auto d_x = torch::mm(g.d_gi_mm, w_ih).to(x.scalar_type());              // dgi W_ih
    const auto d_h = g.d_h.add_(torch::mm(g.d_gh_mm, w_hh)).to(h.scalar_type());  // d z + dgh W_hh
    // dW_ih += d_gi^T x, dW_hh += d_gh^T h: deferred to one product over all steps
    // (model/step_shared.h), in the products' type as autocast's weight gradients are;
    // db += column sums: in place, in fp32.
    PendingProducts::from(ctx->saved_data["pending_ih"])->add(g.d_gi_mm, x_mm);
    PendingProducts::from(ctx->saved_data["pending_hh"])->add(g.d_gh_mm, h_mm);
    biases[0].add_(g.d_gi.sum(0));
    biases[1].add_(g.d_gh.sum(0));
    variable_list out(7);  // x, h, the four weights (left undefined: buffered), the cell
    out[0] = d_x;
    out[1] = d_h;
    return out;
  }
};

}  // namespace

StepCell share_cell(torch::nn::GRUCellImpl& cell, bool bf16) {
  StepCell c{share_weight_across_steps(cell.weight_ih),
             share_weight_across_steps(cell.weight_hh),
             share_across_steps(cell.bias_ih),
             share_across_steps(cell.bias_hh),
             {},
             {},
             {},
             {},
             nullptr,
             nullptr};
  if (bf16) {
    const torch::NoGradGuard no_grad;
    c.w_ih_bf16 = cell.weight_ih.to(torch::kBFloat16);
    c.w_hh_bf16 = cell.weight_hh.to(torch::kBFloat16);
    c.b_ih_bf16 = cell.bias_ih.to(torch::kBFloat16);
    c.b_hh_bf16 = cell.bias_hh.to(torch::kBFloat16);
  }
  return c;
}

torch::Tensor gru_cell_step(const StepCell& cell, const torch::Tensor& x, const torch::Tensor& h) {
  RECORD_USER_SCOPE("s2s::gru");  // experiments/breakdown.h
  if (cell.int8_ih && int8_decoding()) {
    const AutocastOff no_autocast;
    const auto gi = cell.int8_ih->linear(x, cell.w_ih.tensor, cell.b_ih.tensor);  // [B, 3H]
    const auto gh = cell.int8_hh->linear(h, cell.w_hh.tensor, cell.b_hh.tensor);  // [B, 3H]
    return gru_gates_forward(gi, gh, h.to(torch::kFloat).contiguous(), /*for_backward=*/false).next;
  }
  if (!cell.w_ih.grad.defined() || !torch::GradMode::is_enabled()) {
    const AutocastOff no_autocast;
    return cell_forward(x, h, product_weights(cell), /*for_backward=*/false).gates.next;
  }
  // The weights as inputs give the node its edges to their collecting nodes (which therefore
  // run after every step's backward).
  return GruCellStep::apply(x, h, cell.w_ih.tensor, cell.w_hh.tensor, cell.b_ih.tensor,
                            cell.b_hh.tensor, cell);
}

}  // namespace s2s::model
