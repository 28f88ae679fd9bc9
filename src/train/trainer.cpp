#include "train/trainer.h"

#include <cmath>
#include <filesystem>

#include "config/json_io.h"
#include "eval/translate.h"
#include "metrics/bleu.h"
#include "model/build_model.h"
#include "train/device.h"
#include "train/loss.h"
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
    : config_(std::move(config)),
      options_(options),
      paths_(config_.run_dir),
      reinforce_(config_.training.reinforce) {
  config::validate_files(config_);
  set_threads(config_.training.threads);
  seed_everything(config_.seed);
  device_ = resolve_device(config_.device);
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
  const auto& d = config_.data;
  src_tokenizer_ = make_config_tokenizer(d);
  tgt_tokenizer_ = make_config_tokenizer(d);
  train_text_ = data::load_corpus("train", corpus_spec(d, d.train), *src_tokenizer_,
                                  *tgt_tokenizer_, d.max_len);
  // Validation keeps every pair (no length filter): its BLEU must cover the whole split.
  valid_text_ = data::tokenize_corpus(data::read_corpus(corpus_spec(d, d.valid)), *src_tokenizer_,
                                      *tgt_tokenizer_);
  if (options_.resume) {
    src_vocab_ = data::Vocab::load(paths_.src_vocab());
    tgt_vocab_ = data::Vocab::load(paths_.tgt_vocab());
  } else {
    src_vocab_ = data::Vocab::build(train_text_.src, {d.src_min_freq, d.src_max_vocab});
    tgt_vocab_ = data::Vocab::build(train_text_.tgt, {d.tgt_min_freq, d.tgt_max_vocab});
    src_vocab_.save(paths_.src_vocab());
    tgt_vocab_.save(paths_.tgt_vocab());
  }
  util::logger("data")->info("vocabulary: source {}, target {}", src_vocab_.size(),
                             tgt_vocab_.size());
  train_data_ = encode_corpus(train_text_, src_vocab_, tgt_vocab_);
  valid_data_ = encode_corpus(valid_text_, src_vocab_, tgt_vocab_);
  data::BatcherOptions b;
  b.batch_size = config_.training.batch_size;
  b.unit = data::parse_batch_unit(config_.training.batch_type);
  b.seed = static_cast<uint64_t>(config_.seed);
  b.bucket_batches = config_.training.bucket_batches;
  batcher_ =
      std::make_unique<data::Batcher>(train_data_.src_lengths(), train_data_.tgt_lengths(), b);
}

