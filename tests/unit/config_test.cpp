#include <gtest/gtest.h>

#include "config/compare.h"
#include "config/json_io.h"
#include "support/temp_dir.h"
#include "util/error.h"

namespace s2s::config {
namespace {

using nlohmann::json;

// Runs `fn`, expects a ConfigError, and returns its message.
template <class F>
std::string config_error(F fn) {
  try {
    fn();
  } catch (const ConfigError& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected a ConfigError";
  return "";
}

TEST(ConfigTest, DefaultsAreValid) { EXPECT_NO_THROW(validate(Config{})); }

TEST(ConfigTest, ReadsNestedValues) {
  const json j = json::parse(R"({"seed": 7, "model": {"hidden_size": 32,
      "attention": {"scorer": "dot", "heads": 2}}, "training": {"learning_rate": 0.5}})");
  const Config c = config_from_json(j);
  EXPECT_EQ(c.seed, 7);
  EXPECT_EQ(c.model.hidden_size, 32);
  EXPECT_EQ(c.model.attention.scorer, "dot");
  EXPECT_EQ(c.model.attention.heads, 2);
  EXPECT_DOUBLE_EQ(c.training.learning_rate, 0.5);
  EXPECT_EQ(c.model.emb_size, Config{}.model.emb_size);  // untouched keys keep defaults
}

TEST(ConfigTest, UnknownKeyNamesFullPathAndClosestKey) {
  const std::string msg = config_error([] {
    config_from_json(json::parse(R"({"model": {"attention": {"scorr": "dot"}}})"), "x.json");
  });
  EXPECT_NE(msg.find("x.json"), std::string::npos) << msg;
  EXPECT_NE(msg.find("unknown key 'model.attention.scorr'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("did you mean 'model.attention.scorer'"), std::string::npos) << msg;
}

TEST(ConfigTest, UnknownSectionIsRejected) {
  const std::string msg = config_error([] { config_from_json(json::parse(R"({"trainig": {}})")); });
  EXPECT_NE(msg.find("unknown key 'trainig'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("did you mean 'training'"), std::string::npos) << msg;
}

TEST(ConfigTest, WrongTypesNamePathExpectedAndFound) {
  std::string msg =
      config_error([] { config_from_json(json::parse(R"({"training": {"epochs": "ten"}})")); });
  EXPECT_NE(msg.find("training.epochs: expected an integer, found string \"ten\""),
            std::string::npos)
      << msg;
  msg = config_error([] { config_from_json(json::parse(R"({"training": {"epochs": 2.5}})")); });
  EXPECT_NE(msg.find("found number 2.5"), std::string::npos) << msg;
  msg = config_error([] { config_from_json(json::parse(R"({"data": {"lowercase": 1}})")); });
  EXPECT_NE(msg.find("data.lowercase: expected true or false, found integer 1"), std::string::npos)
      << msg;
  msg = config_error([] { config_from_json(json::parse(R"({"model": 3})")); });
  EXPECT_NE(msg.find("model: expected an object"), std::string::npos) << msg;
  msg = config_error([] { config_from_json(json::parse("[1, 2]")); });
  EXPECT_NE(msg.find("top level"), std::string::npos) << msg;
}

TEST(ConfigTest, IntegerAcceptedWhereNumberExpected) {
  const Config c = config_from_json(json::parse(R"({"training": {"learning_rate": 1}})"));
  EXPECT_DOUBLE_EQ(c.training.learning_rate, 1.0);
}

TEST(ConfigTest, OutOfRangeValuesNameTheKey) {
  Config c;
  c.model.hidden_size = 0;
  EXPECT_NE(config_error([&] { validate(c); }).find("model.hidden_size must be > 0, got 0"),
            std::string::npos);
  c = Config{};
  c.training.teacher_forcing = 1.5;
  EXPECT_NE(config_error([&] { validate(c); }).find("training.teacher_forcing"), std::string::npos);
  c = Config{};
  c.model.attention.heads = 3;  // 256 % 3 != 0
  EXPECT_NE(config_error([&] { validate(c); }).find("model.attention.heads must divide"),
            std::string::npos);
  c = Config{};
  c.evaluation.n_best = 2;  // beam 1
  EXPECT_NE(config_error([&] { validate(c); }).find("evaluation.n_best"), std::string::npos);
}

TEST(ConfigTest, InverseSqrtNeedsAWarmUp) {
  Config c;
  c.training.lr_schedule = "inverse_sqrt";
  EXPECT_NE(config_error([&] {
              validate(c);
            }).find("training.warmup_steps must be >= 1 with lr_schedule \"inverse_sqrt\", got 0"),
            std::string::npos);
  c.training.warmup_steps = 4000;
  EXPECT_NO_THROW(validate(c));
  c.training.warmup_steps = -1;
  EXPECT_NE(config_error([&] { validate(c); }).find("training.warmup_steps must be >= 0"),
            std::string::npos);
}

TEST(ConfigTest, UnknownChoiceListsValidValues) {
  Config c;
  c.model.attention.scorer = "addtive";
  const std::string msg = config_error([&] { validate(c); });
  EXPECT_NE(msg.find("model.attention.scorer: unknown value 'addtive'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("additive, dot, scaled_dot, bilinear, none"), std::string::npos) << msg;
  EXPECT_NE(msg.find("did you mean 'additive'"), std::string::npos) << msg;
}

TEST(ConfigTest, ReinforceRules) {
  Config c;
  c.training.reinforce.p_expect = 1.5;
  EXPECT_NE(
      config_error([&] { validate(c); }).find("training.reinforce.p_expect must be in [0, 1]"),
      std::string::npos);
  c = Config{};
  c.training.reinforce.weight = -1;
  EXPECT_NE(config_error([&] { validate(c); }).find("training.reinforce.weight"),
            std::string::npos);
  c = Config{};
  c.training.reinforce.entropy_weight = -0.1;
  EXPECT_NE(config_error([&] { validate(c); }).find("training.reinforce.entropy_weight"),
            std::string::npos);
  c = Config{};
  c.training.reinforce.baseline = "leave_one_out";
  c.training.reinforce.samples = 1;
  EXPECT_NE(config_error([&] { validate(c); }).find("must be >= 2 for the leave_one_out baseline"),
            std::string::npos);
  c = Config{};
  c.training.reinforce.baseline = "average";
  const std::string msg = config_error([&] { validate(c); });
  EXPECT_NE(msg.find("none, moving_average, learned, leave_one_out"), std::string::npos) << msg;
  c = Config{};
  c.model.attention.hard = "gumbel";
  EXPECT_NE(config_error([&] { validate(c); }).find("(valid: none, sample, argmax)"),
            std::string::npos);
  c = Config{};
  c.model.attention.hard = "sample";
  c.model.attention.scorer = "none";
  EXPECT_NE(config_error([&] { validate(c); }).find("needs an attention scorer"),
            std::string::npos);
}

TEST(ConfigTest, DeviceNames) {
  Config c;
  for (const char* ok : {"auto", "cpu", "cuda", "cuda:1"}) {
    c.device = ok;
    EXPECT_NO_THROW(validate(c)) << ok;
  }
  for (const char* bad : {"gpu", "cuda:", "cuda:x"}) {
    c.device = bad;
    EXPECT_THROW(validate(c), ConfigError) << bad;
  }
}

TEST(ConfigTest, OverridesUseTheSameChecks) {
  Config c;
  apply_override(c, "model.attention.scorer=bilinear");
  apply_override(c, "model.attention.rank=8");
  apply_override(c, "training.learning_rate=0.01");
  apply_override(c, "data.lowercase=true");
  apply_override(c, "data.train=123");  // a string field keeps digits as text
  EXPECT_EQ(c.model.attention.scorer, "bilinear");
  EXPECT_EQ(c.model.attention.rank, 8);
  EXPECT_DOUBLE_EQ(c.training.learning_rate, 0.01);
  EXPECT_TRUE(c.data.lowercase);
  EXPECT_EQ(c.data.train, "123");
  EXPECT_NE(config_error([&] {
              apply_override(c, "model.hiden_size=3");
            }).find("did you mean 'model.hidden_size'"),
            std::string::npos);
  EXPECT_NE(config_error([&] {
              apply_override(c, "training.epochs=abc");
            }).find("training.epochs: expected an integer, found 'abc'"),
            std::string::npos);
  EXPECT_THROW(apply_override(c, "data.lowercase=yes"), ConfigError);
  EXPECT_THROW(apply_override(c, "training.learning_rate=nan"), ConfigError);
  EXPECT_THROW(apply_override(c, "novalue"), ConfigError);
  EXPECT_THROW(apply_override(c, "model=3"), ConfigError);  // a section is not a value
}

TEST(ConfigTest, JsonRoundTrip) {
  Config c;
  c.name = "round";
  c.model.attention.scorer = "scaled_dot";
  c.training.label_smoothing = 0.1;
  const Config back = config_from_json(config_to_json(c));
  EXPECT_EQ(config_to_json(back), config_to_json(c));
  EXPECT_EQ(back.model.attention.scorer, "scaled_dot");
}

class ConfigFileTest : public test_support::TempDirTest {};

TEST_F(ConfigFileTest, MissingFile) {
  const std::string msg = config_error([&] { load_config((dir_ / "nope.json").string()); });
  EXPECT_NE(msg.find("nope.json: config file not found"), std::string::npos) << msg;
}

TEST_F(ConfigFileTest, SyntaxErrorNamesLine) {
  const auto path = write("bad.json", "{\n  \"seed\": 1,\n  \"name\": \n}\n");
  const std::string msg = config_error([&] { load_config(path); });
  EXPECT_NE(msg.find("bad.json: invalid JSON at line 4"), std::string::npos) << msg;
}

TEST_F(ConfigFileTest, LoadAppliesOverridesThenValidates) {
  const auto path = write("ok.json", R"({"training": {"epochs": 3}})");
  EXPECT_EQ(load_config(path, {"training.epochs=5"}).training.epochs, 5);
  EXPECT_THROW(load_config(path, {"training.epochs=0"}), ConfigError);
}

TEST_F(ConfigFileTest, SaveWritesResolvedConfig) {
  Config c;
  c.seed = 99;
  const auto path = (dir_ / "resolved.json").string();
  save_config(c, path);
  EXPECT_EQ(load_config(path).seed, 99);
}

TEST_F(ConfigFileTest, MissingCorpusFilesNameTheKey) {
  Config c;
  c.data.train = (dir_ / "train").string();
  c.data.valid = (dir_ / "valid").string();
  write("train.src", "a\n");
  write("train.tgt", "b\n");
  const std::string msg = config_error([&] { validate_files(c); });
  EXPECT_NE(msg.find("data.valid: file not found"), std::string::npos) << msg;
  EXPECT_NE(msg.find("valid.src"), std::string::npos) << msg;
}

TEST(ConfigTest, NewBoundsAreValidatedAndResumable) {
  Config c;
  c.data.max_line_bytes = 0;
  EXPECT_THROW(validate(c), ConfigError);
  c.data.max_line_bytes = (int64_t{1} << 30) + 1;
  EXPECT_THROW(validate(c), ConfigError);
  c = Config{};
  c.evaluation.max_src_len = 100001;
  EXPECT_THROW(validate(c), ConfigError);
  // A bound that only refuses may change on --resume; the length filter may not.
  Config raised;
  raised.data.max_line_bytes = 4 << 20;
  const auto changes = config_changes(Config{}, raised);
  ASSERT_EQ(changes.size(), 1u);
  EXPECT_EQ(changes[0].key, "data.max_line_bytes");
  EXPECT_TRUE(changes[0].resumable);
  EXPECT_FALSE(resumable_key("data.max_len"));
}

}  // namespace
}  // namespace s2s::config
