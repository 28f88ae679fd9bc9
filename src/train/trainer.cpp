#include "train/trainer.h"

#include <spdlog/fmt/fmt.h>

#include <chrono>
#include <cmath>

#include "device/device.h"
#include "eval/splits.h"
#include "model/build_model.h"
#include "run/manifest.h"
#include "run/provenance.h"
#include "train/early_stopping.h"
#include "train/memory_check.h"
#include "train/optimizer.h"
#include "util/error.h"
#include "util/logging.h"
#include "util/signals.h"

namespace s2s::train {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// The test split and the gold alignments are read after training (or by `s2s evaluate`): a bad
// file there fails now, not after hours of training.
void check_evaluation_inputs(const config::Config& config, const TrainingData& data) {
  const auto check = [&](const std::string& name) {
    const auto split = eval::load_split(config, name, *data.src_tokenizer, *data.tgt_tokenizer);
    eval::load_split_alignments(split);
  };
  if (!config.data.test.empty()) check("test");
  if (!config.data.valid_alignments.empty()) check("valid");
}

// Epochs times the first epoch's batches (token batches vary a little between epochs), capped
// by max_steps: the ETA's total and the cosine schedule's end.
int64_t count_planned_steps(const config::TrainingConfig& training, const TrainingData& data) {
  const auto per_epoch = static_cast<int64_t>(data.batcher->epoch(0)->size());
  const int64_t by_epochs = per_epoch * training.epochs;
  const int64_t max_steps = training.max_steps;
  return max_steps > 0 ? std::min(max_steps, by_epochs) : by_epochs;
}

// A resumed run goes on over the pairs it started with: the prepared corpus its manifest names
// must still have the same content (its batches and ids depend on it).
void check_prepared_corpus(const std::string& run_dir, const data::PreparedCorpus& corpus) {
  const auto manifest = run::read_manifest(run_dir);
  const auto recorded = manifest.value("provenance", nlohmann::json::object())
                            .value("prepared_corpus", nlohmann::json::object())
                            .value("content_hash", std::string());
  if (recorded.empty() || recorded == corpus.content_hash()) return;
  throw InputError(fmt::format(
      "--resume: the run trained on the prepared corpus with content hash {}, and {} now has {}: "
      "the corpus changed; start a new run (or --overwrite this one)",
      recorded, corpus.dir(), corpus.content_hash()));
}

bool exploding(double loss, int64_t vocab_size) {
  const double uniform = std::log(static_cast<double>(vocab_size));
  return !std::isfinite(loss) || loss > kExplodingLoss * uniform;
}

}  // namespace

Trainer::Trainer(config::Config config, TrainOptions options)
    : config_(std::move(config)), options_(options), run_dir_(config_, options_) {
  config::validate_files(config_);
  ranks_.connect(config_);
  auto log = util::logger("device");
  log->info("{}", device::set_threads(ranks_.threads(config_.training.threads)));
  device::seed_everything(config_.seed);
  device_ = ranks_.device(device::resolve_device(config_.device));
  const auto capabilities = device::detect_capabilities(device_);
  const auto train_precision =
      device::choose_precision(config_.training.precision, capabilities, "training.precision");
  const auto eval_precision = device::choose_precision(config_.evaluation.precision, capabilities);
  log->info("training in {}; validation in {}", train_precision.description,
            device::to_string(eval_precision.precision));
  if (train_precision.emulated) {
    log->warn("bf16 is not native on {}: it runs emulated and slow; fp32 is faster here",
              device_.str());
  }
  step_.emplace(config_, device_, train_precision.precision, ranks_.distributed());
  prepare_data();
  validator_.emplace(config_, data_, device_, eval_precision.precision);
  check_evaluation_inputs(config_, data_);
  check_memory(config_, data_, device_);
  build_model();
  ranks_.synchronize(config_, data_, model_);
  start_run();
}

