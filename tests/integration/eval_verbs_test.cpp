// The evaluate, translate and attention verbs on a run directory built by hand: an untrained
// model (weights saved as best.pt), its vocabularies and config, and a tiny test split with gold
// alignments. Checks the files each verb writes and the errors a user can hit.

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "checkpoint/average.h"
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

namespace s2s::cli {
namespace {

namespace fs = std::filesystem;

std::string read(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

std::size_t count_lines(const std::string& text) {
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

class EvalVerbsTest : public test_support::TempDirTest {
 protected:
  void SetUp() override {
    torch::manual_seed(5);
    fs::create_directories(dir_ / "run" / "checkpoints");
    write("test.de", "ein Haus\nzwei Hunde , drei Katzen\nein Hund\n");
    write("test.en", "a house\ntwo dogs , three cats\na dog\n");
    write("test.align", "0-0 1-1\n0-0 1-1 2-2 3-3 4-4\n0-0 1-1\n");
  }

  // A run whose model has `scorer` attention, untrained.
  std::string make_run(const std::string& scorer, bool alignments = true) {
    config::Config c;
    c.device = "cpu";
    c.data.test = (dir_ / "test").string();
    c.data.src_ext = "de";
    c.data.tgt_ext = "en";
    if (alignments) c.data.test_alignments = (dir_ / "test.align").string();
    c.data.tokenizer = "whitespace";
    c.model.emb_size = 8;
    c.model.hidden_size = 8;
    c.model.attention.scorer = scorer;
    c.evaluation.max_len_extra = 2;
    const run::RunPaths paths((dir_ / "run").string());
    config::save_config(c, paths.config());
    const auto src = data::Vocab::build({{"ein", "Haus", "zwei", "Hunde", ","}});
    const auto tgt = data::Vocab::build({{"a", "house", "two", "dogs", ","}});
    src.save(paths.src_vocab());
    tgt.save(paths.tgt_vocab());
    auto model = model::build_model(c.model, src.size(), tgt.size());
    checkpoint::save_checkpoint(paths.checkpoint("best"), *model, nullptr, {},
                                run::model_signature(c.model, src.size(), tgt.size()));
    return paths.dir;
  }
};

TEST_F(EvalVerbsTest, EvaluateWritesHypothesesAndScores) {
  EvaluateArgs options;
  options.run = make_run("additive");
  options.beam = 2;
  options.json = true;
  testing::internal::CaptureStdout();
  run_evaluate(options);
  const auto printed = nlohmann::json::parse(testing::internal::GetCapturedStdout());
  // Named after what produced it, never the training-time test.hyp.
  EXPECT_FALSE(fs::exists(dir_ / "run" / "test.hyp"));
  const auto prefix = dir_ / "run" / "evaluations" / "test.best.beam2";
  EXPECT_EQ(count_lines(read(prefix.string() + ".hyp")), 3u);
  const auto saved = nlohmann::json::parse(read(prefix.string() + ".scores.json"));
  EXPECT_EQ(printed, saved);
  EXPECT_EQ(saved["sentences"], 3);
  EXPECT_EQ(saved["decode"], "beam 2");
  EXPECT_EQ(saved["tokens"], 2 + 5 + 2 + 3);  // target tokens plus </s> each
  for (const char* key : {"bleu", "chrf", "loss", "ppl", "aer", "attention_entropy"}) {
    EXPECT_TRUE(saved.contains(key)) << key;
  }
  EXPECT_NE(saved["bleu"]["signature"].get<std::string>().find("tok:13a"), std::string::npos);
  EXPECT_GE(saved["aer"].get<double>(), 0.0);
  EXPECT_LE(saved["aer"].get<double>(), 1.0);
}

TEST_F(EvalVerbsTest, AnotherLengthPenaltyIsNamedAndReplacesNothing) {
  EvaluateArgs options;
  options.run = make_run("additive");
  options.beam = 2;
  options.json = true;
  const auto evaluations = dir_ / "run" / "evaluations";
  testing::internal::CaptureStdout();
  run_evaluate(options);  // the run's own penalty (evaluation.length_penalty 0.6)
  options.length_penalty = 1.5;
  const auto r = run_evaluate(options);
  testing::internal::GetCapturedStdout();
  EXPECT_EQ(r.scores_path, (evaluations / "test.best.beam2.lp1.5.scores.json").string());
  const auto run_own = nlohmann::json::parse(read((evaluations / "test.best.beam2.scores.json")));
  const auto other = nlohmann::json::parse(read(r.scores_path));
  EXPECT_DOUBLE_EQ(run_own["length_penalty"].get<double>(), 0.6);
  EXPECT_DOUBLE_EQ(other["length_penalty"].get<double>(), 1.5);
  // The run's own value given explicitly is the run's evaluation: the plain name.
  options.length_penalty = 0.6;
  testing::internal::CaptureStdout();
  EXPECT_EQ(run_evaluate(options).scores_path,
            (evaluations / "test.best.beam2.scores.json").string());
  testing::internal::GetCapturedStdout();
}

TEST_F(EvalVerbsTest, EvaluateTextWithoutAttention) {
  EvaluateArgs options;
  options.run = make_run("none");
  testing::internal::CaptureStdout();
  run_evaluate(options);
  const auto text = testing::internal::GetCapturedStdout();
  EXPECT_EQ(text.rfind("BLEU = ", 0), 0u) << text;
  EXPECT_NE(text.find("chrF2 = "), std::string::npos);
  EXPECT_NE(text.find("ppl = "), std::string::npos);
  EXPECT_EQ(text.find("AER"), std::string::npos);  // no attention, nothing to align
}

TEST_F(EvalVerbsTest, UnconfiguredSplitNamesTheKey) {
  EvaluateArgs options;
  options.run = make_run("dot");
  options.split = "valid";
  try {
    run_evaluate(options);
    FAIL() << "evaluated a split that is not configured";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("data.valid"), std::string::npos) << e.what();
  }
}

TEST_F(EvalVerbsTest, BadAlignmentFileNamesLine) {
  write("test.align", "0-0\n0-0 9-9\n0-0\n");
  EvaluateArgs options;
  options.run = make_run("dot");
  try {
    run_evaluate(options);
    FAIL() << "accepted a link outside the sentence";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("test.align:2"), std::string::npos) << e.what();
  }
}

TEST_F(EvalVerbsTest, TranslateKeepsLinesAndOrder) {
  TranslateArgs options;
  options.run = make_run("bilinear");
  // translate reads file descriptor 0 as lines arrive: give it a file there.
  const auto input = write("input.txt", "ein Haus\n\nzwei Hunde\r\nunbekannt\n");
  const int saved_stdin = ::dup(STDIN_FILENO);
  const int fd = ::open(input.c_str(), O_RDONLY);
  ::dup2(fd, STDIN_FILENO);
  ::close(fd);
  testing::internal::CaptureStdout();
  run_translate(options);
  const auto out = testing::internal::GetCapturedStdout();
  ::dup2(saved_stdin, STDIN_FILENO);
  ::close(saved_stdin);
  EXPECT_EQ(count_lines(out), 4u);
  std::istringstream lines(out);
  std::string line;
  std::getline(lines, line);
  std::getline(lines, line);
  EXPECT_EQ(line, "");  // the empty input line
}

TEST_F(EvalVerbsTest, AttentionWritesHeatmapsAndIndex) {
  AttentionArgs options;
  options.run = make_run("additive");
  options.out = (dir_ / "heatmaps").string();
  options.limit = 2;
  run_attention(options);
  EXPECT_TRUE(fs::exists(dir_ / "heatmaps" / "0001_head0.csv"));
  EXPECT_TRUE(fs::exists(dir_ / "heatmaps" / "0002_head0.csv"));
  EXPECT_FALSE(fs::exists(dir_ / "heatmaps" / "0003_head0.csv"));
  const auto index = read(dir_ / "heatmaps" / "index.jsonl");
  EXPECT_EQ(count_lines(index), 2u);
  const auto first = nlohmann::json::parse(index.substr(0, index.find('\n')));
  EXPECT_EQ(first["source"], "ein Haus");
  EXPECT_EQ(first["reference"], "a house");
  EXPECT_EQ(first["scorer"], "additive");
  EXPECT_EQ(first["query"], "previous decoder state s_{t-1}");
  const auto csv = read(dir_ / "heatmaps" / "0001_head0.csv");
  EXPECT_EQ(csv.rfind("target\\source,ein,Haus,</s>\n", 0), 0u) << csv;
}

TEST_F(EvalVerbsTest, AttentionRefusesModelWithoutAttention) {
  AttentionArgs options;
  options.run = make_run("none");
  options.out = (dir_ / "heatmaps").string();
  try {
    run_attention(options);
    FAIL() << "drew heatmaps of a model without attention";
  } catch (const UserError& e) {
    EXPECT_STREQ(e.what(), "this model has no attention (model.attention.scorer = none)");
  }
}

// Checkpoints of a run's model with weights of our choosing, for the averaging tests.
class RunCheckpoints {
 public:
  explicit RunCheckpoints(const std::string& run_dir)
      : paths_(run_dir),
        model_(config::load_config(paths_.config()).model),
        src_(data::Vocab::load(paths_.src_vocab()).size()),
        tgt_(data::Vocab::load(paths_.tgt_vocab()).size()),
        signature_(run::model_signature(model_, src_, tgt_)) {}

