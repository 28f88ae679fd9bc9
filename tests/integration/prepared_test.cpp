// Training from a prepared corpus (data.prepared, run/prepare.h): a small model still learns,
// the corpus is prepared once and reused, a resumed run continues exactly over the mapped
// corpus, and a run is refused a corpus or vocabulary that changed under it.

#include <gtest/gtest.h>
#include <torch/torch.h>

#include <filesystem>
#include <fstream>

#include "checkpoint/load_run.h"
#include "config/json_io.h"
#include "run/manifest.h"
#include "run/prepare.h"
#include "support/reverse_task.h"
#include "support/same_weights.h"
#include "support/temp_dir.h"
#include "train/trainer.h"
#include "util/error.h"
#include "util/fs.h"

namespace s2s {
namespace {

namespace fs = std::filesystem;

class PreparedTrainTest : public test_support::TempDirTest {
 protected:
  void SetUp() override { config_.data.prepared = true; }
  config::Config config_ = test_support::reverse_task_config(dir_);
};

TEST_F(PreparedTrainTest, SmallModelLearnsToReverse) {
  config_.training.epochs = 8;
  config::validate(config_);
  const auto summary = train::Trainer(config_, {}).train();
  ASSERT_TRUE(summary.best.has_value());
  EXPECT_GT(summary.best->bleu, 90.0) << "validation BLEU of reversal";
  // The corpus lives beside the data, and the manifest names it.
  const auto dir = run::prepared_path(config_);
  EXPECT_EQ(fs::path(dir).parent_path(), fs::path(config_.data.train + ".prepared"));
  const auto manifest = run::read_manifest(config_.run_dir);
  EXPECT_EQ(manifest["provenance"]["prepared_corpus"]["pairs"].get<std::size_t>(), 3000u);
}

TEST_F(PreparedTrainTest, ResumedRunContinuesFromSavedStep) {
  config_.training.validate_every = 10;
  config_.training.epochs = 5;
  config_.training.max_steps = 130;  // past the first epoch's 94 batches
  config_.run_dir = (dir_ / "straight").string();
  train::Trainer(config_, {}).train();
  config_.run_dir = (dir_ / "resumed").string();
  config_.training.max_steps = 50;  // mid-epoch
  train::Trainer(config_, {}).train();
  config_.training.max_steps = 130;
  train::TrainOptions resume;
  resume.resume = true;
  train::Trainer(config_, resume).train();

  test_support::expect_same_weights(dir_ / "straight", dir_ / "resumed");
}

TEST_F(PreparedTrainTest, IsPreparedOnceAndReused) {
  const auto first = run::open_prepared(config_);
  const auto written = fs::last_write_time(first.corpus->dir() + "/src.bin");
  const auto again = run::open_prepared(config_);
  EXPECT_EQ(again.corpus->content_hash(), first.corpus->content_hash());
  EXPECT_EQ(fs::last_write_time(again.corpus->dir() + "/src.bin"), written);
  EXPECT_EQ(again.corpus->size(), 3000u);
  // Another length limit is another prepared corpus, beside the first.
  config_.data.max_len = 5;
  const auto other = run::open_prepared(config_);
  EXPECT_NE(other.corpus->dir(), first.corpus->dir());
  EXPECT_LT(other.corpus->size(), 3000u);
}

TEST_F(PreparedTrainTest, RefusesAChangedCorpus) {
  const auto prepared = run::open_prepared(config_);
  std::ofstream(config_.data.train + ".src", std::ios::app) << "a b c\n";
  std::ofstream(config_.data.train + ".tgt", std::ios::app) << "c b a\n";
  try {
    run::open_prepared(config_);
    FAIL() << "a changed source file was not refused";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("has changed since"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("--overwrite"), std::string::npos) << e.what();
  }
  // Prepared again on request, it holds the new pair.
  EXPECT_EQ(run::open_prepared(config_, /*overwrite=*/true).corpus->size(), 3001u);
}

TEST_F(PreparedTrainTest, ResumeRefusesAnotherCorpus) {
  config_.training.max_steps = 10;
  train::Trainer(config_, {}).train();
  // The text changes, with a word the vocabulary did not have, and is prepared again.
  std::ofstream(config_.data.train + ".src", std::ios::app) << "zz\n";
  std::ofstream(config_.data.train + ".tgt", std::ios::app) << "zz\n";
  run::open_prepared(config_, /*overwrite=*/true);
  config_.training.max_steps = 20;
  train::TrainOptions resume;
  resume.resume = true;
  try {
    train::Trainer(config_, resume).train();
    FAIL() << "resumed over another corpus";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("differs from the vocabulary of the prepared corpus"),
              std::string::npos)
        << e.what();
  }
}

TEST_F(PreparedTrainTest, SentencePieceIsTrainedOnceAndKeptWithTheCorpus) {
  for (const char* ext : {"en", "fr"}) {
    std::ifstream in(std::string(S2S_SOURCE_DIR) + "/data/en-fr/train." + ext);
    std::ofstream train(dir_ / (std::string("bundled.") + ext));
    std::ofstream valid(dir_ / (std::string("bundled_valid.") + ext));
    std::string line;
    for (int i = 0; i < 400 && std::getline(in, line); ++i)
      (i < 360 ? train : valid) << line << "\n";
  }
  config_.data.train = (dir_ / "bundled").string();
  config_.data.valid = (dir_ / "bundled_valid").string();
  config_.data.test.clear();
  config_.data.src_ext = "en";
  config_.data.tgt_ext = "fr";
  config_.data.tokenizer = "sentencepiece";
  config_.data.sentencepiece.vocab_size = 200;
  config_.data.sentencepiece.input_sentence_size = 200;  // a sample of 200 of the 360 pairs
  const auto first = run::open_prepared(config_);
  const auto model = util::read_file(first.corpus->dir() + "/sentencepiece.model");
  // The vocabularies are the joint model's pieces.
  EXPECT_EQ(first.src_vocab.tokens(), first.tgt_vocab.tokens());
  EXPECT_GE(first.src_vocab.size(), 200);
  config_.seed = 99;  // another seed shares the corpus and its model
  EXPECT_EQ(run::open_prepared(config_).corpus->dir(), first.corpus->dir());
  config_.training.max_steps = 2;
  config_.training.validate_every = 2;
  train::Trainer(config_, {}).train();
  EXPECT_EQ(util::read_file(config_.run_dir + "/sentencepiece.model"), model);
  EXPECT_EQ(util::read_file(config_.run_dir + "/src_vocab.txt"),
            util::read_file(first.corpus->dir() + "/src_vocab.txt"));
}

}  // namespace
}  // namespace s2s
