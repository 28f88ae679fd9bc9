#include "train/rank_decisions.h"

#include <algorithm>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "checkpoint/checkpoint.h"
#include "config/json_io.h"
#include "device/device.h"
#include "util/logging.h"
#include "util/signals.h"

namespace s2s::train {

void RankDecisions::connect(const config::Config& config) {
  const auto env = distributed_env();
  if (!env) return;
  if (env->rank != 0) util::set_log_level_warn();
  dist_ = std::make_unique<Distributed>(*env, config.training.dist_timeout_s,
                                        device::resolve_device(config.device));
}

int64_t RankDecisions::threads(int64_t configured) const {
  if (configured > 0 || !dist_) return configured;
  const auto cores = static_cast<int64_t>(std::thread::hardware_concurrency());
  return std::max<int64_t>(1, cores / dist_->env().local_world_size);  // cores / local workers
}

torch::Device RankDecisions::device(torch::Device resolved) const {
  if (dist_ && resolved.is_cuda() && !resolved.has_index()) {  // one GPU per local rank
    return torch::Device(torch::kCUDA, static_cast<c10::DeviceIndex>(dist_->env().local_rank));
  }
  return resolved;
}

void RankDecisions::synchronize(const config::Config& config, const TrainingData& data,
                                model::Seq2Seq& model) {
  if (!dist_) return;
  auto c = config;
  c.training.threads = 0;  // may differ between machines
  std::string text = config::config_to_json(c).dump();
  for (const auto& t : data.src_vocab.tokens()) text += t + "\n";
  for (const auto& t : data.tgt_vocab.tokens()) text += t + "\n";
  dist_->check_same("the config, data and vocabularies (hash)",
                    static_cast<int64_t>(std::hash<std::string>{}(text)&0x7fffffffffffffff));
  std::vector<torch::Tensor> tensors;
  {
    torch::NoGradGuard no_grad;
    for (auto& p : model->parameters()) tensors.push_back(p.data());
    for (auto& b : model->buffers()) tensors.push_back(b);
    dist_->broadcast(tensors);
  }
  util::logger("dist")->info("{} ranks, effective batch {} x {} {}", dist_->world_size(),
                             dist_->world_size(), config.training.batch_size,
                             config.training.batch_type);
}

void RankDecisions::check_weights(model::Seq2Seq& model, int64_t step) {
  if (!dist_) return;
  dist_->check_same("the weights (checksum) at step " + std::to_string(step),
                    checkpoint::model_checksum(*model));
}

// On the wire: [diverged, stop, learning rate].
void RankDecisions::share_validation(const ValidationDecision& decision) {
  if (!dist_) return;
  std::vector<torch::Tensor> wire = {torch::tensor(
      {decision.diverged ? 1.0 : 0.0, decision.stop ? 1.0 : 0.0, decision.learning_rate},
      torch::kDouble)};
  dist_->broadcast(wire);
}

ValidationDecision RankDecisions::follow_validation() {
  std::vector<torch::Tensor> wire = {torch::zeros({3}, torch::kDouble)};
  dist_->broadcast(wire);
  const auto d = wire[0].accessor<double, 1>();
  return {d[0] != 0.0, d[1] != 0.0, d[2]};
}

int RankDecisions::interrupt(int step_interrupt) const {
  return dist_ ? step_interrupt : util::InterruptGuard::pending();
}

void RankDecisions::log_traffic(double train_seconds) const {
  if (!dist_) return;
  const Distributed::Traffic& t = dist_->traffic();
  if (t.steps == 0) return;
  util::logger("dist")->info(
      "gradient all-reduce: {:.2f} MB per step, {:.1f} ms per step over {} steps ({:.1f}% of "
      "the training time)",
      static_cast<double>(t.bytes_per_step) / 1e6,
      1000.0 * t.seconds / static_cast<double>(t.steps), t.steps,
      100.0 * t.seconds / std::max(train_seconds, 1e-9));
}

}  // namespace s2s::train
