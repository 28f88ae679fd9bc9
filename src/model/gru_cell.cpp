#include "model/gru_cell.h"

#include "model/gru.h"

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

struct Gates {
  Tensor r, z, n, gh_n, next;  // each [n, H]
  Tensor x_low, h_low;         // x and h in the products' type
};

Gates cell_forward(const Tensor& x, const Tensor& h, const Products& p) {
  const auto real = h.scalar_type() == torch::kDouble ? torch::kDouble : torch::kFloat;
  const auto low = p.w_ih.scalar_type();
  Gates out;
  out.x_low = x.to(low);
  out.h_low = h.to(low);
  const auto i = torch::addmm(p.b_ih, out.x_low, p.w_ih.t()).to(real).chunk(3, /*dim=*/1);
  const auto g = torch::addmm(p.b_hh, out.h_low, p.w_hh.t()).to(real).chunk(3, /*dim=*/1);
  out.r = torch::sigmoid(i[0] + g[0]);
  out.z = torch::sigmoid(i[1] + g[1]);
  out.n = torch::tanh(i[2] + out.r * g[2]);
  out.gh_n = g[2];
  out.next = out.n + out.z * (h.to(real) - out.n);  // (1 - z) n + z h
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
    auto gates = cell_forward(x, h, p);
    ctx->save_for_backward({x, h, gates.x_low, gates.h_low});
    ctx->saved_data["r"] = gates.r;
    ctx->saved_data["z"] = gates.z;
    ctx->saved_data["n"] = gates.n;
    ctx->saved_data["gh_n"] = gates.gh_n;
    ctx->saved_data["w_ih"] = p.w_ih.detach();
    ctx->saved_data["w_hh"] = p.w_hh.detach();
    ctx->saved_data["biases"] = std::vector<Tensor>{cell.b_ih.grad, cell.b_hh.grad};
    ctx->saved_data["pending_ih"] = c10::IValue::make_capsule(cell.w_ih.pending);
    ctx->saved_data["pending_hh"] = c10::IValue::make_capsule(cell.w_hh.pending);
    return gates.next;
  }

  static variable_list backward(AutogradContext* ctx, variable_list grads) {
    const AutocastOff no_autocast;
    const auto saved = ctx->get_saved_variables();
    const auto &x = saved[0], &h = saved[1], &x_low = saved[2], &h_low = saved[3];
    const auto r = ctx->saved_data["r"].toTensor(), z = ctx->saved_data["z"].toTensor();
    const auto n = ctx->saved_data["n"].toTensor(), gh_n = ctx->saved_data["gh_n"].toTensor();
    const auto w_ih = ctx->saved_data["w_ih"].toTensor(), w_hh = ctx->saved_data["w_hh"].toTensor();
    auto biases = ctx->saved_data["biases"].toTensorVector();
    const auto real = r.scalar_type();
    const auto d_next = grads[0].to(real);
    const auto d_cand = d_next * (1 - z) * (1 - n * n);
    const auto d_r = d_cand * gh_n * r * (1 - r);
    const auto d_z = d_next * (h.to(real) - n) * z * (1 - z);
    const auto d_gi = torch::cat({d_r, d_z, d_cand}, /*dim=*/1);      // [n, 3H]
    const auto d_gh = torch::cat({d_r, d_z, d_cand * r}, /*dim=*/1);  // [n, 3H]
    const auto low = w_ih.scalar_type();
    const auto d_gi_low = d_gi.to(low), d_gh_low = d_gh.to(low);
    const auto d_x = torch::mm(d_gi_low, w_ih).to(x.scalar_type());
    const auto d_h = (d_next * z + torch::mm(d_gh_low, w_hh).to(real)).to(h.scalar_type());
    // dW_ih += d_gi^T x, dW_hh += d_gh^T h: deferred to one product over all steps
    // (model/step_shared.h), in the products' type as autocast's weight gradients are;
    // db += column sums: in place, in fp32.
    PendingProducts::from(ctx->saved_data["pending_ih"])->add(d_gi_low, x_low);
    PendingProducts::from(ctx->saved_data["pending_hh"])->add(d_gh_low, h_low);
    biases[0].add_(d_gi.sum(0));
    biases[1].add_(d_gh.sum(0));
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
    return cell_forward(x, h, products(cell)).next;
  }
  // The weights as inputs give the node its edges to their collecting nodes (which therefore
  // run after every step's backward).
  return GruCellStep::apply(x, h, cell.w_ih.tensor, cell.w_hh.tensor, cell.b_ih.tensor,
                            cell.b_hh.tensor, cell);
}

}  // namespace s2s::model
