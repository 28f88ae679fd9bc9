#pragma once
// Checkpoints: model, optimizer, training progress, RNG state, a description of the model they
// fit and checksums of the model's tensors, the optimizer's state and the vocabularies. Serialized
// in memory, then written atomically (temporary file, fsync, rename): a kill or a full disk
// mid-write never leaves a broken last.pt or best.pt, and never removes the previous one.

#include <torch/torch.h>

#include <string>
#include <vector>

#include "data/vocab.h"

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

// The vocabularies a model's embeddings index, with the files they were read from. A checkpoint
// stores a checksum of each; loading refuses one whose vocabulary changed (an edited or
// replaced vocabulary file maps ids to other words, which nothing else would notice).
struct Vocabularies {
  const data::Vocab& src;
  const data::Vocab& tgt;
  std::string src_file;
  std::string tgt_file;
};

// `model_signature` describes the architecture (model config + vocabulary sizes, as JSON);
// loading compares it before touching any weight, so a checkpoint that does not fit is a clear
// error naming the fields that differ. Write errors (full disk, ...) are std::runtime_error
// naming the file and the OS error; the temporary file is removed.
void save_checkpoint(const std::string& path, torch::nn::Module& model,
                     torch::optim::Optimizer* optimizer, const TrainingState& state,
                     const std::string& model_signature,
                     const Vocabularies* vocabularies = nullptr);

// Loads weights (and optimizer state and RNG state when `optimizer` is given). Throws
// InputError naming the file for a missing, corrupted (checksum of the weights or of the
// optimizer's state) or non-fitting checkpoint, and naming the vocabulary file that is not the
// one the checkpoint was trained with. Checkpoints of earlier versions, without some of the
// checksums, load unchecked on those.
TrainingState load_checkpoint(const std::string& path, torch::nn::Module& model,
                              torch::optim::Optimizer* optimizer,
                              const std::string& model_signature,
                              const Vocabularies* vocabularies = nullptr);

// The fields where two model signatures differ ("hidden_size 32 vs 64"), leaving out the
// fields that do not shape the weights (init, dropout, hard attention modes); "" if they fit.
std::string signature_difference(const std::string& saved, const std::string& wanted);

// A checksum (64-bit FNV-1a) of every parameter and buffer of `model`, names included.
int64_t model_checksum(torch::nn::Module& model);
// A checksum of the optimizer's state: for each parameter, in the order of its groups, the
// tensors and step of its Adam or SGD state (absent states count as such).
int64_t optimizer_checksum(torch::optim::Optimizer& optimizer);
// A checksum of a vocabulary's tokens, in order.
int64_t vocab_checksum(const data::Vocab& vocab);

}  // namespace s2s::checkpoint
