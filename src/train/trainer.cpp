#include "train/trainer.h"

#include <spdlog/fmt/fmt.h>

#include <cmath>
#include <filesystem>
#include <functional>
#include <thread>

#include "config/json_io.h"
#include "eval/scores.h"
#include "eval/splits.h"
#include "eval/translate.h"
#include "metrics/bleu.h"
#include "model/build_model.h"
#include "run/device.h"
#include "run/provenance.h"
#include "train/optimizer.h"
#include "util/error.h"
#include "util/logging.h"
#include "util/signals.h"
#include "util/system.h"

namespace s2s::train {
namespace {

// Several processes: what the gradient all-reduce cost (README: scaling estimates).
void log_traffic(const Distributed::Traffic& t, double train_seconds) {
  if (t.steps == 0) return;
  util::logger("dist")->info(
      "gradient all-reduce: {:.2f} MB per step, {:.1f} ms per step over {} steps ({:.1f}% of "
      "the training time)",
      static_cast<double>(t.bytes_per_step) / 1e6,
      1000.0 * t.seconds / static_cast<double>(t.steps), t.steps,
      100.0 * t.seconds / std::max(train_seconds, 1e-9));
}

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

}  // namespace

Trainer::Trainer(config::Config config, TrainOptions options)
    : config_(std::move(config)), options_(options), run_dir_(config_, options_) {
  config::validate_files(config_);
  connect();
  auto log = util::logger("device");
  log->info("{}", run::set_threads(threads()));
  run::seed_everything(config_.seed);
  device_ = run::resolve_device(config_.device);
  if (dist_ && device_.is_cuda() && !device_.has_index()) {  // one GPU per local rank
    device_ = torch::Device(torch::kCUDA, static_cast<c10::DeviceIndex>(dist_->env().local_rank));
  }
  const auto capabilities = run::detect_capabilities(device_);
  train_precision_ = run::choose_precision(config_.training.precision, capabilities);
  eval_precision_ = run::choose_precision(config_.evaluation.precision, capabilities);
  log->info("training in {}; validation in {}", train_precision_.description,
            run::to_string(eval_precision_.precision));
  if (train_precision_.emulated) {
    log->warn("bf16 is not native on {}: it runs emulated and slow; fp32 is faster here",
              device_.str());
  }
  step_.emplace(config_, device_, train_precision_.precision, dist_.get());
  prepare_data();
  check_evaluation_inputs();
  check_memory();
  build_model();
  if (dist_) synchronize_ranks();
  start_run();
}

// Several processes (train/distributed.h): join the others before anything is read, so that a
// bad rendezvous fails at once. Only rank 0 logs more than warnings.
void Trainer::connect() {
  const auto env = distributed_env();
  if (!env) return;
  if (env->rank != 0) util::set_log_level_warn();
  dist_ = std::make_unique<Distributed>(*env, config_.training.dist_timeout_s,
                                        run::resolve_device(config_.device));
}

int64_t Trainer::threads() const {
  if (config_.training.threads > 0 || !dist_) return config_.training.threads;
  const auto cores = static_cast<int64_t>(std::thread::hardware_concurrency());
  return std::max<int64_t>(1, cores / dist_->env().local_world_size);  // cores / local workers
}

// Every rank built the same vocabularies and model from the same config and data: check it,
// then start every rank from rank 0's weights (and, resumed, its checkpoint).
void Trainer::synchronize_ranks() {
  auto c = config_;
  c.training.threads = 0;  // may differ between machines
  std::string text = config::config_to_json(c).dump();
  for (const auto& t : data_.src_vocab.tokens()) text += t + "\n";
  for (const auto& t : data_.tgt_vocab.tokens()) text += t + "\n";
  dist_->check_same("the config, data and vocabularies (hash)",
                    static_cast<int64_t>(std::hash<std::string>{}(text)&0x7fffffffffffffff));
  std::vector<torch::Tensor> tensors;
  {
    torch::NoGradGuard no_grad;
    for (auto& p : model_->parameters()) tensors.push_back(p.data());
    for (auto& b : model_->buffers()) tensors.push_back(b);
    dist_->broadcast(tensors);
  }
  util::logger("dist")->info("{} ranks, effective batch {} x {} {}", dist_->world_size(),
                             dist_->world_size(), config_.training.batch_size,
                             config_.training.batch_type);
}

void Trainer::prepare_data() {
  data_ = prepare_training_data(config_, options_.resume ? &paths() : nullptr,
                                dist_ ? dist_->rank() : 0, dist_ ? dist_->world_size() : 1);
  // Validation decodes sources cut to evaluation.max_src_len and scores the pairs within it
  // (eval/splits.h): one overlong line must not stall every validation.
  const auto& d = config_.data;
  const auto origin = data::describe(run::corpus_spec(d, d.valid));
  const auto max_len = config_.evaluation.max_src_len;
  valid_sources_ = eval::bounded_sources(data_.valid_text.src, max_len, [&](std::size_t i) {
    return origin + ":" + std::to_string(data_.valid_text.lines[i]);
  });
  const auto keep = eval::pairs_within(data_.valid_text, max_len);
  if (keep.size() < data_.valid_text.size()) {
    util::logger("data")->warn(
        "valid: {} of {} pairs longer than evaluation.max_src_len = {} tokens left out of the "
        "validation loss",
        data_.valid_text.size() - keep.size(), data_.valid_text.size(), max_len);
  }
  valid_forced_ = run::encode_corpus(data::select_pairs(data_.valid_text, keep), data_.src_vocab,
                                     data_.tgt_vocab);
}

// The test split and the gold alignments are read after training (or by `s2s evaluate`): a bad
// file there fails now, not after hours of training.
void Trainer::check_evaluation_inputs() const {
  const auto check = [&](const std::string& name) {
    const auto split = eval::load_split(config_, name, *data_.src_tokenizer, *data_.tgt_tokenizer);
    eval::load_split_alignments(split);
  };
  if (!config_.data.test.empty()) check("test");
  if (!config_.data.valid_alignments.empty()) check("valid");
}

// Weights, gradients and Adam's two moments: four float copies of every parameter.
void Trainer::check_memory() const {
  const double parameters = model::expected_parameters(
      config_.model, data_.src_vocab.size(), data_.tgt_vocab.size(), config_.training.reinforce);
  const double needed = 4.0 * 4.0 * parameters, available = util::available_memory_bytes();
  if (!device_.is_cpu() || available <= 0 || needed <= available) return;
  const auto& m = config_.model;
  throw ConfigError(fmt::format(
      "model.emb_size = {}, model.hidden_size = {} (vocabularies {} and {}) give {:.3g} "
      "parameters: {} for weights, gradients and optimizer state, more than the {} of memory "
      "available",
      m.emb_size, m.hidden_size, data_.src_vocab.size(), data_.tgt_vocab.size(), parameters,
      util::format_bytes(needed), util::format_bytes(available)));
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
    state_ = run::load_checkpoint(paths().checkpoint("last"), *model_, optimizer_.get(), signature_,
                                  paths().src_vocab() + ", " + paths().tgt_vocab());
    model_->to(device_);  // loading puts tensors on the device they were saved from
    for (const auto& change : run_dir_.resumed_changes()) {
      if (change.key == "training.learning_rate") {
        state_.learning_rate = config_.training.learning_rate;
      }
    }
    last_saved_step_ = state_.step;
  }
  planned_steps_ = count_planned_steps();
  // The rate of the last update (or of the first, before any): what the logs show.
  lr_ = scheduled_learning_rate(config_.training, std::max<int64_t>(state_.step - 1, 0),
                                planned_steps_, state_.learning_rate);
  set_learning_rate(*optimizer_, lr_);
  summary_.parameters = model::count_parameters(*model_);
  util::logger("model")->info("{} parameters, scorer {}, decoder {}, device {}",
                              summary_.parameters, config_.model.attention.scorer,
                              config_.model.decoder.style, device_.str());
}

