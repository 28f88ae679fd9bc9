#pragma once
// metrics.jsonl: one JSON object per line, per training log or validation event, flushed as
// written so that a crash loses nothing already reported.

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

namespace s2s::util {

class JsonlWriter {
 public:
  JsonlWriter() = default;
  // Appends to `path` (resumed runs continue the same file).
  explicit JsonlWriter(const std::string& path);
  void write(const nlohmann::json& event);

 private:
  std::ofstream out_;
};

}  // namespace s2s::util
