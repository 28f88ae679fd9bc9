#include "train/trainer.h"

#include <cmath>
#include <filesystem>

#include "config/json_io.h"
#include "eval/scores.h"
#include "eval/splits.h"
#include "eval/translate.h"
#include "metrics/bleu.h"
#include "model/build_model.h"
#include "run/device.h"
#include "train/optimizer.h"
#include "util/error.h"
#include "util/logging.h"

namespace s2s::train {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

}  // namespace

Trainer::Trainer(config::Config config, TrainOptions options)
    : config_(std::move(config)), options_(options), paths_(config_.run_dir), step_(config_) {
  config::validate_files(config_);
  run::set_threads(config_.training.threads);
  run::seed_everything(config_.seed);
  device_ = run::resolve_device(config_.device);
  prepare_run_dir();
  prepare_data();
  build_model();
}

void Trainer::prepare_run_dir() {
  const bool has_checkpoint = fs::exists(paths_.checkpoint("last"));
  if (options_.resume && !has_checkpoint) {
    throw UserError("--resume: no checkpoint to resume from at " + paths_.checkpoint("last"));
  }
  if (!options_.resume && has_checkpoint && !options_.overwrite) {
    throw UserError(paths_.dir +
                    " already holds a trained run; use --resume to continue it, "
                    "--overwrite to start over, or another run_dir");
  }
  if (!options_.resume && fs::exists(paths_.dir)) {
    for (const auto& stale : {paths_.checkpoints(), paths_.metrics(), paths_.log()}) {
      fs::remove_all(stale);
    }
  }
  fs::create_directories(paths_.checkpoints());
  config::save_config(config_, paths_.config());
  util::add_log_file(paths_.log());
  metrics_ = util::MetricsLog(paths_.metrics());
  util::logger("train")->info("run directory {}{}", paths_.dir,
                              options_.resume ? " (resumed)" : "");
}

void Trainer::prepare_data() {
  data_ = prepare_training_data(config_, options_.resume ? &paths_ : nullptr);
  if (!options_.resume) {
    data_.src_vocab.save(paths_.src_vocab());
    data_.tgt_vocab.save(paths_.tgt_vocab());
  }
}

void Trainer::build_model() {
  const auto& reinforce = config_.training.reinforce;
  const int64_t src_size = data_.src_vocab.size(), tgt_size = data_.tgt_vocab.size();
  model_ = model::build_model(config_.model, src_size, tgt_size, reinforce);
  model_->to(device_);
  optimizer_ = make_optimizer(config_.training, model_->parameters());
  signature_ = run::model_signature(config_.model, src_size, tgt_size,
                                    model::has_learned_baseline(config_.model, reinforce));
  state_.learning_rate = config_.training.learning_rate;
  if (options_.resume) {
    state_ = run::load_checkpoint(paths_.checkpoint("last"), *model_, optimizer_.get(), signature_);
    model_->to(device_);  // loading puts tensors on the device they were saved from
    set_learning_rate(*optimizer_, state_.learning_rate);
  }
  summary_.parameters = model::count_parameters(*model_);
  util::logger("model")->info("{} parameters, scorer {}, decoder {}, device {}",
                              summary_.parameters, config_.model.attention.scorer,
                              config_.model.decoder.style, device_.str());
}

TrainSummary Trainer::train() {
  progress_ = std::make_unique<util::ProgressBar>(planned_steps());
  train_start_ = interval_start_ = Clock::now();
  while (!should_stop()) {
    const auto batches = data_.batcher->epoch_batches(state_.epoch);
    while (!should_stop() && state_.epoch_batch < static_cast<int64_t>(batches.size())) {
      const auto& indices = batches[static_cast<std::size_t>(state_.epoch_batch)];
      const auto batch = run::make_batch(data_.train, indices, device_);
      const double loss = train_step(batch);
      ++state_.step;
      ++state_.epoch_batch;
      end_of_step(loss, batch.target_tokens);
      const int64_t every = config_.training.validate_every;
      if (every > 0 && state_.step % every == 0) validate_and_checkpoint();
    }
    if (state_.epoch_batch >= static_cast<int64_t>(batches.size())) {
      ++state_.epoch;
      state_.epoch_batch = 0;
      if (config_.training.validate_every == 0) validate_and_checkpoint();
    }
  }
  progress_->clear();
  // A step limit can end training between validations: validate the final weights too.
  if (state_.step != last_validated_step_) validate_and_checkpoint();
  summary_.steps = state_.step;
  summary_.seconds = seconds_since(train_start_);
  return summary_;
}

