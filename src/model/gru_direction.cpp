#include "model/gru_direction.h"

#include "model/gru.h"
#include "model/gru_gates.h"

namespace s2s::model {
namespace {

using torch::Tensor;
using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

// x [n, ...] -> [rows, ...] with zero rows below.
Tensor pad_rows(const Tensor& x, int64_t rows) {
  if (x.size(0) == rows) return x;
  auto shape = x.sizes().vec();
  shape[0] = rows - x.size(0);
  return torch::cat({x, torch::zeros(shape, x.options())});
}

// The rows [0, n) of h replaced by `head` (the rows below are kept): [B, H].
Tensor replace_head(const Tensor& h, const Tensor& head) {
  const int64_t n = head.size(0), rows = h.size(0);
  return n == rows ? head : torch::cat({head, h.narrow(0, n, rows - n)});
}

struct GruDirection : torch::autograd::Function<GruDirection> {
  static variable_list forward(AutogradContext* ctx, const Tensor& gi_all, const Tensor& w_hh,
                               const Tensor& b_hh, const std::vector<int64_t>& active, bool reverse,
                               bool bf16) {
    const AutocastOff no_autocast;
    const int64_t batch = gi_all.size(0), steps = gi_all.size(1), hidden = w_hh.size(1);
    // fp32 arithmetic for reduced-precision projections, else their own (double in tests).
    const auto real = gi_all.scalar_type() == torch::kDouble ? torch::kDouble : torch::kFloat;
    const auto w = bf16 ? w_hh.to(torch::kBFloat16) : w_hh;  // [3H, H]
    const auto b = b_hh.to(w.scalar_type());
    // The gates read the input products as they are when their type is the hidden products'.
    const auto gi = gi_all.scalar_type() == w.scalar_type() ? gi_all : gi_all.to(real);
    auto h = torch::zeros({batch, hidden}, gi_all.options().dtype(real));
    // Per step: the gates [n_t, 4H] and the state the step started from [n_t, H].
    std::vector<Tensor> states(static_cast<std::size_t>(steps)), saved;
    saved.reserve(static_cast<std::size_t>(2 * steps));
    for (int64_t k = 0; k < steps; ++k) {
      const int64_t t = reverse ? steps - 1 - k : k;
      const int64_t n = active[static_cast<std::size_t>(t)];
      if (n == 0) {
        states[static_cast<std::size_t>(t)] = torch::zeros_like(h);
        continue;
      }
      const auto prev = h.narrow(0, 0, n);
      const auto gh = torch::addmm(b, prev.to(w.scalar_type()), w.t());  // [n, 3H]
      auto gates = gates_forward(gi.select(1, t).narrow(0, 0, n), gh, prev);
      saved.insert(saved.end(), {gates.saved, prev});
      h = replace_head(h, gates.next);
      states[static_cast<std::size_t>(t)] = pad_rows(gates.next, batch);
    }
    ctx->saved_data["w"] = w;
    ctx->saved_data["saved"] = saved;
    ctx->saved_data["active"] = active;
    ctx->saved_data["reverse"] = reverse;
    ctx->saved_data["gi_dtype"] = gi_all.scalar_type();
    ctx->saved_data["real"] = real;
    ctx->saved_data["batch"] = batch;
    ctx->saved_data["hidden"] = hidden;
    return {torch::stack(states, /*dim=*/1), h};
  }

  static variable_list backward(AutogradContext* ctx, variable_list grads) {
    const AutocastOff no_autocast;
    const auto w = ctx->saved_data["w"].toTensor();
    const auto saved = ctx->saved_data["saved"].toTensorVector();
    const auto active = ctx->saved_data["active"].toIntVector();
    const bool reverse = ctx->saved_data["reverse"].toBool();
    const auto steps = static_cast<int64_t>(active.size());
    const auto& d_states = grads[0];  // [B, S, H] (undefined when unused)
    const int64_t batch = ctx->saved_data["batch"].toInt();
    const int64_t hidden = ctx->saved_data["hidden"].toInt();
    const auto real = ctx->saved_data["real"].toScalarType();
    auto dh = grads[1].defined() ? grads[1].to(real)
                                 : torch::zeros({batch, hidden}, w.options().dtype(real));
    std::vector<Tensor> d_gi(static_cast<std::size_t>(steps)), d_gh, h_prev;
    auto next_saved = static_cast<int64_t>(saved.size());
    // The forward's steps in reverse order: k = steps - 1 .. 0.
    for (int64_t k = steps - 1; k >= 0; --k) {
      const int64_t t = reverse ? steps - 1 - k : k;
      const int64_t n = active[static_cast<std::size_t>(t)];
      if (n == 0) continue;
      next_saved -= 2;
      const auto& gates = saved[static_cast<std::size_t>(next_saved)];
      const auto& prev = saved[static_cast<std::size_t>(next_saved + 1)];
      const auto more = d_states.defined() ? d_states.select(1, t).narrow(0, 0, n) : Tensor();
      auto g = gates_backward(dh.narrow(0, 0, n), more, gates, prev, w.scalar_type());
      d_gi[static_cast<std::size_t>(t)] = pad_rows(g.d_gi, batch);
      dh = replace_head(dh, g.d_h.add_(torch::mm(g.d_gh_low, w)));  // d z + W_h^T dL/dgh
      d_gh.push_back(g.d_gh);
      h_prev.push_back(prev);
    }
    const int64_t gates = w.size(0);
    for (auto& d : d_gi) {
      if (!d.defined()) d = torch::zeros({batch, gates}, dh.options());
    }
    const auto d_gi_all =
        torch::stack(d_gi, /*dim=*/1).to(ctx->saved_data["gi_dtype"].toScalarType());
    if (d_gh.empty()) return {d_gi_all, Tensor(), Tensor(), Tensor(), Tensor(), Tensor()};
    const auto d_gh_all = torch::cat(d_gh);  // [N, 3H] over every (row, step) run
    // [3H, H], in the hidden products' type (bf16 under mixed precision, as autocast's weight
    // gradients are); the bias's column sums in fp32.
    const auto low = w.scalar_type();
    const auto d_w = torch::mm(d_gh_all.to(low).t(), torch::cat(h_prev).to(low)).to(real);
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