void Trainer::prepare_data() {
  // A resumed training reads its own tokenizers and vocabularies; an ensemble's later member
  // reads the first member's.
  std::optional<run::RunPaths> from;
  if (options_.resume) {
    from = paths();
  } else if (!options_.vocabularies_from.empty()) {
    from.emplace(options_.vocabularies_from);
  }
  data_ =
      prepare_training_data(config_, from ? &*from : nullptr, ranks_.rank(), ranks_.world_size());
  if (options_.resume && data_.prepared) check_prepared_corpus(paths().dir, *data_.prepared);
}

void Trainer::build_model() {
  const auto& reinforce = config_.training.reinforce;
  const int64_t src_size = data_.src_vocab.size(), tgt_size = data_.tgt_vocab.size();
  model_ = model::build_model(config_.model, src_size, tgt_size, reinforce);
  model_->to(device_);
  optimizer_ = make_optimizer(config_.training, model_->parameters());
  keeper_.emplace(config_.training, run_dir_, model_, *optimizer_,
                  run::model_signature(config_.model, src_size, tgt_size,
                                       model::has_learned_baseline(config_.model, reinforce)),
                  checkpoint::Vocabularies{data_.src_vocab, data_.tgt_vocab, paths().src_vocab(),
                                           paths().tgt_vocab()},
                  ranks_.main());
  state_.learning_rate = config_.training.learning_rate;
  if (options_.resume) {
    state_ = keeper_->resume();
    model_->to(device_);  // loading puts tensors on the device they were saved from
    for (const auto& change : run_dir_.resumed_changes()) {
      if (change.key == "training.learning_rate") {
        state_.learning_rate = config_.training.learning_rate;
      }
    }
  }
  planned_steps_ = count_planned_steps(config_.training, data_);
  // The rate of the last update (or of the first, before any): what the logs show.
  lr_ = scheduled_learning_rate(config_.training, std::max<int64_t>(state_.step - 1, 0),
                                planned_steps_, state_.learning_rate);
  set_learning_rate(*optimizer_, lr_);
  summary_.parameters = model::count_parameters(*model_);
  const auto& a = config_.model.attention;
  // Coverage moves the keys at every step: the additive scorer's fused steps, which read the
  // shared keys, give way to its recorded ops (model/attention.h), and the log says so.
  util::logger("model")->info(
      "{} parameters, scorer {}, normalizer {}{}, decoder {}, device {}", summary_.parameters,
      a.scorer, a.normalizer,
      a.coverage
          ? (a.scorer == "additive" ? ", coverage (recorded scorer steps, not the fused ones)"
                                    : ", coverage")
          : "",
      config_.model.decoder.style, device_.str());
}

namespace {

// --resume with another number of processes: each update sums another number of batches.
void warn_changed_processes(const nlohmann::json& manifest, int64_t now,
                            const config::Config& config) {
  const auto& provenance = manifest.value("provenance", nlohmann::json::object());
  if (!provenance.contains("processes") || !provenance["processes"].is_number_integer()) return;
  const auto before = provenance["processes"].get<int64_t>();
  if (before == now) return;
  const auto& t = config.training;
  util::logger("train")->warn(
      "--resume: the run trained with {} processes and goes on with {}: the effective batch "
      "changes from {} x {} to {} x {} {}",
      before, now, before, t.batch_size, now, t.batch_size, t.batch_type);
}

}  // namespace