void Trainer::log_reinforce(nlohmann::json& event) {
  const double n = static_cast<double>(std::max<int64_t>(interval_steps_, 1));
  const ReinforceStats mean{interval_reinforce_.reward / n, interval_reinforce_.baseline / n,
                            interval_reinforce_.term_variance / n, interval_reinforce_.entropy / n};
  util::logger("reinforce")
      ->info("reward {:.3f} baseline {:.3f} term variance {:.3g} entropy {:.3f}", mean.reward,
             mean.baseline, mean.term_variance, mean.entropy);
  event["reward"] = mean.reward;
  event["baseline"] = mean.baseline;
  event["reinforce_variance"] = mean.term_variance;
  event["attention_entropy"] = mean.entropy;
  interval_reinforce_ = {};
}

bool Trainer::should_stop() const {
  const auto& t = config_.training;
  return stop_ || state_.epoch >= t.epochs || (t.max_steps > 0 && state_.step >= t.max_steps);
}

int64_t Trainer::planned_steps() const {
  const auto per_epoch = static_cast<int64_t>(data_.batcher->epoch_batches(0).size());
  const int64_t by_epochs = per_epoch * config_.training.epochs;
  const int64_t max_steps = config_.training.max_steps;
  return max_steps > 0 ? std::min(max_steps, by_epochs) : by_epochs;
}

double Trainer::train_step(const run::Batch& batch) {
  const StepResult r = step_(model_, *optimizer_, batch, state_.baseline);
  if (!r.finite) {
    progress_->clear();
    throw std::runtime_error("training diverged at step " + std::to_string(state_.step + 1) +
                             ": the loss is " + std::to_string(r.loss) +
                             "; the last good checkpoint is kept in " + paths_.checkpoints() +
                             " (try a lower training.learning_rate or training.clip_grad_norm)");
  }
  interval_reinforce_.reward += r.reinforce.reward;
  interval_reinforce_.baseline += r.reinforce.baseline;
  interval_reinforce_.term_variance += r.reinforce.term_variance;
  interval_reinforce_.entropy += r.reinforce.entropy;
  return r.loss;
}

void Trainer::end_of_step(double loss, int64_t tokens) {
  interval_loss_ += loss;
  ++interval_steps_;
  interval_tokens_ += tokens;
  const double elapsed = seconds_since(interval_start_);
  const double tokens_per_second = static_cast<double>(interval_tokens_) / std::max(elapsed, 1e-9);
  const double mean_loss = interval_loss_ / static_cast<double>(interval_steps_);
  progress_->update(state_.step, state_.epoch, mean_loss, tokens_per_second);
  if (state_.step % config_.training.log_every != 0) return;
  progress_->clear();
  util::logger("train")->info("step {} epoch {} loss {:.4f} ppl {:.2f} lr {:.2e} {:.0f} tgt tok/s",
                              state_.step, state_.epoch + 1, mean_loss, std::exp(mean_loss),
                              state_.learning_rate, tokens_per_second);
  nlohmann::json event = {{"event", "train"},
                          {"step", state_.step},
                          {"epoch", state_.epoch + 1},
                          {"loss", mean_loss},
                          {"lr", state_.learning_rate},
                          {"tgt_tokens_per_s", tokens_per_second},
                          {"elapsed_s", seconds_since(train_start_)}};
  if (config::samples_attention(config_.model)) log_reinforce(event);
  metrics_.write(event);
  interval_loss_ = 0.0;
  interval_steps_ = interval_tokens_ = 0;
  interval_start_ = Clock::now();
}

