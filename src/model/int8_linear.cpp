#include "model/int8_linear.h"

#include <ATen/core/dispatch/Dispatcher.h>
#include <ATen/native/quantized/PackedParams.h>

#include <algorithm>
#include <cmath>
#include <mutex>

namespace s2s::model {
namespace {

thread_local bool int8_on = false;

using PackedParams = c10::intrusive_ptr<LinearPackedParamsBase>;

// quantized::linear_prepack on the onednn engine: the int8 weight reordered into the layout
// its kernels read, with the fp32 bias.
PackedParams prepack(const torch::Tensor& q_weight, const torch::Tensor& bias) {
  static const auto op = c10::Dispatcher::singleton()
                             .findSchemaOrThrow("quantized::linear_prepack", "")
                             .typed<PackedParams(at::Tensor, c10::optional<at::Tensor>)>();
  return op.call(q_weight, bias.defined() ? c10::optional<at::Tensor>(bias) : c10::nullopt);
}

// What a packed weight was made from: the tensor (held weakly, so that its address is never
// another tensor's while this lives), its data and its version counter.
struct Source {
  c10::weak_intrusive_ptr<c10::TensorImpl, c10::UndefinedTensorImpl> impl;
  const void* data = nullptr;
  int64_t version = 0;

  explicit Source(const torch::Tensor& t)
      : impl(t.defined() ? t.getIntrusivePtr()
                         : c10::intrusive_ptr<c10::TensorImpl, c10::UndefinedTensorImpl>()),
        data(t.defined() ? t.data_ptr() : nullptr),
        version(t.defined() ? t._version() : 0) {}

  bool same(const torch::Tensor& t) const {
    if (!t.defined()) return data == nullptr;
    return impl._unsafe_get_target() == t.unsafeGetTensorImpl() && data == t.data_ptr() &&
           version == t._version();
  }
};

// rows [M, K] -> [M', K]: the rows, then a row of -R and one of R (R = input_range(rows)), then
// zeros up to M' = M + 2 rounded up to kRowMultiple or kManyRowMultiple (model/int8_linear.h
// says why).
torch::Tensor with_range_rows(const torch::Tensor& rows) {
  const int64_t m = rows.size(0), k = rows.size(1);
  const int64_t multiple = m + 2 <= kFewRows ? kRowMultiple : kManyRowMultiple;
  const int64_t padded = (m + 2 + multiple - 1) / multiple * multiple;
  const double range = input_range(rows);
  auto out = torch::empty({padded, k}, rows.options());
  out.narrow(0, 0, m).copy_(rows);
  out[m].fill_(-range);
  out[m + 1].fill_(range);
  out.narrow(0, m + 2, padded - m - 2).zero_();
  return out;
}

}  // namespace

Int8Scope::Int8Scope(bool on) : previous_(int8_on) {
  if (on) {
    static std::once_flag engine_chosen;  // a process-wide setting: written once
    std::call_once(engine_chosen, [] { at::globalContext().setQEngine(at::QEngine::ONEDNN); });
    int8_on = true;
  }
}

Int8Scope::~Int8Scope() { int8_on = previous_; }

bool int8_decoding() { return int8_on && !torch::GradMode::is_enabled(); }

Int8Rows quantize_rows(const torch::Tensor& weight) {
  const torch::NoGradGuard no_grad;
  const auto w = weight.detach().to(torch::kFloat).contiguous();
  // s_n = max_k |W_nk| / 127; a zero row keeps a positive scale (its q are 0).
  const auto scales = (w.abs().amax(1) / 127.0).clamp_min(1e-12);
  const auto q = torch::round(w / scales.unsqueeze(1)).clamp(-127, 127).to(torch::kChar);
  return {q, scales};
}

struct Int8Weight::Packed {
  Source weight, bias;
  PackedParams params;
};

Int8Weight::Int8Weight() = default;
Int8Weight::~Int8Weight() = default;

std::shared_ptr<const Int8Weight::Packed> Int8Weight::packed(const torch::Tensor& weight,
                                                             const torch::Tensor& bias) const {
  const std::lock_guard<std::mutex> lock(mutex_);
  if (packed_ && packed_->weight.same(weight) && packed_->bias.same(bias)) return packed_;
  const torch::NoGradGuard no_grad;
  const auto rows = quantize_rows(weight);
  // The engine's per-channel int8 tensor: symmetric (zero points 0), one scale per row.
  const auto q = torch::_make_per_channel_quantized_tensor(
      rows.q, rows.scales.to(torch::kDouble), torch::zeros({rows.q.size(0)}, torch::kLong), 0);
  packed_ = std::make_shared<Packed>(
      Packed{Source(weight), Source(bias),
             prepack(q, bias.defined() ? bias.detach().to(torch::kFloat) : torch::Tensor())});
  return packed_;
}

torch::Tensor Int8Weight::linear(const torch::Tensor& x, const torch::Tensor& weight,
                                 const torch::Tensor& bias) const {
  const auto n = weight.size(0);
  auto sizes = x.sizes().vec();
  sizes.back() = n;
  const auto rows = x.reshape({-1, x.size(-1)}).to(torch::kFloat);
  const int64_t m = rows.size(0);
  if (m == 0) return torch::empty(sizes, x.options().dtype(torch::kFloat));
  const auto params = packed(weight, bias);
  const auto y = params->params->apply_dynamic(with_range_rows(rows), /*reduce_range=*/false);
  return y.narrow(0, 0, m).reshape(sizes);
}

double input_range(const torch::Tensor& x) {
  const double largest = std::max(x.abs().max().item<double>(), kSmallestRange);
  return std::exp2(std::ceil(std::log2(largest)));
}

}  // namespace s2s::model
