// Config files as users write them: comments, paths relative to the file, the template.

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "config/json_io.h"
#include "config/template.h"
#include "support/temp_dir.h"
#include "util/error.h"

namespace s2s::config {
namespace {

namespace fs = std::filesystem;

class ConfigPathsTest : public test_support::TempDirTest {
 protected:
  void SetUp() override {
    fs::create_directories(dir_ / "configs");
    fs::create_directories(dir_ / "data");
    for (const char* f : {"train.en", "train.fr", "valid.en", "valid.fr"}) {
      write(std::string("data/") + f, "a\n");
    }
  }
};

TEST_F(ConfigPathsTest, DataPathsAreRelativeToTheConfigFileAndStoredAbsolute) {
  const auto path = write("configs/c.json", R"({
    // comments are allowed, as in the template
    "run_dir": "runs/x",
    "data": {"train": "../data/train", "valid": "../data/valid", "src_ext": "en",
             "tgt_ext": "fr"}  /* block comments too */
  })");
  const auto c = load_config(path);
  EXPECT_EQ(c.data.train, (dir_ / "data" / "train").string());
  EXPECT_EQ(c.data.valid, (dir_ / "data" / "valid").string());
  EXPECT_EQ(c.run_dir, (fs::current_path() / "runs" / "x").string());  // the working directory
  EXPECT_NO_THROW(validate_files(c));
}

TEST_F(ConfigPathsTest, OverridesAreRelativeToTheWorkingDirectory) {
  const auto path = write("configs/c.json", R"({"data": {"train": "../data/train"}})");
  const auto c = load_config(path, {"data.valid=some/where"});
  EXPECT_EQ(c.data.valid, (fs::current_path() / "some" / "where").string());
}

TEST_F(ConfigPathsTest, OldConfigsWithPathsFromTheWorkingDirectoryStillWork) {
  const auto cwd = fs::current_path();
  fs::current_path(dir_);
  const auto path = write("configs/c.json",
                          R"({"data": {"train": "data/train", "src_ext": "en", "tgt_ext": "fr"}})");
  const auto c = load_config(path);
  fs::current_path(cwd);
  EXPECT_EQ(c.data.train, (dir_ / "data" / "train").string());
}

TEST(ConfigTemplateTest, ListsEveryKeyWithItsMeaningAndLoadsBack) {
  const auto text = config_template();
  EXPECT_NE(text.find("\"learning_rate\": 0.001,  // initial learning rate"), std::string::npos);
  EXPECT_NE(text.find("\"scorer\": \"additive\""), std::string::npos);
  const test_support::TempDir dir;
  EXPECT_NO_THROW(load_config(dir.write("template.json", text)));  // every default is valid
}

}  // namespace
}  // namespace s2s::config
