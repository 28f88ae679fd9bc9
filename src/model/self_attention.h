#pragma once
// Multi-head scaled dot-product self-attention over the encoder states (Vaswani et al. 2017,
// eqs. 1-2), with a residual connection, dropout and layer normalization:
//   Q = H W_q, K = H W_k, V = H W_v, split into m heads of size d = D/m,
//   A_h = softmax(Q_h K_h^T / sqrt(d)) (padded keys masked), O = [A_1 V_1; ...; A_m V_m] W_o,
//   H' = LayerNorm(H + Dropout(O)).
// It lets every source position see the whole sentence directly, not only through the GRU.
//
// Shapes: B batch, S source length, D state size, m heads.

#include <torch/torch.h>

namespace s2s::model {

struct SelfAttentionOptions {
  SelfAttentionOptions(int64_t size, int64_t heads) : size_(size), heads_(heads) {}
  TORCH_ARG(int64_t, size);
  TORCH_ARG(int64_t, heads);
  TORCH_ARG(double, dropout) = 0.0;
};

struct SelfAttentionOutput {
  torch::Tensor states;   // [B, S, D]
  torch::Tensor weights;  // [B, m, S, S]: row i = how position i attends to every position
};

class SelfAttentionImpl : public torch::nn::Module {
 public:
  explicit SelfAttentionImpl(const SelfAttentionOptions& options);
  // states [B, S, D], mask [B, S] (true = real token).
  SelfAttentionOutput forward(const torch::Tensor& states, const torch::Tensor& mask);

 private:
  SelfAttentionOptions options_;
  torch::nn::Linear query_{nullptr}, key_{nullptr}, value_{nullptr}, output_{nullptr};
  torch::nn::LayerNorm norm_{nullptr};
  torch::nn::Dropout dropout_{nullptr};
};
TORCH_MODULE(SelfAttention);

}  // namespace s2s::model
