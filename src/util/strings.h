#pragma once
// Small string helpers shared by every module.

#include <string>
#include <string_view>
#include <vector>

namespace s2s::util {

// "a, b, c" for join({"a", "b", "c"}, ", ").
inline std::string join(const std::vector<std::string>& parts, std::string_view separator) {
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) out += separator;
    out += parts[i];
  }
  return out;
}

// The first line of `message`: users get one line, never a LibTorch backtrace.
inline std::string first_line(std::string_view message) {
  return std::string(message.substr(0, message.find('\n')));
}

}  // namespace s2s::util
