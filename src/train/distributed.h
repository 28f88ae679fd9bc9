#pragma once
// Data-parallel training over several processes and machines on PyTorch's own distributed
// layer (c10d) with the Gloo backend, set up as torchrun sets up a PyTorch program: from RANK,
// WORLD_SIZE, LOCAL_RANK, LOCAL_WORLD_SIZE, MASTER_ADDR and MASTER_PORT in the environment.
//
// Semantics, as DistributedDataParallel's: every rank builds the same vocabularies and model
// from the same data and seed, and checks it (a hash of the config and vocabularies exchanged
// at start); rank 0's initial weights are broadcast; each rank trains on its shard of every
// epoch's batches (data/batcher.h); after the backward pass the gradients are all-reduced in
// flat buckets and averaged, so every rank takes the same optimizer step and holds the same
// weights. The loss is normalized by the tokens of the whole global batch, so a step equals one
// process training on the union of the ranks' batches. Rank 0 alone validates, logs and writes;
// its decisions (learning rate, early stopping) are broadcast.

#include <torch/torch.h>

#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/csrc/distributed/c10d/Store.hpp>
#ifdef USE_C10D_NCCL  // a CUDA LibTorch built with NCCL
#include <torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp>
#endif

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace s2s::train {

// What torchrun (or `s2s train --nproc`) put in the environment.
struct DistributedEnv {
  int64_t rank = 0, world_size = 1, local_rank = 0, local_world_size = 1;
  std::string master_addr = "127.0.0.1";
  int port = 29500;
};

// The environment's setting, or nullopt when WORLD_SIZE is absent or 1 (a single process).
// UserError naming the variable for a malformed or inconsistent value.
std::optional<DistributedEnv> distributed_env();

class Distributed {
 public:
  // Rendezvous at MASTER_ADDR:MASTER_PORT (rank 0 serves it) and start the Gloo process group
  // (and, for CUDA gradients in a LibTorch built with NCCL, an NCCL group beside it). UserError
  // with one line for a port in use, an unreachable master, or a rank that does not join within
  // `timeout_s`, which also bounds every later collective.
  Distributed(const DistributedEnv& env, double timeout_s, torch::Device device);
  ~Distributed();

  int64_t rank() const { return env_.rank; }
  int64_t world_size() const { return env_.world_size; }
  bool main() const { return env_.rank == 0; }
  const DistributedEnv& env() const { return env_; }

  // Refuses (UserError, on every rank) to go on when ranks disagree about `what`.
  void check_same(const std::string& what, int64_t value);
  // Rank 0's values of `tensors` (CPU) on every rank.
  void broadcast(std::vector<torch::Tensor>& tensors);
  // Element-wise sums over the ranks, in place (a float64 CPU tensor: counts and flags).
  void sum(torch::Tensor& values);
  // Averages the gradients of `params` over the ranks, in flat buckets of ~25 MB.
  void average_gradients(const std::vector<torch::Tensor>& params);
  // What average_gradients did so far: calls, bytes all-reduced per call, and the wall time
  // inside it (the all-reduce itself and the wait for the slowest rank).
  struct Traffic {
    int64_t steps = 0;
    int64_t bytes_per_step = 0;
    double seconds = 0.0;
  };
  const Traffic& traffic() const { return traffic_; }

 private:
  void wait(const std::string& what, const c10::intrusive_ptr<c10d::Work>& work);

  DistributedEnv env_;
  double timeout_s_;
  c10::intrusive_ptr<c10d::Store> store_;
  c10::intrusive_ptr<c10d::ProcessGroupGloo> group_;  // CPU tensors: counts, flags, hashes
  c10::intrusive_ptr<c10d::ProcessGroup> gradients_;  // the gradients' group: Gloo, or NCCL
  Traffic traffic_;
};

}  // namespace s2s::train
