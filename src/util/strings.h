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

}  // namespace s2s::util
