#pragma once
// What rank 0 decides for every rank of a training over several processes
// (train/distributed.h), in one place: the rendezvous, the threads each rank takes, the start
// from rank 0's weights, the weights check at each validation, rank 0's decisions after it, the
// step at which an interrupt stops every rank, and what the gradient all-reduce cost. With one
// process every method is a no-op or answers for that process, so that the trainer never asks
// how many processes there are.

#include <torch/torch.h>

#include <cstdint>
#include <memory>

#include "config/config.h"
#include "model/seq2seq.h"
#include "train/distributed.h"
#include "train/training_data.h"

namespace s2s::train {

// Rank 0's decisions after a validation, for the other ranks.
struct ValidationDecision {
  bool diverged = false;       // the validation loss exploded: every rank stops with an error
  bool stop = false;           // early stopping
  double learning_rate = 0.0;  // the schedule's base, which the plateau schedule lowers
};

class RankDecisions {
 public:
  // One process until connect() finds several.
  RankDecisions() = default;

  // Several processes: join the others before anything is read, so that a bad rendezvous fails
  // at once. Only rank 0 logs more than warnings.
  void connect(const config::Config& config);

  bool main() const { return !dist_ || dist_->main(); }
  int64_t rank() const { return dist_ ? dist_->rank() : 0; }
  int64_t world_size() const { return dist_ ? dist_->world_size() : 1; }
  // What TrainStep all-reduces through; null with one process.
  Distributed* distributed() const { return dist_.get(); }

  // training.threads, or with 0 and several processes the cores shared by the local workers.
  int64_t threads(int64_t configured) const;
  // `resolved`, or with several processes on CUDA without an index one GPU per local rank.
  torch::Device device(torch::Device resolved) const;

  // Every rank built the same vocabularies and model from the same config and data: check it,
  // then start every rank from rank 0's weights (and, resumed, its checkpoint).
  void synchronize(const config::Config& config, const TrainingData& data, model::Seq2Seq& model);
  // Identical weights on every rank is what the gradient averaging promises: check it.
  void check_weights(model::Seq2Seq& model, int64_t step);
  // Rank 0 sends its decision after a validation; the other ranks receive it (one process is
  // rank 0: it never follows).
  void share_validation(const ValidationDecision& decision);
  ValidationDecision follow_validation();

  // The signal that stops training after this step, or 0: with several processes
  // `step_interrupt`, the one the step's all-reduce carried, so that every rank stops at once.
  int interrupt(int step_interrupt) const;

  // Several processes: what the gradient all-reduce cost (README: scaling estimates).
  void log_traffic(double train_seconds) const;

 private:
  std::unique_ptr<Distributed> dist_;  // several processes; null for one
};

}  // namespace s2s::train
