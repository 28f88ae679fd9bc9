#include "eval/ensemble.h"

#include <cmath>
#include <string>

#include "util/error.h"

namespace s2s::eval {

EvalModeGuard::EvalModeGuard(model::Seq2Seq& model)
    : model_(model), was_training_(model->is_training()) {
  model_->eval();
}

EvalModeGuard::~EvalModeGuard() { model_->train(was_training_); }

EnsembleEvalMode::EnsembleEvalMode(std::vector<model::Seq2Seq> members)
    : members_(std::move(members)) {
  for (auto& m : members_) guards_.emplace_back(m);
}

EnsembleState EnsembleState::index_select(const torch::Tensor& index) const {
  EnsembleState out;
  for (const auto& m : members) out.members.push_back(m.index_select(index));
  return out;
}

EnsembleMemory EnsembleMemory::index_select(const torch::Tensor& index) const {
  EnsembleMemory out;
  for (const auto& m : members) out.members.push_back(m.index_select(index));
  return out;
}

Ensemble::Ensemble(model::Seq2Seq model) : members_{std::move(model)} {}

Ensemble::Ensemble(std::vector<model::Seq2Seq> members) : members_(std::move(members)) {
  if (members_.empty()) throw InputError("an ensemble needs at least one model");
  const int64_t v = vocab_size();
  for (std::size_t i = 1; i < members_.size(); ++i) {
    const int64_t vi = members_[i]->decoder->options().vocab_size();
    if (vi != v) {
      throw InputError("ensemble member " + std::to_string(i + 1) + " has a target vocabulary of " +
                       std::to_string(vi) + " tokens, member 1 of " + std::to_string(v));
    }
  }
}

int64_t Ensemble::vocab_size() const { return members_.front()->decoder->options().vocab_size(); }

bool Ensemble::has_attention() const {
  for (const auto& m : members_) {
    if (m->decoder->has_attention()) return true;
  }
  return false;
}

EnsembleEncoded Ensemble::encode(const torch::Tensor& src, const torch::Tensor& src_lengths) const {
  EnsembleEncoded out;
  for (auto m : members_) {  // a handle: encode is not const
    auto encoded = m->encode(src, src_lengths);
    out.memory.members.push_back(std::move(encoded.memory));
    out.state.members.push_back(std::move(encoded.state));
  }
  return out;
}

EnsembleStep Ensemble::step(const torch::Tensor& prev, EnsembleState& state,
                            const EnsembleMemory& memory) const {
  std::vector<torch::Tensor> log_probs, attention;
  for (std::size_t i = 0; i < members_.size(); ++i) {
    auto m = members_[i];
    const auto out = m->decoder->step(prev, state.members[i], memory.members[i]);
    // bf16 logits are widened first: the softmax and the combination run in float.
    log_probs.push_back(torch::log_softmax(m->decoder->logits(out.features).to(torch::kFloat), -1));
    attention.push_back(out.attention);
  }
  return {log_mean_probability(log_probs), mean_attention(attention, /*head_dim=*/1)};
}

torch::Tensor log_mean_probability(const std::vector<torch::Tensor>& log_probs) {
  if (log_probs.size() == 1) return log_probs.front();
  const double log_n = std::log(static_cast<double>(log_probs.size()));
  return torch::logsumexp(torch::stack(log_probs), /*dim=*/0) - log_n;
}

torch::Tensor mean_attention(const std::vector<torch::Tensor>& attention, int64_t head_dim) {
  std::vector<torch::Tensor> defined;
  for (const auto& a : attention) {
    if (a.defined()) defined.push_back(a);
  }
  if (defined.empty()) return {};
  if (defined.size() == 1) return defined.front();
  bool same_heads = true;
  for (const auto& a : defined) same_heads = same_heads && a.sizes() == defined.front().sizes();
  if (!same_heads) {
    for (auto& a : defined) a = a.mean(head_dim, /*keepdim=*/true);
  }
  return torch::stack(defined).mean(/*dim=*/0);
}

}  // namespace s2s::eval