void Trainer::start_run() {
  last_save_time_ = Clock::now();
  if (!main()) return;  // rank 0 alone writes
  const auto model_files =
      run::tokenizer_files(config_.data, *data_.src_tokenizer, *data_.tgt_tokenizer, paths());
  run_dir_.claim(config_, data_.src_vocab, data_.tgt_vocab, model_files, state_.step);
  auto files = run::data_files(config_);
  files.push_back(paths().src_vocab());
  files.push_back(paths().tgt_vocab());
  for (const auto& file : model_files) files.push_back(file.first);
  auto provenance = run::provenance(config_, files);
  if (options_.resume) provenance["resumed_from_step"] = state_.step;
  run::record_provenance(paths().dir, provenance);
  metrics_ = util::MetricsLog(paths().metrics());
  auto log = util::logger("train");
  if (options_.resume) {
    log->info("run directory {}: resumed from step {} (epoch {})", paths().dir, state_.step,
              display_epoch());
    for (const auto& c : run_dir_.resumed_changes()) {
      log->info("--resume applies {}: {} -> {}", c.key, c.before, c.after);
    }
  } else {
    log->info("run directory {}", paths().dir);
    save("last");  // step 0: the last good weights always exist, whatever happens next
  }
  last_save_time_ = Clock::now();
}

