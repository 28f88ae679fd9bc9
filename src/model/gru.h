#pragma once
// GRU arithmetic for bf16 mixed precision. LibTorch's autocast runs matrix products in bf16 but
// leaves nn::GRU and nn::GRUCell whole in fp32, so under autocast the model steps its GRUs
// itself: the input and hidden projections as (autocast, bf16) linear layers, the gates in
// fp32, the state kept in fp32 (PyTorch's GRU equations, Cho et al. 2014):
//   r = sigmoid(W_ir x + b_ir + W_hr h + b_hr)
//   z = sigmoid(W_iz x + b_iz + W_hz h + b_hz)
//   n = tanh(W_in x + b_in + r * (W_hn h + b_hn))
//   h' = (1 - z) * n + z * h
// The weights are those of the nn::GRU / nn::GRUCell modules, so checkpoints are the same in
// either precision. Without autocast the model calls LibTorch's own GRUs (fp32 results stay
// exactly what they were). On a CPU the model suspends autocast around its recurrent parts
// (CpuAutocastOff below), so these steps run under autocast on CUDA only.
//
// Shapes: B batch, S source length, I input size, H hidden size.

#include <torch/torch.h>

namespace s2s::model {

// True while bf16 autocast is on for tensors on `like`'s device.
bool mixed_precision(const torch::Tensor& like);

// Suspends CPU autocast for its lifetime, so that on a CPU only the output layer runs in bf16.
// The recurrent parts (encoder, attention, decoder steps) multiply [B, H] x [H, 3H]-sized
// matrices once per time step: too small for bf16 to beat fp32 kernels once each step's casts
// are paid. Measured on a 2-core AMX Xeon, reference settings (bench/reference.json), 60
// updates: the whole model under autocast trained 2,190 target tokens/s, fp32 2,540, the output
// layer alone in bf16 2,860. CUDA autocast is left as it is.
class CpuAutocastOff {
 public:
  CpuAutocastOff();
  ~CpuAutocastOff();
  CpuAutocastOff(const CpuAutocastOff&) = delete;
  CpuAutocastOff& operator=(const CpuAutocastOff&) = delete;

 private:
  bool was_enabled_;
};

// One GRUCell step: x [B, I], h [B, H] (fp32) -> h' [B, H] (fp32).
torch::Tensor gru_cell_step(torch::nn::GRUCellImpl& cell, const torch::Tensor& x,
                            const torch::Tensor& h);

struct GruOutput {
  torch::Tensor states;  // [B, S, 2H], zero at padding
  torch::Tensor final;   // [B, 2H]: the top layer's last forward and first backward states
};

// The bidirectional (multi-layer) `rnn` over x [B, S, I] with `lengths` [B] (CPU, int64), as
// its packed forward computes it: rows are sorted by length so that at every step the rows
// still inside their sentence are a prefix of the batch, and padding costs nothing. `dropout`
// acts between layers in training, as nn::GRU's does.
GruOutput bidirectional_gru(torch::nn::GRUImpl& rnn, const torch::Tensor& x,
                            const torch::Tensor& lengths, double dropout, bool training);

}  // namespace s2s::model
