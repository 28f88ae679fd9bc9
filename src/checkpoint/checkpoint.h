#pragma once
// Checkpoints: model, optimizer, training progress, RNG state, a description of the model they
// fit and a checksum of the model's tensors. Serialized in memory, then written atomically
// (temporary file, fsync, rename): a kill or a full disk mid-write never leaves a broken
// last.pt or best.pt, and never removes the previous one.

#include <torch/torch.h>

#include <string>
#include <vector>

namespace s2s::checkpoint {

// Where training stands; everything needed to resume exactly.
struct TrainingState {
  int64_t step = 0;               // optimizer updates done
  int64_t epoch = 0;              // current epoch (0-based)
  int64_t epoch_batch = 0;        // batches of `epoch` already consumed
  double best_score = 0.0;        // best validation score (higher is better; loss/ppl negated)
  bool has_best = false;          // false until the first validation
  int64_t bad_validations = 0;    // validations since the best one (early stopping)
  int64_t plateau_count = 0;      // validations since the last improvement (lr schedule)
  double learning_rate = 0.0;     // current learning rate
  std::vector<double> reinforce;  // REINFORCE's running baselines and scale (train/reinforce.h)
  double elapsed_s = 0.0;         // training seconds so far, over every run of a resumed training
};

// `model_signature` describes the architecture (model config + vocabulary sizes, as JSON);
// loading compares it before touching any weight, so a checkpoint that does not fit is a clear
// error naming the fields that differ. Write errors (full disk, ...) are std::runtime_error
// naming the file and the OS error; the temporary file is removed.
void save_checkpoint(const std::string& path, torch::nn::Module& model,
                     torch::optim::Optimizer* optimizer, const TrainingState& state,
                     const std::string& model_signature);

// Loads weights (and optimizer state and RNG state when `optimizer` is given). Throws
// InputError naming the file for a missing, corrupted (checksum) or non-fitting checkpoint;
// `vocab_files` is named when the vocabulary sizes are what differs.
TrainingState load_checkpoint(const std::string& path, torch::nn::Module& model,
                              torch::optim::Optimizer* optimizer,
                              const std::string& model_signature,
                              const std::string& vocab_files = "");

// The fields where two model signatures differ ("hidden_size 32 vs 64"), leaving out the
// fields that do not shape the weights (init, dropout, hard attention modes); "" if they fit.
std::string signature_difference(const std::string& saved, const std::string& wanted);

// A checksum (64-bit FNV-1a) of every parameter and buffer of `model`, names included.
int64_t model_checksum(torch::nn::Module& model);

}  // namespace s2s::checkpoint
