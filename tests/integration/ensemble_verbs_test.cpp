// Ensemble decoding through the verbs: --checkpoint a,b (checkpoints of one run) and --ensemble
// RUN,RUN (runs sharing vocabularies) for evaluate, translate and attention, on run directories
// built by hand with untrained models. What the files are named and hold, and the refusals.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "checkpoint/checkpoint.h"
#include "cli/attention.h"
#include "cli/evaluate.h"
#include "cli/translate.h"
#include "config/json_io.h"
#include "data/vocab.h"
#include "model/build_model.h"
#include "run/run_dir.h"
#include "support/temp_dir.h"
#include "util/error.h"
#include "util/fs.h"

namespace s2s::cli {
namespace {

namespace fs = std::filesystem;

class EnsembleVerbsTest : public test_support::TempDirTest {
 protected:
  void SetUp() override {
    write("test.de", "ein Haus\nzwei Hunde , drei Katzen\nein Hund\n");
    write("test.en", "a house\ntwo dogs , three cats\na dog\n");
  }

  // A run `name` with an untrained model from seed `seed` saved as best.pt and last.pt (with
  // `last_seed`'s weights when given), and a target vocabulary of `tgt_words`.
  std::string make_run(const std::string& name, int64_t seed, int64_t last_seed = -1,
                       std::vector<std::string> tgt_words = {"a", "house", "two", "dogs", ","}) {
    config::Config c;
    c.device = "cpu";
    c.data.test = (dir_ / "test").string();
    c.data.src_ext = "de";
    c.data.tgt_ext = "en";
    c.data.tokenizer = "whitespace";
    c.model.emb_size = 8;
    c.model.hidden_size = 8;
    c.evaluation.max_len_extra = 2;
    const run::RunPaths paths((dir_ / name).string());
    fs::create_directories(paths.checkpoints());
    config::save_config(c, paths.config());
    const auto src = data::Vocab::build({{"ein", "Haus", "zwei", "Hunde", ","}});
    const auto tgt = data::Vocab::build({tgt_words});
    src.save(paths.src_vocab());
    tgt.save(paths.tgt_vocab());
    const auto signature = run::model_signature(c.model, src.size(), tgt.size());
    for (const auto& [checkpoint, s] :
         {std::pair{"best", seed}, {"last", last_seed < 0 ? seed : last_seed}}) {
      torch::manual_seed(static_cast<uint64_t>(s));
      auto model = model::build_model(c.model, src.size(), tgt.size());
      checkpoint::save_checkpoint(paths.checkpoint(checkpoint), *model, nullptr, {}, signature);
    }
    return paths.dir;
  }

