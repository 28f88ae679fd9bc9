#include "cli/train.h"

#include <spdlog/fmt/fmt.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "checkpoint/average.h"
#include "checkpoint/load_run.h"
#include "cli/attention.h"
#include "cli/evaluate.h"
#include "cli/launch.h"
#include "cli/report.h"
#include "config/json_io.h"
#include "device/device.h"
#include "run/manifest.h"
#include "run/run_dir.h"
#include "train/distributed.h"
#include "train/trainer.h"
#include "util/error.h"
#include "util/logging.h"
#include "util/progress.h"
#include "util/signals.h"
#include "util/strings.h"

namespace s2s::cli {
namespace {

namespace fs = std::filesystem;

// What a user wants to know when training ends, and what to try next.
void print_summary(const train::TrainSummary& s, const run::RunPaths& paths,
                   const std::optional<EvaluateResult>& test, bool heatmaps,
                   const std::string& report) {
  auto log = util::logger("train");
  log->info("summary: {} steps, {} epochs, {} of training, {} parameters", s.steps, s.epochs,
            util::format_duration(s.seconds), s.parameters);
  if (s.best) {
    log->info("  best checkpoint:  {} (step {}: validation BLEU {:.2f}, loss {:.4f}, ppl {})",
              paths.checkpoint("best"), s.best_step, s.best->bleu, s.best->loss,
              util::format_metric(s.best->ppl));
  }
  if (!s.averaged.empty()) {
    log->info("  average:          {} (of {})", paths.checkpoint(checkpoint::kTrainingAverage),
              util::join(s.averaged, ", "));
  }
  if (test) {
    log->info("  test ({}):   BLEU {:.2f}, chrF {:.2f}; {}, {}", test->decode, test->bleu,
              test->chrf, test->hyp_path, test->scores_path);
  }
  if (heatmaps) log->info("  heatmaps:         {}/heatmaps/ (index.jsonl lists them)", paths.dir);
  log->info("  report:           {} (open it in a browser)", report);
  log->info("  log and curves:   {}, {}", paths.log(), paths.metrics());
  log->info("  next: s2s translate --run {}   (or: s2s evaluate --run {} --beam 5)", paths.dir,
            paths.dir);
}

}  // namespace

TestResults run_test(const config::Config& config, const run::RunPaths& paths,
                     const std::string& checkpoint) {
  TestResults results;
  EvaluateArgs evaluate;
  evaluate.run = paths.dir;
  evaluate.split = "test";
  evaluate.checkpoint = checkpoint;
  evaluate.out = paths.dir + "/test";
  results.scores = run_evaluate(evaluate);
  if (config::uses_attention(config.model) && config.evaluation.heatmaps > 0) {
    AttentionArgs attention;
    attention.run = paths.dir;
    attention.split = "test";
    attention.checkpoint = checkpoint;
    attention.out = paths.dir + "/heatmaps";
    attention.limit = config.evaluation.heatmaps;
    run_attention(attention);
    results.heatmaps = true;
  }
  return results;
}

namespace {

train::TrainOptions training_options(const TrainArgs& args) {
  train::TrainOptions options;
  options.resume = args.resume;
  options.overwrite = args.overwrite;
  options.config_file = args.config;
  return options;
}

// A trained model on rank 0: its run directory and the checkpoint its test decoded.
struct TrainedModel {
  std::string dir, checkpoint;
  std::optional<EvaluateResult> test;
};

// Trains the model of `config`, decodes its test split (unless `skip_test`) and prints the
// summary. Empty on ranks other than 0.
std::optional<TrainedModel> train_model(const config::Config& config,
                                        const train::TrainOptions& options, bool skip_test) {
  train::Trainer trainer(config, options);  // holds the run directory's lock to the end
  const auto summary = trainer.train();
  if (!trainer.main_rank()) return std::nullopt;  // rank 0 evaluates, reports and summarizes
  const auto& paths = trainer.paths();
  const std::string checkpoint = summary.averaged.empty() ? "best" : checkpoint::kTrainingAverage;
  // The training is saved: a SIGINT or SIGTERM during the test decoding stops it between two
  // batches and says how to finish, instead of ending the process without a word (one after it
  // waits for the few heatmaps and the report).
  const util::InterruptGuard interrupts;
  TestResults test;
  try {
    if (!skip_test && !config.data.test.empty()) test = run_test(config, paths, checkpoint);
  } catch (const util::Interrupted& e) {
    const std::string finish =
        options.resume_command.empty()
            ? fmt::format("s2s evaluate --run {} --checkpoint {} --out {}/test", paths.dir,
                          checkpoint, paths.dir)
            : options.resume_command;
    throw util::Interrupted(
        e.signal, fmt::format("{}: the training is complete and saved ({}, step {}); the test "
                              "results are not written; finish with: {}",
                              e.what(), paths.checkpoint(checkpoint), summary.steps, finish));
  }
  ReportArgs report;
  report.runs = {paths.dir};
  print_summary(summary, paths, test.scores, test.heatmaps, run_report(report));
  return TrainedModel{paths.dir, checkpoint, test.scores};
}

// Member k (from 1) of training.members: a whole run in run_dir/member<k>, seeded seed + k - 1.
config::Config member_config(const config::Config& config, int64_t k) {
  config::Config member = config;
  member.run_dir = run::RunPaths(config.run_dir).member(k);
  member.seed = config.seed + k - 1;
  member.training.members = 1;
  return member;
}

// The command that goes on with an interrupted ensemble: the one given, with --resume.
std::string resume_command(const TrainArgs& args) {
  std::string command = "s2s train -c " + args.config;
  for (const auto& o : args.overrides) command += " --set " + o;
  return command + " --resume";
}

// The options of member k's training. Members after the first take the first one's tokenizers
// and vocabularies, so that they decode together. --resume continues the members begun and
// starts those an interrupt left without a checkpoint; a resumed member must still decode with
// the first one.
train::TrainOptions member_options(const TrainArgs& args, const std::string& dir,
                                   const std::string& first) {
  auto options = training_options(args);
  options.resume_command = resume_command(args);
  const run::RunPaths paths(dir);
  if (args.resume && (!fs::exists(paths.checkpoints()) || fs::is_empty(paths.checkpoints()))) {
    util::logger("train")->info("--resume: {} has no checkpoint yet; its training starts now", dir);
    options.resume = false;
    options.overwrite = run::inspect_run_dir(dir) == run::RunDirKind::kRun;
  }
  if (!options.resume && dir != first) options.vocabularies_from = first;
  if (options.resume && dir != first) {
    const auto difference = checkpoint::ensemble_difference(first, dir);
    if (!difference.empty()) {
      throw UserError("--resume: " + dir + " no longer decodes with " + first + " (" + difference +
                      "); start the ensemble over with --overwrite");
    }
  }
  return options;
}

// What training.members refuses before any work: a run_dir holding one model's run, --resume
// with no first member, --resume with --overwrite, several processes.
void check_members(const config::Config& config, const TrainArgs& args) {
  const int64_t n = config.training.members;
  train::check_resume_flags(args.resume, args.overwrite);
  if (run::inspect_run_dir(config.run_dir) == run::RunDirKind::kRun) {
    throw UserError(
        fmt::format("run_dir {} holds the run of one model; training.members = {} "
                    "trains into {}/member1 ... member{}: choose another run_dir",
                    config.run_dir, n, config.run_dir, n));
  }
  const auto first = run::RunPaths(config.run_dir).member(1);
  if (args.resume && !fs::exists(first)) {
    throw UserError("--resume: no ensemble to resume in " + config.run_dir + " (no " + first + ")");
  }
  if (args.nproc > 1 || train::distributed_env()) {
    throw UserError(
        fmt::format("training.members = {} trains in one process; train without "
                    "--nproc (or train each member apart and decode them with "
                    "s2s evaluate --ensemble)",
                    n));
  }
}

// The test split decoded by the ensemble of `members`, with each member's scores beside it.
void test_ensemble(const std::vector<TrainedModel>& members, const EvaluateArgs& evaluate) {
  auto log = util::logger("train");
  EvaluateResult test;
  try {
    test = run_evaluate(evaluate);
  } catch (const util::Interrupted& e) {
    throw util::Interrupted(
        e.signal, fmt::format("{}: the members are trained and saved; decode their ensemble "
                              "with: s2s evaluate --ensemble {} --checkpoint {}",
                              e.what(), util::join(evaluate.ensemble, ","), evaluate.checkpoint));
  }
  for (std::size_t i = 0; i < members.size(); ++i) {
    if (members[i].test) {
      log->info("  member {} test ({}): BLEU {:.2f}, chrF {:.2f}", i + 1, members[i].test->decode,
                members[i].test->bleu, members[i].test->chrf);
    }
  }
  log->info("  ensemble of {} test ({}): BLEU {:.2f}, chrF {:.2f}; {}, {}", members.size(),
            test.decode, test.bleu, test.chrf, test.hyp_path, test.scores_path);
}

// training.members = N (checked by check_members): N models trained one after another, each
// tested alone, then their ensemble on the test split (beside the first member's evaluations).
void train_members(const config::Config& config, const TrainArgs& args) {
  const int64_t n = config.training.members;
  auto log = util::logger("train");
  // One guard for the whole: a signal between two members (during a member's test, report or
  // summary) stops before the next one instead of being lost when its training begins.
  const util::InterruptGuard interrupts;
  std::vector<TrainedModel> members;
  const std::string first = run::RunPaths(config.run_dir).member(1);
  for (int64_t k = 1; k <= n; ++k) {
    const auto member = member_config(config, k);
    log->info("member {} of {}: seed {}, run directory {}", k, n, member.seed, member.run_dir);
    auto trained = train_model(member, member_options(args, member.run_dir, first), args.skip_test);
    if (trained) members.push_back(std::move(*trained));  // one process (check_members)
    if (const int signal = util::InterruptGuard::pending(); signal != 0 && k < n) {
      throw util::Interrupted(signal,
                              fmt::format("{}: member {} of {} is trained and saved; go "
                                          "on with: {}",
                                          util::signal_name(signal), k, n, resume_command(args)));
    }
  }
  EvaluateArgs evaluate;
  for (const auto& m : members) evaluate.ensemble.push_back(m.dir);
  // The average where every member has one, else each member's best checkpoint.
  const bool averaged = std::all_of(members.begin(), members.end(), [](const TrainedModel& m) {
    return m.checkpoint == checkpoint::kTrainingAverage;
  });
  evaluate.checkpoint = averaged ? checkpoint::kTrainingAverage : "best";
  evaluate.split = "test";
  if (!args.skip_test && !config.data.test.empty()) test_ensemble(members, evaluate);
  log->info("  next: s2s translate --ensemble {} --checkpoint {}",
            util::join(evaluate.ensemble, ","), evaluate.checkpoint);
}

}  // namespace

void setup_train(CLI::App& app) {
  auto args = std::make_shared<TrainArgs>();
  auto* sub = app.add_subcommand("train", "Train a model from a JSON config");
  sub->add_option("-c,--config", args->config, "JSON config file")->required();
  sub->add_option("--set", args->overrides, "Override a config value: section.key=value")
      ->take_all();
  sub->add_flag("--resume", args->resume, "Continue from <run_dir>/checkpoints/last.pt");
  sub->add_flag("--overwrite", args->overwrite,
                "Start over in a run_dir that holds a run (removes only what s2s wrote there)");
  sub->add_flag("--skip-test", args->skip_test, "Do not evaluate on the test split afterwards");
  sub->add_option("--nproc", args->nproc,
                  "Train with N local processes (data parallel), as torchrun --nproc-per-node N")
      ->check(integer_in(1, 256))
      ->capture_default_str();
  sub->callback([args] { run_train(*args); });
}

void run_train(const TrainArgs& args) {
  const config::Config config = config::load_config(args.config, args.overrides);
  if (config.training.members > 1) check_members(config, args);
  if (args.nproc > 1) {
    if (train::distributed_env()) {
      throw UserError("--nproc: already one of " + std::string(std::getenv("WORLD_SIZE")) +
                      " ranks (RANK/WORLD_SIZE are set): start workers with --nproc or a "
                      "launcher, not both");
    }
    std::vector<std::string> worker = {"train", "-c", args.config};
    for (const auto& o : args.overrides) worker.insert(worker.end(), {"--set", o});
    if (args.resume) worker.push_back("--resume");
    if (args.overwrite) worker.push_back("--overwrite");
    if (args.skip_test) worker.push_back("--skip-test");
    const int code = launch_local_workers(args.nproc, worker);
    if (code != 0) throw ExitStatus(code);
    return;
  }
  device::check_blas_speed();  // warns when the system BLAS is the slow reference one
  if (config.training.members > 1) {
    train_members(config, args);
    return;
  }
  train_model(config, training_options(args), args.skip_test);
}

}  // namespace s2s::cli
