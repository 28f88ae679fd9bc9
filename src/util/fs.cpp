#include "util/fs.h"

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "util/error.h"

namespace s2s::util {
namespace {

constexpr const char* kTempMarker = ".tmp.";

// The PID of a temporary file name "X.tmp.<pid>", or 0.
long temp_owner(const std::string& name) {
  const auto at = name.rfind(kTempMarker);
  if (at == std::string::npos) return 0;
  const auto digits = name.substr(at + std::strlen(kTempMarker));
  if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos) return 0;
  return std::strtol(digits.c_str(), nullptr, 10);
}

}  // namespace

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path + ": cannot open file (" + std::strerror(errno) + ")");
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

std::string temp_path(const std::string& path) {
  return path + kTempMarker + std::to_string(::getpid());
}

void write_file_atomic(const std::string& path, const std::string& contents) {
  const std::string tmp = temp_path(path);
  std::FILE* f = std::fopen(tmp.c_str(), "wb");
  if (f == nullptr)
    throw std::runtime_error(path + ": cannot write (" + std::strerror(errno) + ")");
  const bool written = std::fwrite(contents.data(), 1, contents.size(), f) == contents.size() &&
                       std::fflush(f) == 0 && ::fsync(::fileno(f)) == 0;
  const int error = errno;
  if (std::fclose(f) != 0 || !written) {
    std::remove(tmp.c_str());
    throw std::runtime_error(path + ": cannot write (" + std::strerror(written ? errno : error) +
                             ")");
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::remove(tmp.c_str());
    throw std::runtime_error(path + ": cannot replace (" + ec.message() + ")");
  }
}

int remove_stale_temp_files(const std::string& dir,
                            const std::function<bool(const std::string& name)>& ours) {
  std::error_code ec;
  int removed = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    const long pid = temp_owner(entry.path().filename().string());
    if (pid <= 0 || pid == ::getpid() || !ours(entry.path().filename().string())) continue;
    if (::kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH) continue;  // still running
    if (std::filesystem::remove_all(entry.path(), ec) > 0) ++removed;         // a file or a folder
  }
  return removed;
}

void check_output_file(const std::string& flag, const std::string& path,
                       const std::string& example_name) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::is_directory(path, ec)) {
    throw UserError(flag + " " + path + ": is a directory; name the file to write" +
                    (example_name.empty() ? "" : " (e.g. " + path + "/" + example_name + ")"));
  }
  const auto parent = fs::path(path).parent_path();
  if (parent.empty()) return;
  if (!fs::exists(parent, ec)) {
    throw UserError(flag + " " + path + ": directory " + parent.string() + " does not exist");
  }
  if (!fs::is_directory(parent, ec)) {
    throw UserError(flag + " " + path + ": " + parent.string() + " is not a directory");
  }
}

void make_output_dir(const std::string& flag, const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::is_directory(path, ec)) return;
  if (fs::exists(path, ec)) {
    throw UserError(flag + " " + path + ": is a file; name a directory to write into");
  }
  for (auto p = fs::path(path).parent_path(); !p.empty(); p = p.parent_path()) {
    if (fs::exists(p, ec) && !fs::is_directory(p, ec)) {
      throw UserError(flag + " " + path + ": " + p.string() + " is not a directory");
    }
    if (p == p.parent_path()) break;
  }
  fs::create_directories(path, ec);
  if (ec) throw std::runtime_error(path + ": cannot create directory (" + ec.message() + ")");
}

}  // namespace s2s::util
