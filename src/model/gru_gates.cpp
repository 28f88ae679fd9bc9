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

GruGatesForward gru_gates_forward(const Tensor& gi, const Tensor& gh, const Tensor& h,
                                  bool for_backward) {
  const int64_t rows = h.size(0), hidden = h.size(1);
  if (fused_forward(gi, gh, h)) {
    GruGatesForward out{for_backward ? torch::empty({rows, 4 * hidden}, h.options()) : Tensor(),
                        torch::empty_like(h)};
    const GruKernelShape shape{rows, hidden, gi.stride(0)};
    float* saved = for_backward ? out.saved.data_ptr<float>() : nullptr;
    if (gi.scalar_type() == torch::kBFloat16) {
      gru_kernel_forward(bits(gi), bits(gh), h.data_ptr<float>(), shape, saved,
                         out.next.data_ptr<float>());
    } else {
      gru_kernel_forward(gi.data_ptr<float>(), gh.data_ptr<float>(), h.data_ptr<float>(), shape,
                         saved, out.next.data_ptr<float>());
    }
    return out;
  }
  const auto state_dtype = h.scalar_type();
  const auto i = gi.to(state_dtype).chunk(3, /*dim=*/1), g = gh.to(state_dtype).chunk(3, /*dim=*/1);
  const auto r = torch::sigmoid(i[0] + g[0]);
  const auto z = torch::sigmoid(i[1] + g[1]);
  const auto n = torch::tanh(i[2] + r * g[2]);
  const auto next = n + z * (h - n);  // (1 - z) n + z h
  return {for_backward ? torch::cat({r, z, n, g[2]}, /*dim=*/1) : Tensor(), next};
}

GruGatesBackward gru_gates_backward(const Tensor& d_next, const Tensor& d_next_extra,
                                    const Tensor& saved, const Tensor& h,
                                    torch::ScalarType product_dtype) {
  const int64_t rows = h.size(0), hidden = h.size(1);
  const auto state_dtype = h.scalar_type();
  const bool extra = d_next_extra.defined();
  GruGatesBackward out;
  if (state_dtype == torch::kFloat && h.device().is_cpu() && h.is_contiguous() &&
      (!extra ||
       (d_next_extra.scalar_type() == torch::kFloat && rows_of_contiguous(d_next_extra)))) {
    const auto d = d_next.to(torch::kFloat).contiguous();
    out.d_gi = torch::empty({rows, 3 * hidden}, h.options());
    out.d_gh = torch::empty({rows, 3 * hidden}, h.options());
    out.d_h = torch::empty_like(h);
    GruKernelGrads grads{out.d_gi.data_ptr<float>(), 3 * hidden, out.d_gh.data_ptr<float>(),
                         out.d_h.data_ptr<float>()};
    if (product_dtype == torch::kBFloat16) {
      out.d_gi_mm = torch::empty({rows, 3 * hidden}, h.options().dtype(product_dtype));
      out.d_gh_mm = torch::empty({rows, 3 * hidden}, h.options().dtype(product_dtype));
      grads.d_gi_bf16 = mutable_bits(out.d_gi_mm);
      grads.d_gh_bf16 = mutable_bits(out.d_gh_mm);
    }
    gru_kernel_backward(d.data_ptr<float>(), extra ? d_next_extra.data_ptr<float>() : nullptr,
                        extra ? d_next_extra.stride(0) : 0, saved.contiguous().data_ptr<float>(),
                        h.data_ptr<float>(), {rows, hidden, 3 * hidden}, grads);
    if (product_dtype != torch::kBFloat16) {
      out.d_gi_mm = out.d_gi.to(product_dtype);
      out.d_gh_mm = out.d_gh.to(product_dtype);
    }
    return out;
  }
  const auto s = saved.chunk(4, /*dim=*/1);
  const auto &r = s[0], &z = s[1], &n = s[2], &gh_n = s[3];
  auto d = d_next.to(state_dtype);
  if (extra) d = d + d_next_extra.to(state_dtype);
  const auto d_n = d * (1 - z) * (1 - n * n);
  const auto d_r = d_n * gh_n * r * (1 - r);
  const auto d_z = d * (h - n) * z * (1 - z);
  out.d_gi = torch::cat({d_r, d_z, d_n}, /*dim=*/1);
  out.d_gh = torch::cat({d_r, d_z, d_n * r}, /*dim=*/1);
  out.d_h = d * z;
  out.d_gi_mm = out.d_gi.to(product_dtype);
  out.d_gh_mm = out.d_gh.to(product_dtype);
  return out;
}

}  // namespace s2s::model
