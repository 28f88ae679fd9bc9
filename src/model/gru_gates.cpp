#include "model/gru_gates.h"

#include "model/gru_kernel.h"

namespace s2s::model {
namespace {

using torch::Tensor;

bool rows_of_contiguous(const Tensor& t) { return t.dim() == 2 && t.stride(1) == 1; }

bool fused_forward(const Tensor& gi, const Tensor& gh, const Tensor& h) {
  const auto type = gi.scalar_type();
  return h.device().is_cpu() && gi.device().is_cpu() && h.scalar_type() == torch::kFloat &&
         (type == torch::kFloat || type == torch::kBFloat16) && gh.scalar_type() == type &&
         rows_of_contiguous(gi) && gh.is_contiguous() && h.is_contiguous();
}

const uint16_t* bits(const Tensor& t) {
  return reinterpret_cast<const uint16_t*>(t.data_ptr<at::BFloat16>());
}
uint16_t* mutable_bits(Tensor& t) {
  return reinterpret_cast<uint16_t*>(t.data_ptr<at::BFloat16>());
}

}  // namespace

GateForward gates_forward(const Tensor& gi, const Tensor& gh, const Tensor& h, bool for_backward) {
  const int64_t rows = h.size(0), hidden = h.size(1);
  if (fused_forward(gi, gh, h)) {
    GateForward out{for_backward ? torch::empty({rows, 4 * hidden}, h.options()) : Tensor(),
                    torch::empty_like(h)};
    const GruGates g{rows, hidden, gi.stride(0)};
    float* saved = for_backward ? out.saved.data_ptr<float>() : nullptr;
    if (gi.scalar_type() == torch::kBFloat16) {
      gru_gates_forward(bits(gi), bits(gh), h.data_ptr<float>(), g, saved,
                        out.next.data_ptr<float>());
    } else {
      gru_gates_forward(gi.data_ptr<float>(), gh.data_ptr<float>(), h.data_ptr<float>(), g, saved,
                        out.next.data_ptr<float>());
    }
    return out;
  }
  const auto real = h.scalar_type();
  const auto i = gi.to(real).chunk(3, /*dim=*/1), g = gh.to(real).chunk(3, /*dim=*/1);
  const auto r = torch::sigmoid(i[0] + g[0]);
  const auto z = torch::sigmoid(i[1] + g[1]);
  const auto c = torch::tanh(i[2] + r * g[2]);
  const auto next = c + z * (h - c);  // (1 - z) c + z h
  return {for_backward ? torch::cat({r, z, c, g[2]}, /*dim=*/1) : Tensor(), next};
}

GateBackward gates_backward(const Tensor& d, const Tensor& more, const Tensor& saved,
                            const Tensor& h, torch::ScalarType low) {
  const int64_t rows = h.size(0), hidden = h.size(1);
  const auto real = h.scalar_type();
  GateBackward out;
  if (real == torch::kFloat && h.device().is_cpu() && h.is_contiguous() &&
      (!more.defined() || (more.scalar_type() == torch::kFloat && rows_of_contiguous(more)))) {
    const auto d_next = d.to(torch::kFloat).contiguous();
    out.d_gi = torch::empty({rows, 3 * hidden}, h.options());
    out.d_gh = torch::empty({rows, 3 * hidden}, h.options());
    out.d_h = torch::empty_like(h);
    GruGateGrads grads{out.d_gi.data_ptr<float>(), 3 * hidden, out.d_gh.data_ptr<float>(),
                       out.d_h.data_ptr<float>()};
    if (low == torch::kBFloat16) {
      out.d_gi_low = torch::empty({rows, 3 * hidden}, h.options().dtype(low));
      out.d_gh_low = torch::empty({rows, 3 * hidden}, h.options().dtype(low));
      grads.d_gi_low = mutable_bits(out.d_gi_low);
      grads.d_gh_low = mutable_bits(out.d_gh_low);
    }
    gru_gates_backward(d_next.data_ptr<float>(), more.defined() ? more.data_ptr<float>() : nullptr,
                       more.defined() ? more.stride(0) : 0, saved.contiguous().data_ptr<float>(),
                       h.data_ptr<float>(), {rows, hidden, 3 * hidden}, grads);
    if (low != torch::kBFloat16) {
      out.d_gi_low = out.d_gi.to(low);
      out.d_gh_low = out.d_gh.to(low);
    }
    return out;
  }
  const auto s = saved.chunk(4, /*dim=*/1);
  const auto &r = s[0], &z = s[1], &c = s[2], &gh_n = s[3];
  auto d_next = d.to(real);
  if (more.defined()) d_next = d_next + more.to(real);
  const auto d_c = d_next * (1 - z) * (1 - c * c);
  const auto d_r = d_c * gh_n * r * (1 - r);
  const auto d_z = d_next * (h - c) * z * (1 - z);
  out.d_gi = torch::cat({d_r, d_z, d_c}, /*dim=*/1);
  out.d_gh = torch::cat({d_r, d_z, d_c * r}, /*dim=*/1);
  out.d_h = d_next * z;
  out.d_gi_low = out.d_gi.to(low);
  out.d_gh_low = out.d_gh.to(low);
  return out;
}

}  // namespace s2s::model