void Trainer::start_run() {
  if (!ranks_.main()) return;  // rank 0 alone writes
  const auto model_files =
      run::tokenizer_files(config_.data, *data_.src_tokenizer, *data_.tgt_tokenizer, paths());
  run_dir_.claim(config_, data_.src_vocab, data_.tgt_vocab, model_files, state_.step);
  auto files = run::data_files(config_);
  files.push_back(paths().src_vocab());
  files.push_back(paths().tgt_vocab());
  for (const auto& file : model_files) files.push_back(file.first);
  auto provenance = run::provenance(config_, files);
  provenance["processes"] = ranks_.world_size();
  if (data_.prepared) {
    provenance["prepared_corpus"] = {{"dir", data_.prepared->dir()},
                                     {"content_hash", data_.prepared->content_hash()},
                                     {"pairs", data_.prepared->size()}};
  }
  if (options_.resume) {
    provenance["resumed_from_step"] = state_.step;
    warn_changed_processes(run::read_manifest(paths().dir), ranks_.world_size(), config_);
  }
  run::record_provenance(paths().dir, provenance);
  metrics_ = util::JsonlWriter(paths().metrics());
  auto log = util::logger("train");
  if (options_.resume) {
    log->info("run directory {}: resumed from step {} (epoch {})", paths().dir, state_.step,
              display_epoch(state_));
    for (const auto& c : run_dir_.resumed_changes()) {
      log->info("--resume applies {}: {} -> {}", c.key, c.before, c.after);
    }
  } else {
    log->info("run directory {}", paths().dir);
    save("last");  // step 0: the last good weights always exist, whatever happens next
  }
  keeper_->restart_clock();
}

TrainSummary Trainer::train() {
  const util::InterruptGuard interrupts;  // SIGINT/SIGTERM: finish the step, save, exit
  log_.emplace(config_, metrics_, state_, planned_steps_);
  while (!should_stop()) {
    const auto batches = data_.batcher->epoch(state_.epoch);
    while (!should_stop() && state_.epoch_batch < static_cast<int64_t>(batches->size())) {
      const auto& indices = batches->batch(static_cast<std::size_t>(state_.epoch_batch));
      const auto batch = training_batch(data_, indices, device_);
      const StepResult step = train_step(batch);
      ++state_.step;
      ++state_.epoch_batch;
      log_->add(step, state_, lr_);
      const int64_t every = config_.training.validate_every;
      if (every > 0 && state_.step % every == 0) {
        validate_and_checkpoint();
      } else {
        maybe_checkpoint();
      }
      // Several processes learn of a signal through the step's all-reduce, all at one step.
      if (const int signal = ranks_.interrupt(step.interrupt)) interrupted(signal);
    }
    if (state_.epoch_batch >= static_cast<int64_t>(batches->size())) {
      ++state_.epoch;
      state_.epoch_batch = 0;
      if (config_.training.validate_every == 0) validate_and_checkpoint();
    }
  }
  log_->clear_bar();
  // A step limit can end training between validations: validate the final weights too.
  if (state_.step != last_validated_step_) validate_and_checkpoint();
  summary_.steps = state_.step;
  summary_.epochs = display_epoch(state_);
  summary_.seconds = log_->seconds();
  summary_.tokens = log_->tokens();
  ranks_.log_traffic(summary_.seconds);
  summary_.averaged = keeper_->average_at_end();
  return summary_;
}

bool Trainer::should_stop() const {
  const auto& t = config_.training;
  return stop_ || state_.epoch >= t.epochs || (t.max_steps > 0 && state_.step >= t.max_steps);
}

// The step's loss, its target tokens (over every rank) and, with several processes, a signal
// any rank received.
StepResult Trainer::train_step(const batching::Batch& batch) {
  lr_ =
      scheduled_learning_rate(config_.training, state_.step, planned_steps_, state_.learning_rate);
  set_learning_rate(*optimizer_, lr_);
  const StepResult r = (*step_)(model_, *optimizer_, batch, state_.reinforce,
                                util::InterruptGuard::pending(), state_.step);
  if (!r.finite || exploding(r.loss, data_.tgt_vocab.size())) diverged("the training loss", r.loss);
  return r;
}

void Trainer::diverged(const std::string& what, double value) {
  log_->clear_bar();
  keeper_->discard_pending();
  if (!ranks_.main()) {
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
      paths().checkpoint("last"), keeper_->last_saved_step()));
}

