#include "loss/loss.h"

#include <ATen/record_function.h>

#include "data/vocab.h"
#include "loss/cross_entropy_kernel.h"

namespace s2s::loss {
namespace {

using torch::Tensor;
using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

// logits [N, V] (fp32 or bf16), gold [N] -> {-log p(gold) [N], -mean_v log p(v) [N]} in fp32,
// one pass a row each way (loss/cross_entropy_kernel.h); the gradient comes in the logits' type.
struct FusedCrossEntropy : torch::autograd::Function<FusedCrossEntropy> {
  static variable_list forward(AutogradContext* ctx, const Tensor& logits, const Tensor& gold) {
    const int64_t rows = logits.size(0), vocab = logits.size(1);
    const auto fp32 = logits.options().dtype(torch::kFloat);
    auto lse = torch::empty({rows}, fp32), nll = torch::empty({rows}, fp32);
    auto uniform = torch::empty({rows}, fp32);
    const auto gold_rows = gold.to(torch::kLong).contiguous();
    const CrossEntropyRows r{rows, vocab, gold_rows.data_ptr<int64_t>(), lse.data_ptr<float>()};
    if (logits.scalar_type() == torch::kBFloat16) {
      cross_entropy_forward(bits(logits), r, nll.data_ptr<float>(), uniform.data_ptr<float>());
    } else {
      cross_entropy_forward(logits.data_ptr<float>(), r, nll.data_ptr<float>(),
                            uniform.data_ptr<float>());
    }
    ctx->save_for_backward({logits, gold_rows, lse});
    return {nll, uniform};
  }

  static variable_list backward(AutogradContext* ctx, variable_list grads) {
    const auto saved = ctx->get_saved_variables();
    const auto &logits = saved[0], &gold = saved[1], &lse = saved[2];
    // Unused outputs arrive as zeros (materialized grads).
    const auto d_nll = grads[0].to(torch::kFloat).contiguous();
    const auto d_uniform = grads[1].to(torch::kFloat).contiguous();
    const CrossEntropyRows r{logits.size(0), logits.size(1), gold.data_ptr<int64_t>(),
                             lse.data_ptr<float>()};
    auto grad = torch::empty_like(logits);
    if (logits.scalar_type() == torch::kBFloat16) {
      cross_entropy_backward(bits(logits), r, d_nll.data_ptr<float>(), d_uniform.data_ptr<float>(),
                             reinterpret_cast<uint16_t*>(grad.data_ptr<at::BFloat16>()));
    } else {
      cross_entropy_backward(logits.data_ptr<float>(), r, d_nll.data_ptr<float>(),
                             d_uniform.data_ptr<float>(), grad.data_ptr<float>());
    }
    return {grad, Tensor()};
  }

  static const uint16_t* bits(const Tensor& bf16) {
    return reinterpret_cast<const uint16_t*>(bf16.data_ptr<at::BFloat16>());
  }
};

bool fusable(const Tensor& logits) {
  const auto type = logits.scalar_type();
  return logits.device().is_cpu() && logits.dim() == 2 && logits.size(1) > 0 &&
         logits.is_contiguous() && (type == torch::kFloat || type == torch::kBFloat16);
}

}  // namespace

CrossEntropyTerms cross_entropy_terms(const Tensor& logits, const Tensor& gold, bool want_uniform) {
  if (fusable(logits)) {
    const auto out = FusedCrossEntropy::apply(logits, gold);
    return {out[0], out[1]};
  }
  // In fp32 whatever the logits' precision (or double in tests): the loss needs the digits.
  const auto real = logits.scalar_type() == torch::kDouble ? torch::kDouble : torch::kFloat;
  const auto log_probs = torch::log_softmax(logits.to(real), /*dim=*/-1);  // [N, V]
  CrossEntropyTerms terms;
  terms.nll = -log_probs.gather(1, gold.unsqueeze(1)).squeeze(1);
  if (want_uniform) terms.uniform = -log_probs.mean(/*dim=*/-1);
  return terms;
}

LossResult sequence_loss(const Tensor& logits, const Tensor& token_index, const Tensor& targets,
                         double label_smoothing) {
  RECORD_USER_SCOPE("s2s::loss");  // experiments/breakdown.h
  const auto flat_targets = targets.reshape({-1}).index_select(0, token_index);  // [N]
  const auto terms = cross_entropy_terms(logits, flat_targets, label_smoothing > 0);
  const auto mask = flat_targets.ne(data::Vocab::kPad);
  const auto nll = terms.nll * mask;  // -log p(gold) per decoded position: [N]
  LossResult r;
  r.tokens = mask.sum().item<int64_t>();
  const double denominator = static_cast<double>(std::max<int64_t>(r.tokens, 1));
  auto loss = nll.sum();
  if (label_smoothing > 0) {
    // Uniform part: -mean_v log p(v) at real positions.
    const auto smooth = (terms.uniform * mask).sum();
    loss = (1.0 - label_smoothing) * loss + label_smoothing * smooth;
  }
  r.loss = loss / denominator;
  r.nll_sum = nll.sum().item<double>();
  r.token_nll = torch::zeros({targets.numel()}, nll.options())
                    .index_copy(0, token_index, nll)
                    .view_as(targets);
  return r;
}

}  // namespace s2s::loss
