#pragma once
// Adam whose update of a parameter is one pass over its memory (train/adam_kernel.h) instead of
// LibTorch's ~10 tensor operations, each a pass over the parameter, its gradient or a moment,
// and two of them allocating: on the main job's shapes LibTorch's step took 12.2 ms and this one
// 2.8 ms (build/bench/bench_ops), against about 70 ms for a whole batch-32 update. Same options,
// same state (AdamParamState), same checkpoints: it is a torch::optim::Adam whose step() runs the
// fused loop where it applies (every parameter dense, contiguous, fp32 or fp64 on a CPU, no
// AMSGrad) and LibTorch's step elsewhere.

#include <torch/torch.h>

namespace s2s::train {

class FusedAdam : public torch::optim::Adam {
 public:
  using torch::optim::Adam::Adam;
  torch::Tensor step(LossClosure closure = nullptr) override;

  // Whether step() takes the fused loop for these parameters and options.
  bool fused() const;

  // The next step() uses these parameters' gradients times `scale` (gradient clipping's
  // coefficient, a 0-dim tensor of the gradients' type): inside the fused pass, which saves
  // clipping's own pass over every gradient (a third of the optimizer's time on the reference
  // model), else by mul_ first. The gradients themselves keep their unscaled values.
  void scale_gradients(const std::vector<torch::Tensor>& params, const torch::Tensor& scale);

 private:
  std::vector<torch::Tensor> scaled_;  // the parameters scale_gradients named
  torch::Tensor scale_;
};

}  // namespace s2s::train
