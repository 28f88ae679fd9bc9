#pragma once
// What a validation's score decides besides the checkpoints: whether it is a new best, when
// training stops early for lack of one (training.patience), and, with lr_schedule "plateau",
// when the learning rate is lowered. The counts live in checkpoint::TrainingState, so that a
// resumed training goes on counting.

#include "checkpoint/checkpoint.h"
#include "config/config.h"
#include "train/validator.h"

namespace s2s::train {

// Whether `r` beats the best validation so far on training.early_stopping_metric (higher BLEU,
// lower loss or perplexity); records it as the best in `state`, or counts a bad validation.
bool improved(const config::TrainingConfig& training, const ValidationResult& r,
              checkpoint::TrainingState& state);

// training.patience validations in a row without improvement (0: never); logs the stop.
bool out_of_patience(const config::TrainingConfig& training,
                     const checkpoint::TrainingState& state);

// lr_schedule "plateau" (its ScheduleSpec reduces_on_plateau): after more than training.lr_patience
// validations without improvement, multiplies the schedule's base rate (state.learning_rate) by
// lr_decay, down to min_lr.
void reduce_on_plateau(const config::TrainingConfig& training, bool improvement,
                       checkpoint::TrainingState& state);

}  // namespace s2s::train
