#include "train/checkpoint_keeper.h"

#include <filesystem>
#include <system_error>
#include <utility>

#include "checkpoint/average.h"
#include "util/logging.h"

namespace s2s::train {

CheckpointKeeper::CheckpointKeeper(const config::TrainingConfig& training,
                                   const TrainingRunDir& run_dir, model::Seq2Seq model,
                                   torch::optim::Optimizer& optimizer, std::string signature,
                                   checkpoint::Vocabularies vocabularies, bool writes)
    : training_(training),
      run_dir_(run_dir),
      model_(std::move(model)),
      optimizer_(optimizer),
      signature_(std::move(signature)),
      vocabularies_(std::move(vocabularies)),
      writes_(writes) {}

checkpoint::TrainingState CheckpointKeeper::resume() {
  const auto& paths = run_dir_.paths();
  auto state = checkpoint::load_checkpoint(paths.checkpoint("last"), *model_, &optimizer_,
                                           signature_, &vocabularies_);
  last_saved_step_ = state.step;
  return state;
}

void CheckpointKeeper::save(const std::string& name, const checkpoint::TrainingState& state) {
  if (!writes_) return;
  const auto path = run_dir_.paths().checkpoint(name);
  checkpoint::save_checkpoint(path, *model_, &optimizer_, state, signature_, &vocabularies_);
  run_dir_.record({path});
  if (name == "last") last_saved_step_ = state.step;
  if (name == "pending") pending_step_ = state.step;
  if (name == "last" || name == "pending") restart_clock();
}

void CheckpointKeeper::promote_pending() {
  if (pending_step_ < 0) return;
  const auto& paths = run_dir_.paths();
  std::filesystem::rename(paths.checkpoint("pending"), paths.checkpoint("last"));
  last_saved_step_ = pending_step_;
  pending_step_ = -1;
}

bool CheckpointKeeper::periodic_due(int64_t step) const {
  if (!writes_) return false;
  const bool by_steps = training_.checkpoint_every > 0 && step % training_.checkpoint_every == 0;
  const double seconds_since_save =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - last_save_time_).count();
  const bool by_time = training_.checkpoint_every_minutes > 0 &&
                       seconds_since_save >= 60.0 * training_.checkpoint_every_minutes;
  return by_steps || by_time;
}

void CheckpointKeeper::discard_pending() {
  if (pending_step_ < 0) return;
  std::error_code ec;
  std::filesystem::remove(run_dir_.paths().checkpoint("pending"), ec);
  pending_step_ = -1;
}

std::vector<std::string> CheckpointKeeper::average_at_end() const {
  const int64_t k = training_.average_last;
  if (!writes_ || k == 0) return {};
  auto names = checkpoint::average_last_steps(run_dir_.paths().dir, k);
  auto log = util::logger("train");
  if (names.empty()) {
    log->warn(
        "training.average_last = {}: fewer than 2 step checkpoints, nothing averaged; the "
        "test split is decoded with best.pt",
        k);
  } else if (static_cast<int64_t>(names.size()) < k) {
    log->warn("training.average_last = {}: only {} step checkpoints to average", k, names.size());
  }
  return names;
}

}  // namespace s2s::train