ValidationResult Trainer::validate() {
  ValidationResult r;
  const auto forced = eval::teacher_forced_scores(
      model_, data_.valid, config_.evaluation.batch_size, device_, /*keep_attention=*/false);
  r.loss = forced.loss();
  r.ppl = forced.perplexity();
  // Greedy search, as Joey NMT validates: the beam is for the final evaluation.
  auto options = eval::translate_options(config_.evaluation);
  options.search.beam_size = 1;
  options.search.keep_attention = config_.evaluation.replace_unk;
  const eval::Translator translator(model_, data_.src_vocab, data_.tgt_vocab, *data_.src_tokenizer,
                                    *data_.tgt_tokenizer, device_);
  const auto hypotheses = eval::texts(translator.translate_tokens(data_.valid_text.src, options));
  const auto& references = data_.valid_text.tgt_raw;
  const auto bleu =
      metrics::corpus_bleu(hypotheses, references, eval::bleu_options(config_.evaluation));
  r.bleu = bleu.score;
  r.bleu_signature = bleu.signature();
  const auto n = std::min<std::size_t>(static_cast<std::size_t>(config_.training.num_samples),
                                       hypotheses.size());
  for (std::size_t i = 0; i < n; ++i) {
    util::logger("valid")->info("example {}: {}", i + 1, references[i]);
    util::logger("valid")->info("  hypothesis: {}", hypotheses[i]);
  }
  return r;
}

bool Trainer::improved(const ValidationResult& r) {
  const std::string& metric = config_.training.early_stopping_metric;
  const double score = metric == "bleu" ? r.bleu : metric == "loss" ? -r.loss : -r.ppl;
  if (state_.has_best && score <= state_.best_score) {
    ++state_.bad_validations;
    return false;
  }
  state_.best_score = score;
  state_.has_best = true;
  state_.bad_validations = 0;
  summary_.best = r;
  return true;
}

void Trainer::update_learning_rate(bool improvement) {
  const auto& t = config_.training;
  if (t.lr_schedule != "plateau") return;
  state_.plateau_count = improvement ? 0 : state_.plateau_count + 1;
  if (state_.plateau_count <= t.lr_patience) return;
  state_.learning_rate = std::max(t.min_lr, state_.learning_rate * t.lr_decay);
  state_.plateau_count = 0;
  set_learning_rate(*optimizer_, state_.learning_rate);
  util::logger("train")->info("learning rate reduced to {:.2e}", state_.learning_rate);
}

void Trainer::validate_and_checkpoint() {
  progress_->clear();
  last_validated_step_ = state_.step;
  const auto start = Clock::now();
  const ValidationResult r = validate();
  const bool improvement = improved(r);
  update_learning_rate(improvement);
  util::logger("valid")->info("step {} epoch {}: loss {:.4f} ppl {:.2f} BLEU {:.2f}{} ({:.1f} s)",
                              state_.step, state_.epoch, r.loss, r.ppl, r.bleu,
                              improvement ? " *best*" : "", seconds_since(start));
  metrics_.write({{"event", "valid"},
                  {"step", state_.step},
                  {"epoch", state_.epoch},
                  {"loss", r.loss},
                  {"ppl", r.ppl},
                  {"bleu", r.bleu},
                  {"bleu_signature", r.bleu_signature},
                  {"best", improvement},
                  {"lr", state_.learning_rate},
                  {"elapsed_s", seconds_since(train_start_)}});
  if (improvement) save("best");
  save("last");
  const int64_t patience = config_.training.patience;
  if (patience > 0 && state_.bad_validations >= patience) {
    util::logger("train")->info("early stopping: no improvement of {} in {} validations",
                                config_.training.early_stopping_metric, patience);
    summary_.early_stopped = true;
    stop_ = true;
  }
}

void Trainer::save(const std::string& name) {
  run::save_checkpoint(paths_.checkpoint(name), *model_, optimizer_.get(), state_, signature_);
}

}  // namespace s2s::train
