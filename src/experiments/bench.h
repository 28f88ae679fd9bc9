#pragma once
// Training and decoding speed, measured the way the trainer trains and the translator decodes:
// the data prepared by the trainer's own function (train/training_data.h), then the trainer's
// own update (train/train_step.h) timed over a number of steps after a warm-up, and decoding
// timed on the path `s2s translate` and validation take. Nothing is written to disk.

#include <torch/torch.h>

#include <cstdint>

#include "config/config.h"
#include "device/precision.h"
#include "model/seq2seq.h"
#include "train/training_data.h"

namespace s2s::experiments {

struct TrainBenchOptions {
  int64_t steps = 30;  // timed updates
  int64_t warmup = 5;  // untimed updates before them
};

struct TrainBenchResult {
  int64_t steps = 0;
  int64_t tgt_tokens = 0;      // real target tokens (</s> included) of the timed steps
  double seconds = 0.0;        // wall time of the timed steps
  double mean_loss = 0.0;      // mean training loss of the timed steps
  int64_t forward_macs = 0;    // counted multiply-adds of the timed forward passes
  double first_step_at = 0.0;  // process uptime (s) when the first update began
};

// Trains `model` (already on `device`) on the first warmup + steps batches of the epoch order
// (continuing into the next epochs when one is too short). Throws ConfigError for hard
// attention trained by sampling: the FLOP model counts one decoding per sentence.
TrainBenchResult bench_training(const config::Config& config, const train::TrainingData& data,
                                model::Seq2Seq& model, torch::Device device,
                                device::Precision precision, const TrainBenchOptions& options);

struct DecodeBenchResult {
  int64_t sentences = 0;      // sentences translated
  int64_t output_tokens = 0;  // hypothesis tokens, </s> excluded: the work depends on them
  double seconds = 0.0;       // wall time of the whole translation
  int64_t rows = 0;           // decoder rows stepped (eval::decoded_rows): the search's work
  double sentences_per_s() const { return static_cast<double>(sentences) / seconds; }
};

// Translates the first `sentences` validation sources of `data` with beam size `beam` (1 =
// greedy search) and the rest of `evaluation` (length limits, length penalty, batch size),
// under inference mode.
DecodeBenchResult bench_decoding(const model::Seq2Seq& model, const train::TrainingData& data,
                                 const config::EvaluationConfig& evaluation, int64_t beam,
                                 int64_t sentences, torch::Device device,
                                 device::Precision precision);

}  // namespace s2s::experiments
