#pragma once
// Cross-entropy rows over logits as one pass each way (loss/loss.cpp uses it). Torch-free, so
// that it compiles with OpenMP and per-CPU vector code, without the precompiled torch header.
//
// Row i of logits x [N, V], gold token y_i, lse_i = log sum_v exp(x_iv):
//   nll_i     = lse_i - x_i,y_i          (-log p(y_i))
//   uniform_i = lse_i - (1/V) sum_v x_iv (-mean_v log p(v), the label-smoothing term)
// and, given dL/dnll_i = a_i and dL/duniform_i = b_i,
//   dL/dx_iv = (a_i + b_i) p_iv - a_i [v = y_i] - b_i / V,   p_iv = exp(x_iv - lse_i).
// Recorded op by op (cast, log_softmax, gather, mean and their backward) the same takes about
// ten passes over [N, V], the largest tensors of a training step.
//
// Logits are fp32 or bf16 (raw bits, uint16_t); statistics and incoming gradients fp32; the
// gradient is written in the logits' type (bf16 rounded to nearest even).

#include <cstdint>

namespace s2s::loss {

struct CrossEntropyRows {
  int64_t rows = 0, vocab = 0;
  const int64_t* gold = nullptr;  // [N], each in [0, V) (else std::out_of_range, nothing read)
  float* lse = nullptr;           // [N]
};

void cross_entropy_forward(const float* logits, const CrossEntropyRows& r, float* nll,
                           float* uniform);
void cross_entropy_forward(const uint16_t* logits, const CrossEntropyRows& r, float* nll,
                           float* uniform);

// d_nll, d_uniform [N]; grad [N, V].
void cross_entropy_backward(const float* logits, const CrossEntropyRows& r, const float* d_nll,
                            const float* d_uniform, float* grad);
void cross_entropy_backward(const uint16_t* logits, const CrossEntropyRows& r, const float* d_nll,
                            const float* d_uniform, uint16_t* grad);

}  // namespace s2s::loss
