#include "config/json_text.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <unordered_map>

#include "util/error.h"

namespace s2s::config {
namespace {

std::string join_key(const std::string& prefix, const std::string& key) {
  return prefix.empty() ? key : prefix + "." + key;
}

// At a comment ("/* ... */" or "// ... end of line") starting at text[i]: moves i to its last
// character, counts its newlines into `line` and returns true; otherwise false.
bool skip_comment(const std::string& text, std::size_t& i, std::size_t& line) {
  if (text[i] != '/' || i + 1 >= text.size() || (text[i + 1] != '/' && text[i + 1] != '*')) {
    return false;
  }
  const bool block = text[i + 1] == '*';
  const std::size_t end = text.find(block ? "*/" : "\n", i + 2);
  const std::size_t stop = end == std::string::npos ? text.size() : end + (block ? 2 : 0);
  line +=
      static_cast<std::size_t>(std::count(text.begin() + static_cast<std::ptrdiff_t>(i),
                                          text.begin() + static_cast<std::ptrdiff_t>(stop), '\n'));
  i = stop - 1;
  return true;
}

}  // namespace

std::vector<KeySite> scan_keys(const std::string& text) {
  struct Frame {
    bool object;
    std::string path, key;  // the object's own path; the key whose value comes next
  };
  std::vector<Frame> frames;
  std::vector<KeySite> sites;
  std::size_t line = 1;
  const auto value_path = [&] {
    if (frames.empty()) return std::string();
    const auto& f = frames.back();
    return f.object ? join_key(f.path, f.key) : f.path + "[]";
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\n') {
      ++line;
    } else if (skip_comment(text, i, line)) {
    } else if (c == '{' || c == '[') {
      frames.push_back({c == '{', value_path(), ""});
    } else if ((c == '}' || c == ']') && !frames.empty()) {
      frames.pop_back();
    } else if (c == '"') {
      std::string str;
      for (++i; i < text.size() && text[i] != '"'; ++i) {
        if (text[i] == '\\' && i + 1 < text.size()) ++i;
        str += text[i];
      }
      const std::size_t next = text.find_first_not_of(" \t\r\n", i + 1);
      if (next != std::string::npos && text[next] == ':' && !frames.empty() &&
          frames.back().object) {
        frames.back().key = str;
        sites.push_back({join_key(frames.back().path, str), line, "", false});
      }
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      const std::size_t end = text.find_first_of(",}] \t\r\n/", i);
      const std::string number = text.substr(i, end - i);
      if (!sites.empty()) {
        sites.back().number = number;
        sites.back().overflows = !std::isfinite(std::strtod(number.c_str(), nullptr));
      }
      i = (end == std::string::npos ? text.size() : end) - 1;
    }
  }
  return sites;
}

void check_nesting(const std::string& text, const std::string& origin) {
  std::size_t depth = 0, line = 1;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\n') {
      ++line;
    } else if (skip_comment(text, i, line)) {
    } else if (c == '"') {
      for (++i; i < text.size() && text[i] != '"'; ++i) {
        if (text[i] == '\\' && i + 1 < text.size()) ++i;
      }
    } else if (c == '{' || c == '[') {
      if (++depth > kMaxJsonDepth) {
        throw ConfigError(origin + ":" + std::to_string(line) +
                          ": objects and arrays nested deeper than " +
                          std::to_string(kMaxJsonDepth) + " levels");
      }
    } else if ((c == '}' || c == ']') && depth > 0) {
      --depth;
    }
  }
}

void reject_duplicate_keys(const std::vector<KeySite>& sites, const std::string& origin) {
  std::unordered_map<std::string, std::size_t> first_line;  // path -> line of its first site
  for (const auto& site : sites) {
    const auto [it, inserted] = first_line.emplace(site.path, site.line);
    if (inserted) continue;
    throw ConfigError(origin + ": duplicate key '" + site.path + "' at lines " +
                      std::to_string(it->second) + " and " + std::to_string(site.line));
  }
}

}  // namespace s2s::config
