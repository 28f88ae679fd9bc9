#pragma once
// Checkpoints: model, optimizer, training progress, RNG state, and a description of the model
// they fit. Written atomically (temporary file, then rename): a kill mid-write never leaves a
// broken last.pt or best.pt.

#include <torch/torch.h>

#include <string>

namespace s2s::run {

// Where training stands; everything needed to resume exactly.
struct TrainingState {
  int64_t step = 0;             // optimizer updates done
  int64_t epoch = 0;            // current epoch (0-based)
  int64_t epoch_batch = 0;      // batches of `epoch` already consumed
  double best_score = 0.0;      // best validation score (higher is better; loss/ppl negated)
  bool has_best = false;        // false until the first validation
  int64_t bad_validations = 0;  // validations since the best one (early stopping)
  int64_t plateau_count = 0;    // validations since the last improvement (lr schedule)
  double learning_rate = 0.0;   // current learning rate
  double baseline = 0.0;        // REINFORCE moving-average baseline
};

// `model_signature` describes the architecture (model config + vocabulary sizes); loading
// compares it before touching any weight, so a checkpoint that does not fit is a clear error.
void save_checkpoint(const std::string& path, torch::nn::Module& model,
                     torch::optim::Optimizer* optimizer, const TrainingState& state,
                     const std::string& model_signature);

// Loads weights (and optimizer state and RNG state when `optimizer` is given). Throws
// InputError naming the file for a missing, corrupted or non-fitting checkpoint.
TrainingState load_checkpoint(const std::string& path, torch::nn::Module& model,
                              torch::optim::Optimizer* optimizer,
                              const std::string& model_signature);

}  // namespace s2s::run