TrainSummary Trainer::train() {
  const util::InterruptGuard interrupts;  // SIGINT/SIGTERM: finish the step, save, exit
  progress_ = std::make_unique<util::ProgressBar>(planned_steps_);
  train_start_ = interval_start_ = last_log_ = Clock::now();
  start_step_ = state_.step;
  start_elapsed_ = state_.elapsed_s;
  while (!should_stop()) {
    const auto batches = data_.batcher->epoch_batches(state_.epoch);
    while (!should_stop() && state_.epoch_batch < static_cast<int64_t>(batches.size())) {
      const auto& indices = batches[static_cast<std::size_t>(state_.epoch_batch)];
      const auto batch = run::make_batch(data_.train, indices, device_);
      const auto [loss, tokens] = train_step(batch);
      ++state_.step;
      ++state_.epoch_batch;
      end_of_step(loss, tokens);
      const int64_t every = config_.training.validate_every;
      if (every > 0 && state_.step % every == 0) {
        validate_and_checkpoint();
      } else {
        maybe_checkpoint();
      }
      // Several processes learn of a signal through the step's all-reduce, all at one step.
      if (const int signal = dist_ ? step_interrupt_ : util::InterruptGuard::pending()) {
        interrupted(signal);
      }
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
  summary_.epochs = display_epoch();
  summary_.seconds = seconds_since(train_start_);
  if (dist_) log_traffic(dist_->traffic(), summary_.seconds);
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

// Epochs times the first epoch's batches (token batches vary a little between epochs), capped
// by max_steps: the ETA's total and the cosine schedule's end.
int64_t Trainer::count_planned_steps() const {
  const auto per_epoch = static_cast<int64_t>(data_.batcher->epoch_batches(0).size());
  const int64_t by_epochs = per_epoch * config_.training.epochs;
  const int64_t max_steps = config_.training.max_steps;
  return max_steps > 0 ? std::min(max_steps, by_epochs) : by_epochs;
}

std::pair<double, int64_t> Trainer::train_step(const run::Batch& batch) {
  lr_ =
      scheduled_learning_rate(config_.training, state_.step, planned_steps_, state_.learning_rate);
  set_learning_rate(*optimizer_, lr_);
  const StepResult r =
      (*step_)(model_, *optimizer_, batch, state_.reinforce, util::InterruptGuard::pending());
  step_interrupt_ = r.interrupt;
  if (!r.finite || exploding(r.loss)) diverged("the training loss", r.loss);
  interval_reinforce_.reward += r.reinforce.reward;
  interval_reinforce_.baseline += r.reinforce.baseline;
  interval_reinforce_.term_variance += r.reinforce.term_variance;
  interval_reinforce_.entropy += r.reinforce.entropy;
  return {r.loss, r.tokens};
}

bool Trainer::exploding(double loss) const {
  const double uniform = std::log(static_cast<double>(data_.tgt_vocab.size()));
  return !std::isfinite(loss) || loss > kExplodingLoss * uniform;
}

void Trainer::diverged(const std::string& what, double value) {
  progress_->clear();
  discard_pending();
  if (!main()) {
    throw std::runtime_error(
        fmt::format("training diverged at step {}: {} is {:.4g} (rank 0 "
                    "names the last good checkpoint)",
                    state_.step + 1, what, value));
  }
  throw std::runtime_error(fmt::format(
      "training diverged at step {}: {} is {:.4g}{}; the last good weights are in {} (step {}); "
      "try a lower training.learning_rate or training.clip_grad_norm",
      state_.step + 1, what, value,
      std::isfinite(value) ? fmt::format(" (more than {} x ln V)", kExplodingLoss) : "",
      paths().checkpoint("last"), last_saved_step_));
}

void Trainer::interrupted(int signal) {
  progress_->clear();
  discard_pending();
  if (!main()) {
    throw util::Interrupted(signal, fmt::format("{} at step {}: rank 0 saved the run",
                                                util::signal_name(signal), state_.step));
  }
  save("last");
  throw util::Interrupted(
      signal, fmt::format("{} at step {} (epoch {}): saved {}; resume with: s2s train -c {} "
                          "--resume",
                          util::signal_name(signal), state_.step, display_epoch(),
                          paths().checkpoint("last"), paths().config()));
}

// A periodic save is written as pending.pt and becomes last.pt only once the next step's loss,
// computed with those weights, has come out finite: a diverged model never becomes last.pt.
void Trainer::maybe_checkpoint() {
  if (!main()) return;
  if (pending_step_ >= 0) {
    std::filesystem::rename(paths().checkpoint("pending"), paths().checkpoint("last"));
    last_saved_step_ = pending_step_;
    pending_step_ = -1;
  }
  const auto& t = config_.training;
  const bool by_steps = t.checkpoint_every > 0 && state_.step % t.checkpoint_every == 0;
  const bool by_time = t.checkpoint_every_minutes > 0 &&
                       seconds_since(last_save_time_) >= 60.0 * t.checkpoint_every_minutes;
  if (!by_steps && !by_time) return;
  save("pending");
  pending_step_ = state_.step;
  last_save_time_ = Clock::now();
}

void Trainer::discard_pending() {
  if (pending_step_ < 0) return;
  std::error_code ec;
  std::filesystem::remove(paths().checkpoint("pending"), ec);
  pending_step_ = -1;
}

// Epochs count from 1; a validation at the end of an epoch belongs to that epoch.
int64_t Trainer::display_epoch() const {
  return state_.epoch_batch == 0 && state_.step > 0 ? state_.epoch : state_.epoch + 1;
}

// A log line every training.log_every steps, after the first step (so that a log that is not a
// terminal shows life within seconds) and at least once a minute.
void Trainer::end_of_step(double loss, int64_t tokens) {
  constexpr double kLogAtLeastEverySeconds = 60.0;
  interval_loss_ += loss;
  ++interval_steps_;
  interval_tokens_ += tokens;
  const double elapsed = seconds_since(interval_start_);
  const double tokens_per_second = static_cast<double>(interval_tokens_) / std::max(elapsed, 1e-9);
  const double mean_loss = interval_loss_ / static_cast<double>(interval_steps_);
  progress_->update(state_.step, state_.epoch, mean_loss, tokens_per_second);
  const bool first = state_.step == start_step_ + 1;
  if (state_.step % config_.training.log_every != 0 && !first &&
      seconds_since(last_log_) < kLogAtLeastEverySeconds) {
    return;
  }
  progress_->clear();
  const int64_t done = state_.step - start_step_, total = planned_steps_;
  const double eta = seconds_since(train_start_) / static_cast<double>(std::max<int64_t>(done, 1)) *
                     static_cast<double>(std::max<int64_t>(total - state_.step, 0));
  util::logger("train")->info(
      "step {}/{} epoch {} loss {:.4f} ppl {} lr {:.2e} {:.0f} tgt tok/s, {} left", state_.step,
      total, display_epoch(), mean_loss, util::format_metric(std::exp(mean_loss)), lr_,
      tokens_per_second, util::format_duration(eta));
  last_log_ = Clock::now();
  nlohmann::json event = {
      {"event", "train"},        {"step", state_.step}, {"epoch", display_epoch()},
      {"loss", mean_loss},       {"lr", lr_},           {"tgt_tokens_per_s", tokens_per_second},
      {"elapsed_s", elapsed_s()}};
  if (config::samples_attention(config_.model)) log_reinforce(event);
  metrics_.write(event);
  interval_loss_ = 0.0;
  interval_steps_ = interval_tokens_ = 0;
  interval_start_ = Clock::now();
}

ValidationResult Trainer::validate() {
  ValidationResult r;
  const auto forced =
      eval::teacher_forced_scores(model_, valid_forced_, config_.evaluation.batch_size, device_,
                                  /*keep_attention=*/false, eval_precision_.precision);
  r.loss = forced.loss();
  r.ppl = forced.perplexity();
  // Greedy search, as Joey NMT validates: the beam is for the final evaluation.
  auto options = eval::translate_options(config_.evaluation);
  options.search.beam_size = 1;
  options.precision = eval_precision_.precision;
  util::ProgressLog progress("valid", "decoding valid");
  options.progress = [&](std::size_t done, std::size_t total) { progress.update(done, total); };
  options.search.keep_attention = config_.evaluation.replace_unk;
  const eval::Translator translator(model_, data_.src_vocab, data_.tgt_vocab, *data_.src_tokenizer,
                                    *data_.tgt_tokenizer, device_);
  const auto hypotheses = eval::texts(translator.translate_tokens(valid_sources_, options));
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
  summary_.best_step = state_.step;
  return true;
}

void Trainer::update_learning_rate(bool improvement) {
  const auto& t = config_.training;
  if (t.lr_schedule != "plateau") return;
  state_.plateau_count = improvement ? 0 : state_.plateau_count + 1;
  if (state_.plateau_count <= t.lr_patience) return;
  state_.learning_rate = std::max(t.min_lr, state_.learning_rate * t.lr_decay);
  state_.plateau_count = 0;  // the next train_step applies it
  util::logger("train")->info("learning rate reduced to {:.2e}", state_.learning_rate);
}

void Trainer::validate_and_checkpoint() {
  progress_->clear();
  last_validated_step_ = state_.step;
  if (dist_) {
    // Identical weights on every rank is what the gradient averaging promises: check it.
    dist_->check_same("the weights (checksum) at step " + std::to_string(state_.step),
                      run::model_checksum(*model_));
    if (!main()) return follow_validation();
  }
  const auto start = Clock::now();
  const ValidationResult r = validate();
  if (exploding(r.loss)) {
    share_validation(/*diverged=*/true);
    diverged("the validation loss", r.loss);
  }
  const bool improvement = improved(r);
  update_learning_rate(improvement);
  util::logger("valid")->info("step {} epoch {}: loss {:.4f} ppl {} BLEU {:.2f}{} ({:.1f} s)",
                              state_.step, display_epoch(), r.loss, util::format_metric(r.ppl),
                              r.bleu, improvement ? " *best*" : "", seconds_since(start));
  metrics_.write({{"event", "valid"},
                  {"step", state_.step},
                  {"epoch", display_epoch()},
                  {"loss", r.loss},
                  {"ppl", r.ppl},
                  {"bleu", r.bleu},
                  {"bleu_signature", r.bleu_signature},
                  {"best", improvement},
                  {"lr", lr_},
                  {"elapsed_s", elapsed_s()}});
  discard_pending();  // last.pt now holds newer weights, confirmed by the validation loss
  if (improvement) save("best");
  save("last");
  if (config_.training.keep_step_checkpoints) save("step_" + std::to_string(state_.step));
  const int64_t patience = config_.training.patience;
  if (patience > 0 && state_.bad_validations >= patience) {
    util::logger("train")->info("early stopping: no improvement of {} in {} validations",
                                config_.training.early_stopping_metric, patience);
    summary_.early_stopped = true;
    stop_ = true;
  }
  share_validation(/*diverged=*/false);
}

// Rank 0's decisions after a validation, for the other ranks: [diverged, stop, learning rate].
void Trainer::share_validation(bool diverged) {
  if (!dist_) return;
  std::vector<torch::Tensor> decision = {torch::tensor(
      {diverged ? 1.0 : 0.0, stop_ ? 1.0 : 0.0, state_.learning_rate}, torch::kDouble)};
  dist_->broadcast(decision);
}

void Trainer::follow_validation() {
  std::vector<torch::Tensor> decision = {torch::zeros({3}, torch::kDouble)};
  dist_->broadcast(decision);
  const auto d = decision[0].accessor<double, 1>();
  if (d[0] != 0.0) diverged("the validation loss on rank 0", NAN);
  stop_ = d[1] != 0.0;
  state_.learning_rate = d[2];  // the next train_step applies it
}

double Trainer::elapsed_s() const { return start_elapsed_ + seconds_since(train_start_); }

void Trainer::save(const std::string& name) {
  if (!main()) return;
  state_.elapsed_s = progress_ ? elapsed_s() : state_.elapsed_s;
  const auto path = paths().checkpoint(name);
  run::save_checkpoint(path, *model_, optimizer_.get(), state_, signature_);
  run_dir_.record({path});
  if (name == "last") {
    last_saved_step_ = state_.step;
    last_save_time_ = Clock::now();
  }
}

}  // namespace s2s::train
