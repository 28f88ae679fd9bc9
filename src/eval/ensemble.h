#pragma once
// Several models decoded as one (ensemble decoding). Every member reads the same source batch
// and the same target prefix; at each step their distributions are combined as the log of the
// members' mean probability,
//
//   log p(y | y_<t, x) = log (1/N sum_i p_i(y | y_<t, x))
//                      = logsumexp_i log p_i(y | y_<t, x) - log N,
//
// fairseq's choice. Why not the mean of the log-probabilities (a geometric mean, OpenNMT-py's
// and Marian's default): the arithmetic mean is a distribution again, so beam scores stay
// log-probabilities, comparable with a single model's and with teacher-forced scoring; and one
// member's near-zero probability for a token does not veto what the others agree on.
//
// The attention exported for an ensemble is the members' mean, a_t = 1/N sum_i a_t^i (a
// distribution over the source again); members with different head counts are first averaged
// over their heads, so the mean has one head. Members without attention are left out of it.
//
// An Ensemble of one model decodes exactly as the model does: nothing is combined.
//
// Shapes: R rows being decoded, V target vocabulary, m heads, S longest source.

#include <torch/torch.h>

#include <list>
#include <vector>

#include "model/seq2seq.h"

namespace s2s::eval {

// What changes from step to step, for every member.
struct EnsembleState {
  std::vector<model::DecoderState> members;
  EnsembleState index_select(const torch::Tensor& index) const;
};

// What the members read from the source, fixed for the whole sentence.
struct EnsembleMemory {
  std::vector<model::DecoderMemory> members;
  EnsembleMemory index_select(const torch::Tensor& index) const;
};

struct EnsembleEncoded {
  EnsembleMemory memory;
  EnsembleState state;
};

struct EnsembleStep {
  torch::Tensor log_probs;  // [R, V] float: log of the members' mean probability, unmasked
  torch::Tensor attention;  // [R, m, S] the members' mean; undefined if no member attends
};

// Puts the model in eval mode (no dropout) for a scope and restores its previous mode: the
// trainer decodes the validation set in the middle of training.
class EvalModeGuard {
 public:
  explicit EvalModeGuard(model::Seq2Seq& model);
  ~EvalModeGuard();
  EvalModeGuard(const EvalModeGuard&) = delete;
  EvalModeGuard& operator=(const EvalModeGuard&) = delete;

 private:
  model::Seq2Seq& model_;
  bool was_training_;
};

// Puts every member in eval mode for a scope (an EvalModeGuard each).
class EnsembleEvalMode {
 public:
  explicit EnsembleEvalMode(std::vector<model::Seq2Seq> members);

 private:
  std::vector<model::Seq2Seq> members_;  // handles the guards refer to
  std::list<EvalModeGuard> guards_;      // a list: the guards can be neither copied nor moved
};

class Ensemble {
 public:
  // A single model; implicit, so that every search entry point takes a model as it did.
  Ensemble(model::Seq2Seq model);  // NOLINT(google-explicit-constructor)
  // Members with the same target vocabulary size (InputError otherwise; an empty list too).
  explicit Ensemble(std::vector<model::Seq2Seq> members);

  std::size_t size() const { return members_.size(); }
  const std::vector<model::Seq2Seq>& members() const { return members_; }
  int64_t vocab_size() const;
  bool has_attention() const;  // whether any member attends

  EnsembleEncoded encode(const torch::Tensor& src, const torch::Tensor& src_lengths) const;
  // prev [R] token ids; advances every member's state by one step.
  EnsembleStep step(const torch::Tensor& prev, EnsembleState& state,
                    const EnsembleMemory& memory) const;

 private:
  std::vector<model::Seq2Seq> members_;
};

// log (1/N sum_i exp(log_probs[i])) elementwise, in float; the one tensor itself when N = 1.
torch::Tensor log_mean_probability(const std::vector<torch::Tensor>& log_probs);

// The mean of the defined tensors of `attention` ([..., m_i, S] with the heads at `head_dim`);
// with different head counts each is averaged over its heads first (keeping a head dim of 1).
// Undefined if none is defined.
torch::Tensor mean_attention(const std::vector<torch::Tensor>& attention, int64_t head_dim);

}  // namespace s2s::eval
