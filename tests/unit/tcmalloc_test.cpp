// The allocator's release setting (platform/tcmalloc.h): chosen only where the environment
// leaves it open, taken back on request, and said in the log line as it is.

#include "platform/tcmalloc.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace s2s {
namespace {

// Restores TCMALLOC_RELEASE_RATE and the marker as the test found them.
class TcmallocTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* name : {"TCMALLOC_RELEASE_RATE", "S2S_TCMALLOC_CHOSEN"}) {
      const char* value = std::getenv(name);
      saved_.push_back({name, value ? std::optional<std::string>(value) : std::nullopt});
      ::unsetenv(name);
    }
  }
  void TearDown() override {
    for (const auto& [name, value] : saved_) {
      if (value) {
        ::setenv(name.c_str(), value->c_str(), 1);
      } else {
        ::unsetenv(name.c_str());
      }
    }
  }

 private:
  std::vector<std::pair<std::string, std::optional<std::string>>> saved_;
};

TEST_F(TcmallocTest, SetsTheRateWhereTheEnvironmentLeavesItOpen) {
  EXPECT_EQ(platform::tcmalloc_release(true),
            "freed memory returned to the system (tcmalloc's default)");
  ASSERT_TRUE(platform::choose_tcmalloc_release(true));
  EXPECT_STREQ(std::getenv("TCMALLOC_RELEASE_RATE"), "0");
  EXPECT_EQ(platform::tcmalloc_release(true),
            "freed memory kept (TCMALLOC_RELEASE_RATE=0, set by s2s)");
  platform::unset_tcmalloc_release();
  EXPECT_EQ(std::getenv("TCMALLOC_RELEASE_RATE"), nullptr);
}

TEST_F(TcmallocTest, TheUsersRateWins) {
  ::setenv("TCMALLOC_RELEASE_RATE", "2.5", 1);
  EXPECT_FALSE(platform::choose_tcmalloc_release(true));
  EXPECT_STREQ(std::getenv("TCMALLOC_RELEASE_RATE"), "2.5");
  EXPECT_EQ(platform::tcmalloc_release(true),
            "freed memory as the environment says (TCMALLOC_RELEASE_RATE=2.5)");
}

// Without tcmalloc (the sanitizer builds, and these tests, which do not link it) nothing is set.
TEST_F(TcmallocTest, NothingToSetWithoutTcmalloc) {
  EXPECT_FALSE(platform::tcmalloc_linked());
  EXPECT_FALSE(platform::choose_tcmalloc_release(false));
  EXPECT_EQ(std::getenv("TCMALLOC_RELEASE_RATE"), nullptr);
  EXPECT_EQ(platform::tcmalloc_release(false), "malloc other than tcmalloc (a sanitizer build)");
}

}  // namespace
}  // namespace s2s
