#pragma once
// ../shared: optional material kept beside the repository, never in it (Multi30k, sacreBLEU's
// own scores). Tests that read it are skipped, and reported so by ctest, when it is absent.
// The environment variable S2S_SHARED_DIR points them elsewhere (S2S_SHARED_DIR=/nowhere ctest
// shows what a checkout without ../shared reports); otherwise they read the folder the build
// was configured with (tests/CMakeLists.txt).

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

namespace s2s::test_support {

inline std::string shared_dir() {
  const char* env = std::getenv("S2S_SHARED_DIR");
  return env != nullptr && *env != '\0' ? std::string(env) : std::string(S2S_SHARED_DIR);
}

// The path of `relative` (e.g. "bleu/cases.jsonl") inside ../shared.
inline std::string shared_path(const std::string& relative) {
  return shared_dir() + "/" + relative;
}

}  // namespace s2s::test_support

// Skips the running test when `path` does not exist, naming the path; the caller may stream
// what goes unchecked: S2S_SKIP_IF_ABSENT(cases) << "parity with sacreBLEU is not checked";
// (GTEST_SKIP returns from the test body, so this is a statement of the body, not a helper.)
#define S2S_SKIP_IF_ABSENT(path)                                                                  \
  if (const std::string s2s_required_path = (path); std::filesystem::exists(s2s_required_path)) { \
  } else                                                                                          \
    GTEST_SKIP() << s2s_required_path << " is absent (optional material of ../shared, "           \
                 << "S2S_SHARED_DIR=" << ::s2s::test_support::shared_dir() << "); "
