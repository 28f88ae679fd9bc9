#include "model/gru_direction.h"

#include "model/gru.h"
#include "model/gru_gates.h"

namespace s2s::model {
namespace {

using torch::Tensor;
using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

// The state a step starts from, [rows, H]: the previous step's h' `last` [r, H] (undefined
// before the first step) for its rows, zeros for rows that start here (a reverse direction's
// shorter sentences start at their last word).
Tensor start_state(const Tensor& last, int64_t rows, int64_t hidden,
                   const torch::TensorOptions& options) {
  if (!last.defined()) return torch::zeros({rows, hidden}, options);
  if (rows <= last.size(0)) return last.narrow(0, 0, rows);
  return torch::cat({last, torch::zeros({rows - last.size(0), hidden}, options)});
}

// Each row's state after its last step: [B, H], from the pieces that rows left the batch with
// (rows [r_k, r_{k-1}) leaving after piece k) and the last step's h' (undefined: no step ran).
Tensor final_states(const Tensor& last, const std::vector<Tensor>& left, int64_t batch,
                    int64_t hidden, const torch::TensorOptions& options) {
  if (!last.defined()) return torch::zeros({batch, hidden}, options);
  std::vector<Tensor> pieces{last};
  pieces.insert(pieces.end(), left.rbegin(), left.rend());
  int64_t rows = 0;
  for (const auto& p : pieces) rows += p.size(0);
  if (rows < batch) pieces.push_back(torch::zeros({batch - rows, hidden}, options));
  return pieces.size() == 1 ? last : torch::cat(pieces);
}

// The states and gradients of every step are written into [B, S, ...] tensors in place, and the
// running state is the previous step's output: no per-step concatenations (four a step each
// way, a quarter of the encoder's non-product time on the reference model).
struct GruDirection : torch::autograd::Function<GruDirection> {
  static variable_list forward(AutogradContext* ctx, const Tensor& gi_all, const Tensor& w_hh,
                               const Tensor& b_hh, const std::vector<int64_t>& active, bool reverse,
                               bool bf16) {
    const AutocastOff no_autocast;
    const int64_t batch = gi_all.size(0), steps = gi_all.size(1), hidden = w_hh.size(1);
    // The states in fp32 for reduced-precision projections, else in their own type (double in
    // tests).
    const auto state_dtype =
        gi_all.scalar_type() == torch::kDouble ? torch::kDouble : torch::kFloat;
    const auto options = gi_all.options().dtype(state_dtype);
    const auto w_mm = bf16 ? w_hh.to(torch::kBFloat16) : w_hh;  // [3H, H]
    const auto b_mm = b_hh.to(w_mm.scalar_type());
    // The gates read the input products as they are when their type is the hidden products'.
    const auto gi = gi_all.scalar_type() == w_mm.scalar_type() ? gi_all : gi_all.to(state_dtype);
    auto states = torch::zeros({batch, steps, hidden}, options);  // h'_t of the active rows
    Tensor last;                                                  // the last step's h'
    std::vector<Tensor> saved, left;  // per step: the gates [B_t, 4H] and h [B_t, H]
    saved.reserve(static_cast<std::size_t>(2 * steps));
    for (int64_t k = 0; k < steps; ++k) {
      const int64_t t = reverse ? steps - 1 - k : k;
      const int64_t rows = active[static_cast<std::size_t>(t)];
      if (rows == 0) continue;
      if (last.defined() && rows < last.size(0)) {
        left.push_back(last.narrow(0, rows, last.size(0) - rows));
      }
      const auto prev = start_state(last, rows, hidden, options);
      const auto gh = torch::addmm(b_mm, prev.to(w_mm.scalar_type()), w_mm.t());  // [B_t, 3H]
      auto gates = gru_gates_forward(gi.select(1, t).narrow(0, 0, rows), gh, prev);
      saved.insert(saved.end(), {gates.saved, prev});
      states.select(1, t).narrow(0, 0, rows).copy_(gates.next);
      last = gates.next;
    }
    const auto final = final_states(last, left, batch, hidden, options);
    ctx->saved_data["w_mm"] = w_mm;
    ctx->saved_data["saved"] = saved;
    ctx->saved_data["active"] = active;
    ctx->saved_data["reverse"] = reverse;
    ctx->saved_data["gi_dtype"] = gi_all.scalar_type();
    ctx->saved_data["state_dtype"] = state_dtype;
    ctx->saved_data["batch"] = batch;
    ctx->saved_data["hidden"] = hidden;
    return {states, final};
  }

