#include "model/self_attention.h"

#include <ATen/record_function.h>

#include <cmath>
#include <limits>

#include "model/dropout.h"

namespace s2s::model {

SelfAttentionImpl::SelfAttentionImpl(const SelfAttentionOptions& o) : options_(o) {
  TORCH_CHECK(o.size() % o.heads() == 0, "self-attention heads (", o.heads(),
              ") must divide the state size (", o.size(), ")");
  const auto linear = [&](const char* name) {
    return register_module(name, torch::nn::Linear(o.size(), o.size()));
  };
  query_ = linear("query");
  key_ = linear("key");
  value_ = linear("value");
  output_ = linear("output");
  norm_ = register_module("norm", torch::nn::LayerNorm(torch::nn::LayerNormOptions({o.size()})));
  dropout_ = register_module("dropout", torch::nn::Dropout(o.dropout()));
}

SelfAttentionOutput SelfAttentionImpl::forward(const torch::Tensor& states,
                                               const torch::Tensor& mask) {
  RECORD_USER_SCOPE("s2s::attention");  // experiments/breakdown.h
  const int64_t batch = states.size(0), len = states.size(1), m = options_.heads();
  const int64_t d = options_.size() / m;
  // [B, S, D] -> [B, m, S, d]
  const auto heads = [&](const torch::Tensor& t) {
    return t.view({batch, len, m, d}).transpose(1, 2);
  };
  const auto q = heads(query_(states)), k = heads(key_(states)), v = heads(value_(states));
  // scores [B, m, S, S]; padded keys get -inf, so exactly zero weight.
  auto scores = torch::matmul(q, k.transpose(-2, -1)) / std::sqrt(static_cast<double>(d));
  scores = scores.masked_fill(mask.logical_not().view({batch, 1, 1, len}),
                              -std::numeric_limits<float>::infinity());
  const auto weights = torch::softmax(scores.to(torch::kFloat), /*dim=*/-1);  // fp32 under bf16
  const auto mixed =
      torch::matmul(weights, v).transpose(1, 2).reshape({batch, len, options_.size()});
  return {norm_(states + dropout(dropout_, output_(mixed))), weights};
}

}  // namespace s2s::model