  // run_evaluate with --json, its printed scores.
  nlohmann::json evaluate(const EvaluateArgs& args, EvaluateResult* result = nullptr) {
    testing::internal::CaptureStdout();
    const auto r = run_evaluate(args);
    if (result != nullptr) *result = r;
    return nlohmann::json::parse(testing::internal::GetCapturedStdout());
  }
};

TEST_F(EnsembleVerbsTest, CheckpointsOfOneRunWithTheSameWeightsDecodeAsOne) {
  EvaluateArgs args;
  args.run = make_run("run", 3);  // best.pt and last.pt hold the same weights
  args.beam = 2;
  args.json = true;
  const auto alone = evaluate(args);
  args.checkpoint = "best,last";
  EvaluateResult r;
  const auto both = evaluate(args, &r);
  EXPECT_EQ(r.hyp_path, args.run + "/evaluations/test.best+last.beam2.hyp");
  EXPECT_EQ(util::read_file(r.hyp_path),
            util::read_file(args.run + "/evaluations/test.best.beam2.hyp"));
  EXPECT_EQ(both["checkpoint"], "best+last");
  EXPECT_EQ(both["ensemble"]["checkpoints"], nlohmann::json({"best", "last"}));
  EXPECT_DOUBLE_EQ(both["bleu"]["score"].get<double>(), alone["bleu"]["score"].get<double>());
  EXPECT_NEAR(both["loss"].get<double>(), alone["loss"].get<double>(), 1e-5);
}

TEST_F(EnsembleVerbsTest, RunsDecodeAsOneIntoTheFirstRun) {
  const auto a = make_run("a", 1), b = make_run("b", 2);
  EvaluateArgs args;
  args.ensemble = {a, b};
  args.json = true;
  EvaluateResult r;
  const auto scores = evaluate(args, &r);
  const auto name = fs::path(r.hyp_path).filename().string();
  EXPECT_EQ(fs::path(r.hyp_path).parent_path(), fs::path(a) / "evaluations");
  EXPECT_EQ(name.rfind("test.ensemble2-", 0), 0u) << name;
  EXPECT_NE(name.find(".best.greedy.hyp"), std::string::npos) << name;
  EXPECT_EQ(scores["ensemble"]["runs"], nlohmann::json({a, b}));
  // Another ensemble with the same first run gets another name: it replaces nothing.
  const auto c = make_run("c", 4);
  args.ensemble = {a, c};
  EvaluateResult other;
  evaluate(args, &other);
  EXPECT_NE(other.hyp_path, r.hyp_path);
  EXPECT_TRUE(fs::exists(r.hyp_path));
  // Two different models' mixture: its teacher-forced loss is below their mean.
  args.ensemble.clear();
  args.run = a;
  const double loss_a = evaluate(args)["loss"];
  args.run = b;
  const double loss_b = evaluate(args)["loss"];
  EXPECT_LT(scores["loss"].get<double>(), (loss_a + loss_b) / 2);
}

TEST_F(EnsembleVerbsTest, RefusesRunsWithOtherVocabularies) {
  const auto a = make_run("a", 1), b = make_run("b", 2, -1, {"a", "house", "two", "cats", ","});
  EvaluateArgs args;
  args.ensemble = {a, b};
  try {
    run_evaluate(args);
    FAIL() << "decoded runs with different vocabularies as one";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "cannot ensemble " + b + " with " + a + ": line 7 of " + a +
                                         "/tgt_vocab.txt is 'dogs', of " + b +
                                         "/tgt_vocab.txt 'cats'");
  }
  EXPECT_FALSE(fs::exists(fs::path(a) / "evaluations"));
}

TEST_F(EnsembleVerbsTest, RefusesARunOrCheckpointNamedTwice) {
  const auto a = make_run("a", 1);
  EvaluateArgs args;
  args.ensemble = {a, a + "/"};
  EXPECT_THROW(run_evaluate(args), UserError);
  args.ensemble.clear();
  args.run = a;
  args.checkpoint = "best,best";
  try {
    run_evaluate(args);
    FAIL() << "accepted a checkpoint twice";
  } catch (const UserError& e) {
    EXPECT_STREQ(e.what(), "--checkpoint names best twice");
  }
}

TEST_F(EnsembleVerbsTest, AttentionIsTheMeanWithTheMemberCount) {
  const auto a = make_run("a", 1), b = make_run("b", 2);
  AttentionArgs args;
  args.ensemble = {a, b};
  args.out = (dir_ / "heatmaps").string();
  args.limit = 1;
  run_attention(args);
  const auto index = util::read_file((dir_ / "heatmaps" / "index.jsonl").string());
  const auto first = nlohmann::json::parse(index.substr(0, index.find('\n')));
  EXPECT_EQ(first["members"], 2);
  args.ensemble.clear();
  args.run = a;
  args.out = (dir_ / "single").string();
  run_attention(args);
  const auto single = util::read_file((dir_ / "single" / "index.jsonl").string());
  EXPECT_EQ(nlohmann::json::parse(single.substr(0, single.find('\n')))["members"], 1);
}

TEST_F(EnsembleVerbsTest, TranslateWithAnEnsemble) {
  const auto a = make_run("a", 1, 5), b = make_run("b", 2);
  TranslateArgs args;
  args.ensemble = {a, b};
  args.checkpoint = "best,last";  // four members
  args.input = write("in.txt", "ein Haus\n\nzwei Hunde\n");
  args.output = (dir_ / "out.txt").string();
  run_translate(args);
  const auto out = util::read_file(args.output);
  EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 3);
}

}  // namespace
}  // namespace s2s::cli