void Trainer::build_model() {
  const auto& reinforce = config_.training.reinforce;
  model_ = model::build_model(config_.model, src_vocab_.size(), tgt_vocab_.size(), reinforce);
  model_->to(device_);
  optimizer_ = make_optimizer(config_.training, model_->parameters());
  signature_ = model_signature(config_.model, src_vocab_.size(), tgt_vocab_.size(),
                               model::has_learned_baseline(config_.model, reinforce));
  state_.learning_rate = config_.training.learning_rate;
  if (options_.resume) {
    state_ = load_checkpoint(paths_.checkpoint("last"), *model_, optimizer_.get(), signature_);
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
    const auto batches = batcher_->epoch_batches(state_.epoch);
    while (!should_stop() && state_.epoch_batch < static_cast<int64_t>(batches.size())) {
      const auto batch =
          make_batch(train_data_, batches[static_cast<std::size_t>(state_.epoch_batch)], device_);
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
  const auto per_epoch = static_cast<int64_t>(batcher_->epoch_batches(0).size());
  const int64_t by_epochs = per_epoch * config_.training.epochs;
  const int64_t max_steps = config_.training.max_steps;
  return max_steps > 0 ? std::min(max_steps, by_epochs) : by_epochs;
}

double Trainer::train_step(const Batch& batch) {
  model_->train();
  optimizer_->zero_grad();
  // Leave-one-out REINFORCE decodes every sentence K times, each with its own attention samples.
  const int64_t k = samples_attention() ? reinforce_.samples_per_sentence() : 1;
  const auto tgt_out = repeat_rows(batch.tgt_out, k);
  const auto out = model_->forward(repeat_rows(batch.src, k), repeat_rows(batch.src_lengths, k),
                                   repeat_rows(batch.tgt_in, k), config_.training.teacher_forcing);
  auto loss = sequence_loss(out.logits, out.token_index, tgt_out, config_.training.label_smoothing);
  auto total = loss.loss;
  if (samples_attention()) {
    ReinforceStats stats;
    const auto mask = tgt_out.ne(data::Vocab::kPad).to(loss.token_nll.dtype());
    total = total + reinforce_.loss(loss.token_nll, mask, out, state_.baseline, &stats) /
                        static_cast<double>(std::max<int64_t>(loss.tokens, 1));
    interval_reinforce_.reward += stats.reward;
    interval_reinforce_.baseline += stats.baseline;
    interval_reinforce_.term_variance += stats.term_variance;
    interval_reinforce_.entropy += stats.entropy;
  }
  const double value = loss.loss.item<double>();
  if (!std::isfinite(value) || !std::isfinite(total.item<double>())) {
    progress_->clear();
    throw std::runtime_error("training diverged at step " + std::to_string(state_.step + 1) +
                             ": the loss is " + std::to_string(value) +
                             "; the last good checkpoint is kept in " + paths_.checkpoints() +
                             " (try a lower training.learning_rate or training.clip_grad_norm)");
  }
  total.backward();
  if (config_.training.clip_grad_norm > 0) {
    torch::nn::utils::clip_grad_norm_(model_->parameters(), config_.training.clip_grad_norm);
  }
  optimizer_->step();
  return value;
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
  if (samples_attention()) log_reinforce(event);
  metrics_.write(event);
  interval_loss_ = 0.0;
  interval_steps_ = interval_tokens_ = 0;
  interval_start_ = Clock::now();
}

ValidationResult Trainer::validate() {
  model_->eval();
  ValidationResult r;
  {
    torch::NoGradGuard no_grad;
    double nll = 0.0;
    int64_t tokens = 0;
    const auto batch_size = static_cast<std::size_t>(config_.evaluation.batch_size);
    for (std::size_t start = 0; start < valid_data_.size(); start += batch_size) {
      std::vector<std::size_t> indices;
      for (std::size_t i = start; i < std::min(start + batch_size, valid_data_.size()); ++i) {
        indices.push_back(i);
      }
      const auto batch = make_batch(valid_data_, indices, device_);
      const auto out = model_->forward(batch.src, batch.src_lengths, batch.tgt_in);
      const auto loss =
          sequence_loss(out.logits, out.token_index, batch.tgt_out, /*label_smoothing=*/0.0);
      nll += loss.nll_sum;
      tokens += loss.tokens;
    }
    r.loss = nll / static_cast<double>(std::max<int64_t>(tokens, 1));
    r.ppl = std::exp(r.loss);
  }
  // Greedy search, as Joey NMT validates: the beam is for the final evaluation.
  auto options = eval::translate_options(config_.evaluation);
  options.search.beam_size = 1;
  options.search.keep_attention = config_.evaluation.replace_unk;
  const eval::Translator translator(model_, src_vocab_, tgt_vocab_, *src_tokenizer_,
                                    *tgt_tokenizer_, device_);
  const auto translations = translator.translate_tokens(valid_text_.src, options);
  std::vector<std::string> hypotheses;
  for (const auto& t : translations) hypotheses.push_back(t.text);
  metrics::BleuOptions bleu_options;
  bleu_options.tokenize = config_.evaluation.bleu_tokenize;
  bleu_options.lowercase = config_.evaluation.bleu_lowercase;
  const auto bleu = metrics::corpus_bleu(hypotheses, valid_text_.tgt_raw, bleu_options);
  r.bleu = bleu.score;
  r.bleu_signature = bleu.signature();
  const auto n = std::min<std::size_t>(static_cast<std::size_t>(config_.training.num_samples),
                                       hypotheses.size());
  for (std::size_t i = 0; i < n; ++i) {
    util::logger("valid")->info("example {}: {}", i + 1, valid_text_.tgt_raw[i]);
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
  save_checkpoint(paths_.checkpoint(name), *model_, optimizer_.get(), state_, signature_);
}

}  // namespace s2s::train
