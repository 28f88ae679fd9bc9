#include "train/train_step.h"

#include <cmath>

#include "data/vocab.h"
#include "run/loss.h"

namespace s2s::train {

TrainStep::TrainStep(const config::Config& config)
    : training_(config.training),
      samples_attention_(config::samples_attention(config.model)),
      reinforce_(config.training.reinforce) {}

int64_t TrainStep::rows_per_sentence() const {
  return samples_attention_ ? reinforce_.samples_per_sentence() : 1;
}

StepResult TrainStep::operator()(model::Seq2Seq& model, torch::optim::Optimizer& optimizer,
                                 const run::Batch& batch, double& baseline) const {
  model->train();
  optimizer.zero_grad();
  // Leave-one-out REINFORCE decodes every sentence K times, each with its own attention samples.
  const int64_t k = rows_per_sentence();
  const auto tgt_out = repeat_rows(batch.tgt_out, k);
  const auto out = model->forward(repeat_rows(batch.src, k), repeat_rows(batch.src_lengths, k),
                                  repeat_rows(batch.tgt_in, k), training_.teacher_forcing);
  auto loss = run::sequence_loss(out.logits, out.token_index, tgt_out, training_.label_smoothing);
  auto total = loss.loss;
  StepResult result;
  if (samples_attention_) {
    const auto mask = tgt_out.ne(data::Vocab::kPad).to(loss.token_nll.dtype());
    total = total + reinforce_.loss(loss.token_nll, mask, out, baseline, &result.reinforce) /
                        static_cast<double>(std::max<int64_t>(loss.tokens, 1));
  }
  result.loss = loss.loss.item<double>();
  result.finite = std::isfinite(result.loss) && std::isfinite(total.item<double>());
  if (!result.finite) return result;
  total.backward();
  if (training_.clip_grad_norm > 0) {
    torch::nn::utils::clip_grad_norm_(model->parameters(), training_.clip_grad_norm);
  }
  optimizer.step();
  return result;
}

}  // namespace s2s::train
