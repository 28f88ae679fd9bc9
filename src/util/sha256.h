#pragma once
// SHA-256 (FIPS 180-4) of files and strings, for the provenance a run records of its data.

#include <cstdint>
#include <string>
#include <string_view>

namespace s2s::util {

// Lower-case hex digest of `data`.
std::string sha256_hex(std::string_view data);

// Lower-case hex digest of a file's bytes and its size; InputError naming the path if it cannot
// be read.
struct FileDigest {
  std::string sha256;
  uint64_t bytes = 0;
};
FileDigest file_digest(const std::string& path);

}  // namespace s2s::util
