#pragma once
// The model's GRUs (Cho et al. 2014, eq. 5-8, with PyTorch's placement of r: it multiplies
// W_hn h + b_hn). The equations below are the only statement of them; the other gru_* files cite
// "equations: model/gru.h".
//
// One step, x [B, I] the input and h [B, H] the state; gi = W_ih x + b_ih and gh = W_hh h + b_hh,
// each [B, 3H] in the chunks r, z, n:
//   r  = sigmoid(gi_r + gh_r)
//   z  = sigmoid(gi_z + gh_z)
//   n  = tanh(gi_n + r gh_n)
//   h' = (1 - z) n + z h  =  n + z (h - n)            (computed in the second form)
// Its backward, given d = dL/dh':
//   dn = d (1 - z) (1 - n^2)
//   dr = dn gh_n r (1 - r)
//   dz = d (h - n) z (1 - z)
//   dgi = [dr, dz, dn],   dgh = [dr, dz, dn r]
//   dx = dgi W_ih,   dh = d z + dgh W_hh
//   dW_ih = sum dgi^T x,   dW_hh = sum dgh^T h,   db_ih = sum dgi,   db_hh = sum dgh
// (the sums over rows and steps). A step saves [r, z, n, gh_n] [B, 4H] for its backward.
//
// The family, bottom up:
//   gru_kernel.h     the gate arithmetic of a step on raw fp32 / bf16 arrays (CPU, torch-free)
//   gru_gates.h      the same on tensors: the kernel where it applies, else tensor ops
//   gru_direction.h  one direction of one encoder layer as one autograd node
//   gru_cell.h       one decoder step of a GRUCell as one autograd node
//   gru.h            where bf16 runs, and the encoder's bidirectional layers (below)
//
// The encoder runs its own loop in every precision: the input projections of all steps as one
// product, then each direction as one autograd node whose backward through time is written out
// (model/gru_direction.h). Under bf16 autocast the input product runs in bf16 and the hidden
// products too, the gates and states in fp32. LibTorch's autocast would leave nn::GRU whole in
// fp32. The decoder's GRUCell steps are one node each (model/gru_cell.h), with bf16 products
// under bf16 mixed precision on either device and the gates in fp32.
// The weights are those of the nn::GRU / nn::GRUCell modules, so checkpoints are the same in
// every precision and from before.
//
// Shapes: B batch, S source length, I input size, H hidden size.

#include <torch/torch.h>

namespace s2s::model {

// True while bf16 autocast is on for tensors on `like`'s device.
bool mixed_precision(const torch::Tensor& like);

// Suspends CPU autocast for its lifetime: on a CPU the attention and the decoder's per-step ops
// stay fp32. Recorded op by op under autocast, every step casts its small [H, 3H]-sized weights
// again, and the casts and bf16 gradient sums cost more than bf16 saves. Measured on a 2-core
// AMX Xeon, reference settings (bench/reference.json), 60 updates: the whole model under
// autocast trained 2,190 target tokens/s, fp32 2,540, the output layer alone in bf16 2,860. The
// GRU products that do run in bf16 go through their own nodes, which cast the weights once a
// batch (model/gru_direction.h, model/gru_cell.h). CUDA autocast is left as it is.
class CpuAutocastOff {
 public:
  CpuAutocastOff();
  ~CpuAutocastOff();
  CpuAutocastOff(const CpuAutocastOff&) = delete;
  CpuAutocastOff& operator=(const CpuAutocastOff&) = delete;

 private:
  bool was_enabled_;
};

// Autocast off on every device for its lifetime: for nodes that choose their precision
// themselves (model/gru_direction.h, model/gru_cell.h).
class AutocastOff {
 public:
  AutocastOff();
  ~AutocastOff();
  AutocastOff(const AutocastOff&) = delete;
  AutocastOff& operator=(const AutocastOff&) = delete;

 private:
  bool cpu_, gpu_;
};

struct GruOutput {
  torch::Tensor states;  // [B, S, 2H], zero at padding
  torch::Tensor final;   // [B, 2H]: the top layer's last forward and first backward states
};

// The bidirectional (multi-layer) `rnn` over x [B, S, I] with `lengths` [B] (CPU, int64), as
// its packed forward computes it: rows are sorted by length so that at every step the rows
// still inside their sentence are a prefix of the batch, and padding costs nothing. `dropout`
// acts between layers in training, as nn::GRU's does. `bf16_hidden`: the hidden products in
// bf16 (model/gru_direction.h).
GruOutput bidirectional_gru(torch::nn::GRUImpl& rnn, const torch::Tensor& x,
                            const torch::Tensor& lengths, double dropout, bool training,
                            bool bf16_hidden = false);

}  // namespace s2s::model
