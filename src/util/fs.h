#pragma once
// Small file helpers shared by every module.

#include <string>

namespace s2s::util {

// Reads a whole file; InputError naming the path if it cannot be opened.
std::string read_file(const std::string& path);

// Writes `contents` to `path` atomically: a temporary file in the same directory, flushed,
// then renamed over `path`, so a crash mid-write never leaves a truncated file.
void write_file_atomic(const std::string& path, const std::string& contents);

}  // namespace s2s::util