  // Writes checkpoints/step_<step>.pt with weights drawn from seed `step`; returns them.
  std::vector<torch::Tensor> save_step(int64_t step) const {
    torch::manual_seed(static_cast<uint64_t>(step));
    auto model = model::build_model(model_, src_, tgt_);
    checkpoint::TrainingState state;
    state.step = step;
    checkpoint::save_checkpoint(paths_.checkpoint("step_" + std::to_string(step)), *model, nullptr,
                                state, signature_);
    return model->parameters();
  }

  // The weights of checkpoints/<name>.pt; `step` receives its training state's step.
  std::vector<torch::Tensor> load(const std::string& name, int64_t* step = nullptr) const {
    auto model = model::build_model(model_, src_, tgt_);
    const auto state =
        checkpoint::load_checkpoint(paths_.checkpoint(name), *model, nullptr, signature_);
    if (step != nullptr) *step = state.step;
    return model->parameters();
  }

 private:
  run::RunPaths paths_;
  config::ModelConfig model_;
  int64_t src_, tgt_;
  std::string signature_;
};

// Three checkpoints of one run with different weights (seeds 2, 10, 6): their average holds
// the element-wise mean of every weight, and is decoded like any checkpoint.
TEST_F(EvalVerbsTest, AverageIsTheMeanOfTheCheckpoints) {
  const auto run_dir = make_run("additive");
  const RunCheckpoints checkpoints(run_dir);
  std::vector<std::vector<torch::Tensor>> weights;
  for (const int64_t step : {2, 10, 6}) weights.push_back(checkpoints.save_step(step));
  // Numeric order, not the order of names: step_10 is the newest.
  EXPECT_EQ(checkpoint::step_checkpoints(run_dir),
            (std::vector<std::string>{"step_2", "step_6", "step_10"}));
  const auto result =
      checkpoint::average_checkpoints(run_dir, {"step_2", "step_6", "step_10"}, "average", false);
  EXPECT_EQ(result.step, 10);
  const auto params = checkpoints.load("average");
  ASSERT_EQ(params.size(), weights[0].size());
  for (std::size_t i = 0; i < params.size(); ++i) {
    const auto mean = (weights[0][i] + weights[1][i] + weights[2][i]) / 3;
    EXPECT_TRUE(torch::allclose(params[i], mean, 1e-6, 1e-7)) << i;
  }
  EvaluateArgs args;
  args.run = run_dir;
  args.checkpoint = "average";
  EXPECT_NO_THROW(run_evaluate(args));
  EXPECT_TRUE(fs::exists(dir_ / "run" / "evaluations" / "test.average.greedy.hyp"));
}

TEST_F(EvalVerbsTest, AverageRefusesBeforeWritingAnything) {
  const auto run_dir = make_run("dot");
  const run::RunPaths paths(run_dir);
  fs::copy_file(paths.checkpoint("best"), paths.checkpoint("step_1"));
  fs::copy_file(paths.checkpoint("best"), paths.checkpoint("step_2"));
  const std::vector<std::string> both = {"step_1", "step_2"};
  EXPECT_THROW(checkpoint::average_checkpoints(run_dir, {"step_1"}, "average", false), UserError);
  for (const std::string name : {"best", "last", "step_3", "average_last", "a/b", ""}) {
    EXPECT_THROW(checkpoint::average_checkpoints(run_dir, both, name, false), UserError) << name;
  }
  try {
    checkpoint::average_checkpoints(run_dir, {"step_1", "step_9"}, "average", false);
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("step_9.pt: checkpoint not found"), std::string::npos)
        << e.what();
  }
  EXPECT_FALSE(fs::exists(paths.checkpoint("average")));
  checkpoint::average_checkpoints(run_dir, both, "average", false);
  const auto before = fs::last_write_time(paths.checkpoint("average"));
  EXPECT_THROW(checkpoint::average_checkpoints(run_dir, both, "average", false), InputError);
  EXPECT_EQ(fs::last_write_time(paths.checkpoint("average")), before);
  EXPECT_NO_THROW(checkpoint::average_checkpoints(run_dir, both, "average", /*overwrite=*/true));
}

// training.average_last: the newest k step checkpoints, or all of them when fewer, into
// average_last.pt, which a later training replaces; with fewer than 2 nothing is written.
TEST_F(EvalVerbsTest, AverageLastStepsTakesTheNewest) {
  const auto run_dir = make_run("additive");
  const RunCheckpoints checkpoints(run_dir);
  checkpoints.save_step(3);
  EXPECT_TRUE(checkpoint::average_last_steps(run_dir, 2).empty());
  EXPECT_FALSE(fs::exists(run::RunPaths(run_dir).checkpoint(checkpoint::kTrainingAverage)));
  const auto step_20 = checkpoints.save_step(20), step_100 = checkpoints.save_step(100);
  EXPECT_EQ(checkpoint::average_last_steps(run_dir, 2),
            (std::vector<std::string>{"step_20", "step_100"}));
  int64_t step = 0;
  const auto params = checkpoints.load(checkpoint::kTrainingAverage, &step);
  EXPECT_EQ(step, 100);
  for (std::size_t i = 0; i < params.size(); ++i) {
    EXPECT_TRUE(torch::allclose(params[i], (step_20[i] + step_100[i]) / 2, 1e-6, 1e-7)) << i;
  }
  EXPECT_EQ(checkpoint::average_last_steps(run_dir, 5),
            (std::vector<std::string>{"step_3", "step_20", "step_100"}));
}

}  // namespace
}  // namespace s2s::cli
