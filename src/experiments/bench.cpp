#include "experiments/bench.h"

#include <algorithm>
#include <chrono>
#include <vector>

#include "eval/translate.h"
#include "experiments/flops.h"
#include "experiments/machine.h"
#include "train/optimizer.h"
#include "train/train_step.h"
#include "util/error.h"

namespace s2s::experiments {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// The first `count` batches of the training order: epoch 0, then 1, ...
std::vector<std::vector<std::size_t>> first_batches(const data::BatchSchedule& batcher,
                                                    int64_t count) {
  std::vector<std::vector<std::size_t>> out;
  const auto wanted = static_cast<std::size_t>(count);
  for (int64_t epoch = 0; out.size() < wanted; ++epoch) {
    const auto batches = batcher.epoch(epoch);
    if (batches->size() == 0) throw InputError("bench: the training corpus gives no batch");
    for (std::size_t k = 0; k < batches->size() && out.size() < wanted; ++k) {
      out.push_back(batches->batch(k));
    }
  }
  return out;
}

}  // namespace

TrainBenchResult bench_training(const config::Config& config, const train::TrainingData& data,
                                model::Seq2Seq& model, torch::Device device,
                                device::Precision precision, const TrainBenchOptions& options) {
  if (config::samples_attention(config.model)) {
    throw ConfigError(
        "bench: model.attention.hard = 'sample' trains with REINFORCE, which the "
        "benchmark does not time (valid: none, argmax)");
  }
  const auto batches = first_batches(*data.batcher, options.warmup + options.steps);
  auto optimizer = train::make_optimizer(config.training, model->parameters());
  const train::TrainStep step(config, device, precision);
  std::vector<double> reinforce;  // REINFORCE state, unused by soft attention
  TrainBenchResult r;
  r.first_step_at = process_uptime_s();
  const auto warmup = static_cast<std::size_t>(options.warmup);
  for (std::size_t i = 0; i < warmup; ++i) {
    step(model, *optimizer, train::training_batch(data, batches[i], device), reinforce);
  }
  for (std::size_t i = warmup; i < batches.size(); ++i) {
    r.forward_macs += forward_macs(config.model, data.tgt_vocab.size(),
                                   batch_shape(train::training_batch(data, batches[i], device)));
  }
  synchronize(device);
  double loss_sum = 0.0;
  const auto start = Clock::now();
  for (std::size_t i = warmup; i < batches.size(); ++i) {
    const auto batch = train::training_batch(data, batches[i], device);
    loss_sum += step(model, *optimizer, batch, reinforce).loss;
    r.tgt_tokens += batch.target_tokens;
  }
  synchronize(device);
  r.seconds = seconds_since(start);
  r.steps = options.steps;
  r.mean_loss = loss_sum / static_cast<double>(std::max<int64_t>(options.steps, 1));
  return r;
}

DecodeBenchResult bench_decoding(const model::Seq2Seq& model, const train::TrainingData& data,
                                 const config::EvaluationConfig& evaluation, int64_t beam,
                                 int64_t sentences, torch::Device device,
                                 device::Precision precision) {
  const auto& valid = data.valid_text.src;
  const auto n = std::min(valid.size(), static_cast<std::size_t>(sentences));
  const std::vector<std::vector<std::string>> sources(
      valid.begin(), valid.begin() + static_cast<std::ptrdiff_t>(n));
  auto options = eval::translate_options(evaluation);
  options.search.beam_size = beam;
  options.search.keep_attention = evaluation.replace_unk;  // as validation does
  options.precision = precision;
  const eval::Translator translator(model, data.src_vocab, data.tgt_vocab, *data.src_tokenizer,
                                    *data.tgt_tokenizer, device);
  std::vector<eval::Translation> translations;
  const int64_t rows_before = eval::decoded_rows();
  const auto start = Clock::now();
  {
    c10::InferenceMode inference;  // no autograd bookkeeping at all (search adds NoGradGuard)
    translations = translator.translate_tokens(sources, options);
  }
  DecodeBenchResult r;
  r.seconds = seconds_since(start);
  r.rows = eval::decoded_rows() - rows_before;
  r.sentences = static_cast<int64_t>(n);
  for (const auto& t : translations) r.output_tokens += static_cast<int64_t>(t.tokens.size());
  return r;
}

}  // namespace s2s::experiments
