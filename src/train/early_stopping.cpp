#include "train/early_stopping.h"

#include <algorithm>

#include "config/choices.h"
#include "train/schedule.h"
#include "util/logging.h"

namespace s2s::train {
namespace {

// The validation's score on training.early_stopping_metric: higher is better.
double score(const config::TrainingConfig& training, const ValidationResult& r) {
  switch (config::stopping_metric(training)) {
    case config::StoppingMetric::kBleu:
      return r.bleu;
    case config::StoppingMetric::kLoss:
      return -r.loss;
    case config::StoppingMetric::kPpl:
      break;
  }
  return -r.ppl;
}

}  // namespace

bool improved(const config::TrainingConfig& training, const ValidationResult& r,
              checkpoint::TrainingState& state) {
  const double s = score(training, r);
  if (state.has_best && s <= state.best_score) {
    ++state.bad_validations;
    return false;
  }
  state.best_score = s;
  state.has_best = true;
  state.bad_validations = 0;
  return true;
}

bool out_of_patience(const config::TrainingConfig& training,
                     const checkpoint::TrainingState& state) {
  const int64_t patience = training.patience;
  if (patience <= 0 || state.bad_validations < patience) return false;
  util::logger("train")->info("early stopping: no improvement of {} in {} validations",
                              training.early_stopping_metric, patience);
  return true;
}

void reduce_on_plateau(const config::TrainingConfig& training, bool improvement,
                       checkpoint::TrainingState& state) {
  if (!schedule_spec(training).reduces_on_plateau) return;
  state.plateau_count = improvement ? 0 : state.plateau_count + 1;
  if (state.plateau_count <= training.lr_patience) return;
  state.learning_rate = std::max(training.min_lr, state.learning_rate * training.lr_decay);
  state.plateau_count = 0;  // the next train_step applies it
  util::logger("train")->info("learning rate reduced to {:.2e}", state.learning_rate);
}

}  // namespace s2s::train
