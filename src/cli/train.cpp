#include "cli/train.h"

#include <memory>

#include "cli/attention.h"
#include "cli/evaluate.h"
#include "config/json_io.h"
#include "run/device.h"
#include "train/trainer.h"
#include "util/logging.h"
#include "util/progress.h"

namespace s2s::cli {

void setup_train(CLI::App& app) {
  auto args = std::make_shared<TrainArgs>();
  auto* sub = app.add_subcommand("train", "Train a model from a JSON config");
  sub->add_option("-c,--config", args->config, "JSON config file")->required();
  sub->add_option("--set", args->overrides, "Override a config value: section.key=value")
      ->take_all();
  sub->add_flag("--resume", args->resume, "Continue from <run_dir>/checkpoints/last.pt");
  sub->add_flag("--overwrite", args->overwrite, "Start over in a run_dir that holds a run");
  sub->add_flag("--skip-test", args->skip_test, "Do not evaluate on the test split afterwards");
  sub->callback([args] { run_train(*args); });
}

void run_train(const TrainArgs& args) {
  const config::Config config = config::load_config(args.config, args.overrides);
  train::TrainOptions train_options;
  train_options.resume = args.resume;
  train_options.overwrite = args.overwrite;
  run::check_blas_speed();  // warns when the system BLAS is the slow reference one
  train::Trainer trainer(config, train_options);
  const auto summary = trainer.train();
  auto log = util::logger("train");
  log->info("done: {} steps in {}, {} parameters", summary.steps,
            util::format_duration(summary.seconds), summary.parameters);
  if (summary.best) {
    log->info("best validation: BLEU {:.2f}, loss {:.4f}, ppl {:.2f}", summary.best->bleu,
              summary.best->loss, summary.best->ppl);
  }
  if (args.skip_test || config.data.test.empty()) return;

  EvaluateArgs evaluate;
  evaluate.run = config.run_dir;
  evaluate.split = "test";
  run_evaluate(evaluate);
  if (!config::uses_attention(config.model) || config.evaluation.heatmaps == 0) return;
  AttentionArgs heatmaps;
  heatmaps.run = config.run_dir;
  heatmaps.split = "test";
  heatmaps.out = config.run_dir + "/heatmaps";
  heatmaps.limit = config.evaluation.heatmaps;
  run_attention(heatmaps);
}

}  // namespace s2s::cli
