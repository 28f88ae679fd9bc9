#pragma once
// What json::parse does not report about a config text: nlohmann keeps the last of duplicate
// keys silently, and names neither the key nor the line of a number beyond double (1e999).
// A small scan of the text finds both. Comments (// and /* */) are skipped as the reader
// skips them.

#include <cstddef>
#include <string>
#include <vector>

namespace s2s::config {

// Where a key of a JSON text stands: its full path ("training.learning_rate"), its line and,
// when its value is a number, the number's text and whether it overflows a double.
struct KeySite {
  std::string path;
  std::size_t line = 0;
  std::string number;
  bool overflows = false;
};

// Every key of a JSON text that json::parse accepted (or rejected only for a number out of
// range), in order.
std::vector<KeySite> scan_keys(const std::string& text);

// Objects and arrays nested deeper than this are refused before the text is parsed: a real
// config nests 4 deep, and the key scan's paths grow with the depth.
inline constexpr std::size_t kMaxJsonDepth = 64;

// ConfigError "ORIGIN:LINE: objects and arrays nested deeper than 64 levels" for the first
// bracket past kMaxJsonDepth (strings and comments skipped). Linear time, constant memory.
void check_nesting(const std::string& text, const std::string& origin);

// ConfigError "ORIGIN: duplicate key 'K' at lines A and B" for the first key given twice in
// one object.
void reject_duplicate_keys(const std::vector<KeySite>& sites, const std::string& origin);

}  // namespace s2s::config