  static variable_list backward(AutogradContext* ctx, variable_list grads) {
    const AutocastOff no_autocast;
    const auto w_mm = ctx->saved_data["w_mm"].toTensor();
    const auto saved = ctx->saved_data["saved"].toTensorVector();
    const auto active = ctx->saved_data["active"].toIntVector();
    const bool reverse = ctx->saved_data["reverse"].toBool();
    const auto steps = static_cast<int64_t>(active.size());
    const auto& d_states = grads[0];  // [B, S, H] (undefined when unused)
    const int64_t batch = ctx->saved_data["batch"].toInt();
    const int64_t hidden = ctx->saved_data["hidden"].toInt();
    const auto state_dtype = ctx->saved_data["state_dtype"].toScalarType();
    const auto options = w_mm.options().dtype(state_dtype);
    // dL/dh through the later steps (and the final state): [B, H], updated in place.
    auto dh = grads[1].defined() ? grads[1].to(state_dtype, /*non_blocking=*/false, /*copy=*/true)
                                 : torch::zeros({batch, hidden}, options);
    const int64_t gates = w_mm.size(0);
    auto d_gi_all = torch::zeros({batch, steps, gates}, options);  // zero where a row is done
    std::vector<Tensor> d_gh, h_prev;
    auto next_saved = static_cast<int64_t>(saved.size());
    // The forward's steps in reverse order: k = steps - 1 .. 0.
    for (int64_t k = steps - 1; k >= 0; --k) {
      const int64_t t = reverse ? steps - 1 - k : k;
      const int64_t rows = active[static_cast<std::size_t>(t)];
      if (rows == 0) continue;
      next_saved -= 2;
      const auto& gate_values = saved[static_cast<std::size_t>(next_saved)];
      const auto& prev = saved[static_cast<std::size_t>(next_saved + 1)];
      // The gradient from this step's output state, added to dh inside the gates' backward.
      const auto d_state_t =
          d_states.defined() ? d_states.select(1, t).narrow(0, 0, rows) : Tensor();
      auto head = dh.narrow(0, 0, rows);
      auto g = gru_gates_backward(head, d_state_t, gate_values, prev, w_mm.scalar_type());
      d_gi_all.select(1, t).narrow(0, 0, rows).copy_(g.d_gi);
      head.copy_(g.d_h.add_(torch::mm(g.d_gh_mm, w_mm)));  // d z + dgh W_hh
      d_gh.push_back(g.d_gh);
      h_prev.push_back(prev);
    }
    d_gi_all = d_gi_all.to(ctx->saved_data["gi_dtype"].toScalarType());
    if (d_gh.empty()) return {d_gi_all, Tensor(), Tensor(), Tensor(), Tensor(), Tensor()};
    const auto d_gh_all = torch::cat(d_gh);  // [N, 3H] over every (row, step) run
    // dW_hh [3H, H] in the hidden products' type (bf16 under mixed precision, as autocast's
    // weight gradients are); db_hh, the column sums, in fp32.
    const auto product_dtype = w_mm.scalar_type();
    const auto d_w = torch::mm(d_gh_all.to(product_dtype).t(), torch::cat(h_prev).to(product_dtype))
                         .to(state_dtype);
    return {d_gi_all, d_w, d_gh_all.sum(0), Tensor(), Tensor(), Tensor()};
  }
};

}  // namespace

GruDirectionOutput gru_direction(const torch::Tensor& gi_all, const torch::Tensor& w_hh,
                                 const torch::Tensor& b_hh, const std::vector<int64_t>& active,
                                 bool reverse, bool bf16) {
  const auto out = GruDirection::apply(gi_all, w_hh, b_hh, active, reverse, bf16);
  return {out[0], out[1]};
}

}  // namespace s2s::model