void Trainer::interrupted(int signal) {
  log_->clear_bar();
  keeper_->discard_pending();
  if (!ranks_.main()) {
    throw util::Interrupted(signal, fmt::format("{} at step {}: rank 0 saved the run",
                                                util::signal_name(signal), state_.step));
  }
  save("last");
  const std::string resume = options_.resume_command.empty()
                                 ? "s2s train -c " + paths().config() + " --resume"
                                 : options_.resume_command;
  throw util::Interrupted(
      signal,
      fmt::format("{} at step {} (epoch {}): saved {}; resume with: {}", util::signal_name(signal),
                  state_.step, display_epoch(state_), paths().checkpoint("last"), resume));
}

// A periodic save is written as pending.pt and becomes last.pt only once the next step's loss,
// computed with those weights, has come out finite: a diverged model never becomes last.pt.
void Trainer::maybe_checkpoint() {
  keeper_->promote_pending();
  if (keeper_->periodic_due(state_.step)) save("pending");
}

// Rank 0 validates and decides; the other ranks follow its decisions.
void Trainer::validate_and_checkpoint() {
  log_->clear_bar();
  last_validated_step_ = state_.step;
  ranks_.check_weights(model_, state_.step);
  if (!ranks_.main()) return follow_validation();
  const auto start = Clock::now();
  const ValidationResult r = validator_->validate(model_);
  if (exploding(r.loss, data_.tgt_vocab.size())) {
    ranks_.share_validation({/*diverged=*/true, stop_, state_.learning_rate});
    diverged("the validation loss", r.loss);
  }
  const bool improvement = judge(r);
  report_validation(r, improvement, seconds_since(start));
  save_validated(improvement);
  if (out_of_patience(config_.training, state_)) {
    summary_.early_stopped = true;
    stop_ = true;
  }
  ranks_.share_validation({/*diverged=*/false, stop_, state_.learning_rate});
}

void Trainer::follow_validation() {
  const ValidationDecision decision = ranks_.follow_validation();
  if (decision.diverged) diverged("the validation loss on rank 0", NAN);
  stop_ = decision.stop;
  state_.learning_rate = decision.learning_rate;  // the next train_step applies it
}

// A new best is kept for the summary; the plateau schedule counts the validations without one.
bool Trainer::judge(const ValidationResult& r) {
  const bool improvement = improved(config_.training, r, state_);
  if (improvement) {
    summary_.best = r;
    summary_.best_step = state_.step;
  }
  reduce_on_plateau(config_.training, improvement, state_);
  return improvement;
}

void Trainer::report_validation(const ValidationResult& r, bool improvement, double seconds) {
  util::logger("valid")->info("step {} epoch {}: loss {:.4f} ppl {} BLEU {:.2f}{} ({:.1f} s)",
                              state_.step, display_epoch(state_), r.loss,
                              util::format_metric(r.ppl), r.bleu, improvement ? " *best*" : "",
                              seconds);
  metrics_.write({{"event", "valid"},
                  {"step", state_.step},
                  {"epoch", display_epoch(state_)},
                  {"loss", r.loss},
                  {"ppl", r.ppl},
                  {"bleu", r.bleu},
                  {"bleu_signature", r.bleu_signature},
                  {"best", improvement},
                  {"lr", lr_},
                  {"elapsed_s", log_->elapsed_s()}});
}

void Trainer::save_validated(bool improvement) {
  keeper_->discard_pending();  // last.pt now holds newer weights, confirmed by the validation loss
  if (improvement) save("best");
  save("last");
  if (config_.training.keep_step_checkpoints) save("step_" + std::to_string(state_.step));
}

// A checkpoint records the training seconds so far (those of a resumed run go on from them).
void Trainer::save(const std::string& name) {
  if (log_) state_.elapsed_s = log_->elapsed_s();
  keeper_->save(name, state_);
}

}  // namespace s2s::train
