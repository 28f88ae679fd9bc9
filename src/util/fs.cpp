#include "util/fs.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "util/error.h"

namespace s2s::util {

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path + ": cannot open file (" + std::strerror(errno) + ")");
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

void write_file_atomic(const std::string& path, const std::string& contents) {
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  {
    std::FILE* f = std::fopen(tmp.c_str(), "wb");
    if (f == nullptr)
      throw std::runtime_error(tmp + ": cannot write (" + std::strerror(errno) + ")");
    const bool ok = std::fwrite(contents.data(), 1, contents.size(), f) == contents.size() &&
                    std::fflush(f) == 0 && ::fsync(::fileno(f)) == 0;
    std::fclose(f);
    if (!ok) {
      std::remove(tmp.c_str());
      throw std::runtime_error(tmp + ": write failed (" + std::strerror(errno) + ")");
    }
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::remove(tmp.c_str());
    throw std::runtime_error(path + ": cannot replace (" + ec.message() + ")");
  }
}

}  // namespace s2s::util
