#include "train/train_step.h"

#include <ATen/record_function.h>

#include <cmath>
#include <csignal>

#include "data/vocab.h"
#include "loss/loss.h"
#include "train/adam.h"
#include "train/attention_loss.h"

namespace s2s::train {

TrainStep::TrainStep(const config::Config& config, torch::Device device,
                     device::Precision precision, Distributed* distributed)
    : training_(config.training),
      samples_attention_(config::samples_attention(config.model)),
      guided_loss_(config::guided_alignment_loss(config.training.guided_alignment)),
      guided_heads_(config::alignment_heads(config.training.guided_alignment)),
      reinforce_(config.training.reinforce),
      device_(device),
      precision_(precision),
      distributed_(distributed),
      threads_(config.training.threads) {}

void TrainStep::clip_gradients(model::Seq2Seq& model, torch::optim::Optimizer& optimizer) const {
  // The learned REINFORCE baseline is a regression of its own on detached inputs: its
  // gradient (as large as the rewards, ~50 per token early on) must not shrink the model's
  // clipped gradient, so it is left out of the norm.
  std::vector<torch::Tensor> clipped, norms;
  for (const auto& p : model->named_parameters()) {
    if (p.key().rfind("baseline.", 0) != 0 && p.value().grad().defined()) {
      clipped.push_back(p.value());
      norms.push_back(p.value().grad().norm(2.0));
    }
  }
  if (clipped.empty()) return;
  // LibTorch's clip_grad_norm_, step by step: c = min(1, max_norm / (||g||_2 + 1e-6)) in fp32.
  const auto total = norms.size() == 1 ? norms[0] : torch::stack(norms).norm(2.0);
  const auto scale = torch::clamp(training_.clip_grad_norm / (total + 1e-6), c10::nullopt, 1.0);
  if (auto* fused = dynamic_cast<FusedAdam*>(&optimizer)) {
    fused->scale_gradients(clipped, scale);  // g c inside the update's own pass
    return;
  }
  for (auto& p : clipped) p.grad().mul_(scale);
}

void TrainStep::keep_zero_gradients(torch::optim::Optimizer& optimizer) const {
  for (auto& group : optimizer.param_groups()) {
    for (auto& p : group.params()) {
      const auto* key = p.unsafeGetTensorImpl();
      if (p.grad().defined()) {
        had_gradient_.insert(key);
      } else if (had_gradient_.count(key) != 0) {
        p.mutable_grad() = torch::zeros_like(p);
      }
    }
  }
}

int64_t TrainStep::rows_per_sentence() const {
  return samples_attention_ ? reinforce_.samples_per_sentence() : 1;
}

bool TrainStep::uses_attention_losses(const batching::Batch& batch, int64_t step) const {
  return training_.coverage_loss > 0 ||
         (batch.alignment.defined() &&
          guided_alignment_weight(training_.guided_alignment, step) > 0);
}

torch::Tensor TrainStep::attention_losses(const torch::Tensor& attention,
                                          const batching::Batch& batch, int64_t k, int64_t tokens,
                                          int64_t step) const {
  const double per_token = 1.0 / static_cast<double>(std::max<int64_t>(tokens, 1));
  auto total = torch::zeros({}, attention.options().dtype(torch::kFloat));
  if (training_.coverage_loss > 0) {
    total = total + training_.coverage_loss * per_token * coverage_loss(attention);
  }
  const double guide = guided_alignment_weight(training_.guided_alignment, step);
  if (batch.alignment.defined() && guide > 0) {
    total = total + guide * per_token *
                        guided_alignment_loss(attention, repeat_rows(batch.alignment, k),
                                              guided_loss_, guided_heads_);
  }
  return total;
}

StepResult TrainStep::operator()(model::Seq2Seq& model, torch::optim::Optimizer& optimizer,
                                 const batching::Batch& batch, std::vector<double>& reinforce_state,
                                 int interrupt, int64_t step) const {
  threads_.update();
  model->train();
  // No gradients rather than zeroed ones: backward then hands each parameter its gradient as
  // computed instead of adding it into zeros (a pass over every gradient, and the zeroing's);
  // keep_zero_gradients() restores zeros where zero_grad() would have left them.
  for (auto& group : optimizer.param_groups()) {
    for (auto& p : group.params()) p.mutable_grad().reset();
  }
  // Leave-one-out REINFORCE decodes every sentence K times, each with its own attention samples.
  const int64_t k = rows_per_sentence();
  const auto tgt_out = repeat_rows(batch.tgt_out, k);
  StepResult result;
  torch::Tensor total;
  loss::LossResult loss;
  {
    const device::AutocastGuard autocast(device_, precision_);  // forward and loss only
    const bool attention_loss = uses_attention_losses(batch, step);
    const auto out = model->forward(repeat_rows(batch.src, k), repeat_rows(batch.src_lengths, k),
                                    repeat_rows(batch.tgt_in, k), training_.teacher_forcing,
                                    /*keep_attention=*/attention_loss);
    loss = loss::sequence_loss(out.logits, out.token_index, tgt_out, training_.label_smoothing);
    total = loss.loss;
    if (attention_loss)
      total = total + attention_losses(out.attention, batch, k, loss.tokens, step);
    if (samples_attention_) {
      const auto mask = tgt_out.ne(data::Vocab::kPad).to(loss.token_nll.dtype());
      total =
          total + reinforce_.loss(loss.token_nll, mask, out, reinforce_state, &result.reinforce) /
                      static_cast<double>(std::max<int64_t>(loss.tokens, 1));
    }
  }
  result.loss = loss.loss.item<double>();
  result.finite = std::isfinite(result.loss) && std::isfinite(total.item<double>());
  result.tokens = loss.tokens;
  if (distributed_ != nullptr) {
    // One small all-reduce of [loss x tokens, tokens, not finite, signal]: every rank learns the
    // loss of the global batch, and whether any rank diverged or was interrupted.
    auto counts =
        torch::tensor({result.finite ? result.loss * static_cast<double>(loss.tokens) : 0.0,
                       static_cast<double>(loss.tokens), result.finite ? 0.0 : 1.0,
                       static_cast<double>(interrupt)},
                      torch::kDouble);
    distributed_->sum(counts);
    const auto c = counts.accessor<double, 1>();
    result.tokens = static_cast<int64_t>(c[1]);
    result.finite = c[2] == 0.0;
    result.loss = result.finite ? c[0] / std::max(c[1], 1.0) : result.loss;
    result.interrupt = c[3] > 0 ? (interrupt != 0 ? interrupt : SIGINT) : 0;
    if (!result.finite) return result;
    // Normalized by the global batch's tokens, the averaged gradient is that of one process
    // training on the union of the ranks' batches.
    total = total *
            (static_cast<double>(distributed_->world_size() * loss.tokens) / std::max(c[1], 1.0));
  }
  if (!result.finite) return result;
  total.backward();
  keep_zero_gradients(optimizer);
  if (distributed_ != nullptr) distributed_->average_gradients(model->parameters());
  {
    RECORD_USER_SCOPE("s2s::optimizer");  // experiments/breakdown.h
    if (training_.clip_grad_norm > 0) clip_gradients(model, optimizer);
    optimizer.step();
  }
  return result;
}

}  // namespace s2s::train
