#include "util/jsonl_writer.h"

#include "util/error.h"

namespace s2s::util {

JsonlWriter::JsonlWriter(const std::string& path) : out_(path, std::ios::app) {
  if (!out_) throw std::runtime_error(path + ": cannot open for writing");
}

void JsonlWriter::write(const nlohmann::json& event) {
  if (!out_.is_open()) return;
  out_ << event.dump() << '\n';
  out_.flush();
}

}  // namespace s2s::util
