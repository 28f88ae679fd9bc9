#pragma once
// A folder of its own for a test's files, removed afterwards. Named after the process and the
// running test: ctest runs every test of a binary as its own process, several at a time, so a
// fixed name would be shared by tests running side by side.
//
//   TEST(Sha256Test, ...) { const test_support::TempDir dir; ... dir.write("a.txt", "abc") ... }
//   class CorpusTest : public test_support::TempDirTest {};   // dir_, path(name), write(...)

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace s2s::test_support {

class TempDir {
 public:
  // <temp>/s2s_<suite>_<test>_<pid>, created empty.
  TempDir() : path_(std::filesystem::temp_directory_path() / unique_name()) {
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ignored;  // a destructor must not throw
    std::filesystem::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return path_; }
  // The path of `name` inside the folder, as a string.
  std::string file(const std::string& name) const { return (path_ / name).string(); }
  // Writes `contents` byte for byte to `name` inside the folder and returns its path.
  std::string write(const std::string& name, const std::string& contents) const {
    const std::string p = file(name);
    std::ofstream(p, std::ios::binary) << contents;
    return p;
  }

 private:
  static std::string unique_name() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    std::string name = "s2s_";
    if (info != nullptr) name += std::string(info->test_suite_name()) + "_" + info->name() + "_";
    name += std::to_string(::getpid());
    for (char& c : name) {
      if (c == '/') c = '_';  // parameterized tests: "Instance/Suite", "Test/0"
    }
    return name;
  }

  std::filesystem::path path_;
};

// A fixture whose tests each get a fresh TempDir: dir_ is its path.
class TempDirTest : public ::testing::Test {
 protected:
  std::string path(const std::string& name) const { return temp_.file(name); }
  std::string write(const std::string& name, const std::string& contents) const {
    return temp_.write(name, contents);
  }

  const TempDir temp_;
  const std::filesystem::path dir_ = temp_.path();
};

}  // namespace s2s::test_support
