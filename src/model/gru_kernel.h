#pragma once
// The gate arithmetic of one GRU step (equations: model/gru.h) as one pass each way, for the
// CPU in fp32, given the step's input and hidden products gi and gh. Torch-free, so that it
// compiles with OpenMP and per-CPU vector code, without the precompiled torch header. The
// tensor-level gates (model/gru_gates.h) call it for the decoder's cells and the encoder's
// directions. Recorded op by op the same is about a dozen small tensor ops forward and twenty
// backward at every step, each with its dispatch and allocation.
//
// The products come in fp32 or bf16 (raw bits, uint16_t); all else is fp32.
//
// Shapes: B rows, H hidden size; gi, gh [B, 3H] in the chunks r, z, n.

#include <cstdint>

namespace s2s::model {

struct GruKernelShape {
  int64_t rows = 0, hidden = 0;  // B, H
  int64_t gi_stride = 0;         // elements between rows of gi (3H when packed)
};

// gi [B, 3H] (rows gi_stride apart), gh [B, 3H], h [B, H] -> h' [B, H] and, for the backward,
// saved [B, 4H] = [r, z, n, gh_n] (null when there is no backward: decoding).
void gru_kernel_forward(const float* gi, const float* gh, const float* h,
                        const GruKernelShape& shape, float* saved, float* next);
void gru_kernel_forward(const uint16_t* gi, const uint16_t* gh, const float* h,
                        const GruKernelShape& shape, float* saved, float* next);

struct GruKernelGrads {
  float* d_gi = nullptr;  // [B, 3H], rows d_gi_stride apart
  int64_t d_gi_stride = 0;
  float* d_gh = nullptr;          // [B, 3H]
  float* d_h = nullptr;           // [B, H]: d z, the part of dL/dh outside the product dgh W_hh
  uint16_t* d_gi_bf16 = nullptr;  // optional bf16 copies [B, 3H], for bf16 products
  uint16_t* d_gh_bf16 = nullptr;
};

// d_next [B, H] = dL/dh' (plus d_next_extra [B, H] with rows d_next_extra_stride apart, when not
// null), saved [B, 4H] and h [B, H] from the forward -> the gradients above.
void gru_kernel_backward(const float* d_next, const float* d_next_extra,
                         int64_t d_next_extra_stride, const float* saved, const float* h,
                         const GruKernelShape& shape, const GruKernelGrads& out);

}  // namespace s2s::model
