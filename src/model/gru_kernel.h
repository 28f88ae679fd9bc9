#pragma once
// The gate arithmetic of one GRU step (the equations of model/gru.h) as one pass each way, for
// the CPU in fp32, given the step's input and hidden products. Torch-free, so that it compiles
// with OpenMP and per-CPU vector code, without the precompiled torch header. The decoder's cell
// steps (model/gru_cell.cpp) and the encoder's directions (model/gru_direction.cpp) use it.
//
// Row i of n, hidden size H; gi = W_i x + b_i and gh = W_h h + b_h, each [3H] as r, z, n:
//   r = sigmoid(gi_r + gh_r),  z = sigmoid(gi_z + gh_z),  c = tanh(gi_n + r gh_n)
//   h' = c + z (h - c)                                    ((1 - z) c + z h)
// and, given d = dL/dh':
//   d_c = d (1 - z) (1 - c^2),  d_r = d_c gh_n r (1 - r),  d_z = d (h - c) z (1 - z)
//   dL/dgi = [d_r, d_z, d_c],   dL/dgh = [d_r, d_z, d_c r],   dL/dh = d z + W_h^T dL/dgh
// (the product left to the caller). Recorded op by op that is about a dozen small tensor ops
// forward and twenty backward at every step, each with its dispatch and allocation.
//
// The products come in fp32 or bf16 (raw bits, uint16_t); all else is fp32.

#include <cstdint>

namespace s2s::model {

struct GruGates {
  int64_t rows = 0, hidden = 0;  // n, H
  int64_t gi_stride = 0;         // elements between rows of gi (3H when packed)
};

// gi [n, 3H] (rows gi_stride apart), gh [n, 3H], h [n, H] -> h' [n, H] and, for the backward,
// saved [n, 4H] = [r, z, c, gh_n] (null when there is no backward: decoding).
void gru_gates_forward(const float* gi, const float* gh, const float* h, const GruGates& g,
                       float* saved, float* next);
void gru_gates_forward(const uint16_t* gi, const uint16_t* gh, const float* h, const GruGates& g,
                       float* saved, float* next);

struct GruGateGrads {
  float* d_gi = nullptr;  // [n, 3H], rows d_gi_stride apart
  int64_t d_gi_stride = 0;
  float* d_gh = nullptr;         // [n, 3H]
  float* d_h = nullptr;          // [n, H]: d z, the part of dL/dh outside the product
  uint16_t* d_gi_low = nullptr;  // optional bf16 copies [n, 3H], for bf16 products
  uint16_t* d_gh_low = nullptr;
};

// d [n, H] (plus `more` [n, H] with rows more_stride apart, when not null), saved [n, 4H] and h
// [n, H] from the forward -> the gradients above.
void gru_gates_backward(const float* d, const float* more, int64_t more_stride, const float* saved,
                        const float* h, const GruGates& g, const GruGateGrads& out);

}  // namespace s2s::model
