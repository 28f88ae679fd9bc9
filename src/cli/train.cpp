#include "cli/train.h"

#include <memory>

#include "cli/attention.h"
#include "cli/evaluate.h"
#include "config/json_io.h"
#include "train/device.h"
#include "train/trainer.h"
#include "util/logging.h"
#include "util/progress.h"

namespace s2s::cli {

void setup_train(CLI::App& app) {
  auto options = std::make_shared<TrainCommandOptions>();
  auto* sub = app.add_subcommand("train", "Train a model from a JSON config");
  sub->add_option("-c,--config", options->config, "JSON config file")->required();
  sub->add_option("--set", options->overrides, "Override a config value: section.key=value")
      ->take_all();
  sub->add_flag("--resume", options->resume, "Continue from <run_dir>/checkpoints/last.pt");
  sub->add_flag("--overwrite", options->overwrite, "Start over in a run_dir that holds a run");
  sub->add_flag("--skip-test", options->skip_test, "Do not evaluate on the test split afterwards");
  sub->callback([options] { run_train(*options); });
}

void run_train(const TrainCommandOptions& options) {
  const config::Config config = config::load_config(options.config, options.overrides);
  train::TrainOptions train_options;
  train_options.resume = options.resume;
  train_options.overwrite = options.overwrite;
  train::check_blas_speed();  // warns when the system BLAS is the slow reference one
  train::Trainer trainer(config, train_options);
  const auto summary = trainer.train();
  auto log = util::logger("train");
  log->info("done: {} steps in {}, {} parameters", summary.steps,
            util::format_duration(summary.seconds), summary.parameters);
  if (summary.best) {
    log->info("best validation: BLEU {:.2f}, loss {:.4f}, ppl {:.2f}", summary.best->bleu,
              summary.best->loss, summary.best->ppl);
  }
  if (options.skip_test || config.data.test.empty()) return;

  EvaluateOptions evaluate;
  evaluate.run = config.run_dir;
  evaluate.split = "test";
  run_evaluate(evaluate);
  if (config.model.attention.scorer == "none" || config.evaluation.heatmaps == 0) return;
  AttentionOptions heatmaps;
  heatmaps.run = config.run_dir;
  heatmaps.split = "test";
  heatmaps.out = config.run_dir + "/heatmaps";
  heatmaps.limit = config.evaluation.heatmaps;
  run_attention(heatmaps);
}

}  // namespace s2s::cli
