#include "model/gru_cell.h"

#include "model/gru.h"
#include "model/gru_gates.h"

namespace s2s::model {
namespace {

using torch::Tensor;
using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

// The weights a step multiplies with: the bf16 copies where there are, else the weights.
struct Products {
  Tensor w_ih, w_hh, b_ih, b_hh;
};

Products products(const StepCell& c) {
  if (c.w_ih_bf16.defined()) return {c.w_ih_bf16, c.w_hh_bf16, c.b_ih_bf16, c.b_hh_bf16};
  return {c.w_ih.tensor, c.w_hh.tensor, c.b_ih.tensor, c.b_hh.tensor};
}

struct Cell {
  GateForward gates;    // saved [n, 4H], next [n, H]
  Tensor x_low, h_low;  // x and h in the products' type
};

Cell cell_forward(const Tensor& x, const Tensor& h, const Products& p, bool for_backward) {
  const auto real = h.scalar_type() == torch::kDouble ? torch::kDouble : torch::kFloat;
  const auto low = p.w_ih.scalar_type();
  Cell out;
  out.x_low = x.to(low);
  out.h_low = h.to(low);
  const auto gi = torch::addmm(p.b_ih, out.x_low, p.w_ih.t());  // [n, 3H]
  const auto gh = torch::addmm(p.b_hh, out.h_low, p.w_hh.t());  // [n, 3H]
  out.gates = gates_forward(gi, gh, h.to(real).contiguous(), for_backward);
  return out;
}

// Inputs: x, h, then the weights as the steps see them (the gradient edges, which the node
// leaves empty), and the cell with their buffers and the product weights.
struct GruCellStep : torch::autograd::Function<GruCellStep> {
  static Tensor forward(AutogradContext* ctx, const Tensor& x, const Tensor& h,
                        const Tensor& /*w_ih*/, const Tensor& /*w_hh*/, const Tensor& /*b_ih*/,
                        const Tensor& /*b_hh*/, const StepCell& cell) {
    const AutocastOff no_autocast;
    const auto p = products(cell);
    auto out = cell_forward(x, h, p, /*for_backward=*/true);
    ctx->save_for_backward({x, h, out.x_low, out.h_low});
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
    const auto &x = saved[0], &h = saved[1], &x_low = saved[2], &h_low = saved[3];
    const auto gates = ctx->saved_data["gates"].toTensor();
    const auto w_ih = ctx->saved_data["w_ih"].toTensor(), w_hh = ctx->saved_data["w_hh"].toTensor();
    auto biases = ctx->saved_data["biases"].toTensorVector();
    const auto real = gates.scalar_type();
    auto g = gates_backward(grads[0], Tensor(), gates, h.to(real).contiguous(), w_ih.scalar_type());
    const auto d_x = torch::mm(g.d_gi_low, w_ih).to(x.scalar_type());
    const auto d_h = g.d_h.add_(torch::mm(g.d_gh_low, w_hh)).to(h.scalar_type());
    // dW_ih += d_gi^T x, dW_hh += d_gh^T h: deferred to one product over all steps
    // (model/step_shared.h), in the products' type as autocast's weight gradients are;
    // db += column sums: in place, in fp32.
    PendingProducts::from(ctx->saved_data["pending_ih"])->add(g.d_gi_low, x_low);
    PendingProducts::from(ctx->saved_data["pending_hh"])->add(g.d_gh_low, h_low);
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
             {}};
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
  if (!cell.w_ih.grad.defined() || !torch::GradMode::is_enabled()) {
    const AutocastOff no_autocast;
    return cell_forward(x, h, products(cell), /*for_backward=*/false).gates.next;
  }
  // The weights as inputs give the node its edges to their collecting nodes (which therefore
  // run after every step's backward).
  return GruCellStep::apply(x, h, cell.w_ih.tensor, cell.w_hh.tensor, cell.b_ih.tensor,
                            cell.b_hh.tensor, cell);
}

}  // namespace s2s::model
