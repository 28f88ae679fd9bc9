// End-to-end training on a generated task: a small attention model must really learn it,
// and a resumed run must continue exactly where it stopped.

#include <gtest/gtest.h>
#include <torch/torch.h>

#include <filesystem>
#include <fstream>
#include <random>

#include "checkpoint/checkpoint.h"
#include "checkpoint/load_run.h"
#include "config/json_io.h"
#include "eval/translate.h"
#include "support/reverse_task.h"
#include "support/same_weights.h"
#include "support/temp_dir.h"
#include "train/trainer.h"
#include "util/error.h"

namespace s2s {
namespace {

namespace fs = std::filesystem;

class TrainTest : public test_support::TempDirTest {
 protected:
  config::Config config_ = test_support::reverse_task_config(dir_);
};

TEST_F(TrainTest, SmallModelLearnsToReverse) {
  config_.training.epochs = 8;
  config::validate(config_);
  train::Trainer trainer(config_, {});
  const auto summary = trainer.train();
  ASSERT_TRUE(summary.best.has_value());

  const auto run = checkpoint::load_run(config_.run_dir);
  std::vector<std::vector<std::string>> sources, references;
  const auto tokenize_file = [&](const std::string& path) {
    std::ifstream in(path);
    std::vector<std::vector<std::string>> out;
    for (std::string line; std::getline(in, line);)
      out.push_back(run.src_tokenizer->tokenize(line));
    return out;
  };
  sources = tokenize_file(config_.data.test + ".src");
  references = tokenize_file(config_.data.test + ".tgt");
  const eval::Translator translator(run);
  const auto translations =
      translator.translate_tokens(sources, eval::translate_options(run.config.evaluation));
  int exact = 0;
  for (std::size_t i = 0; i < sources.size(); ++i) exact += translations[i].tokens == references[i];
  const double accuracy = static_cast<double>(exact) / static_cast<double>(sources.size());
  EXPECT_GE(accuracy, 0.95) << "exact match on the test split";
}

TEST_F(TrainTest, ResumedRunContinuesFromSavedStep) {
  config_.training.validate_every = 10;
  config_.training.epochs = 5;
  // Straight through: 40 steps.
  config_.training.max_steps = 40;
  config_.run_dir = (dir_ / "straight").string();
  train::Trainer(config_, {}).train();
  // Interrupted at 20, resumed to 40.
  config_.run_dir = (dir_ / "resumed").string();
  config_.training.max_steps = 20;
  train::Trainer(config_, {}).train();
  config_.training.max_steps = 40;
  train::TrainOptions resume;
  resume.resume = true;
  train::Trainer(config_, resume).train();

  test_support::expect_same_weights(dir_ / "straight", dir_ / "resumed");
  // metrics.jsonl of the resumed run: validations at 10, 20 (first run), 30, 40 (resumed).
  std::ifstream metrics(dir_ / "resumed" / "metrics.jsonl");
  std::vector<int64_t> steps;
  for (std::string line; std::getline(metrics, line);) {
    const auto event = nlohmann::json::parse(line);
    if (event["event"] == "valid") steps.push_back(event["step"].get<int64_t>());
  }
  EXPECT_EQ(steps, (std::vector<int64_t>{10, 20, 30, 40}));
}

TEST_F(TrainTest, SameConfigAndSeedGiveIdenticalLosses) {
  config_.training.max_steps = 30;
  config_.training.validate_every = 15;
  config_.training.log_every = 5;
  config_.training.teacher_forcing = 0.5;  // exercises the random coin too
  config_.model.encoder.dropout = 0.3;     // and dropout masks
  const auto losses = [&](const std::string& name) {
    config_.run_dir = (dir_ / name).string();
    train::Trainer(config_, {}).train();
    std::vector<double> out;
    std::ifstream metrics(dir_ / name / "metrics.jsonl");
    for (std::string line; std::getline(metrics, line);) {
      out.push_back(nlohmann::json::parse(line)["loss"].get<double>());
    }
    return out;
  };
  const auto first = losses("first"), second = losses("second");
  ASSERT_EQ(first.size(), 9u);  // the first step, 6 training logs, 2 validations
  EXPECT_EQ(first, second);
}

TEST_F(TrainTest, RefusesToOverwriteAnExistingRun) {
  config_.training.max_steps = 2;
  config_.training.validate_every = 2;
  train::Trainer(config_, {}).train();
  EXPECT_THROW(train::Trainer(config_, {}), UserError);
  train::TrainOptions overwrite;
  overwrite.overwrite = true;
  EXPECT_NO_THROW(train::Trainer(config_, overwrite));
}

}  // namespace
}  // namespace s2s
