#include "metrics/metric_input.h"

#include <filesystem>
#include <fstream>
#include <iterator>

#include "util/error.h"
#include "util/unicode.h"

namespace s2s::metrics {

std::vector<std::string> read_text_lines(const std::string& path) {
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) {
    throw InputError("cannot read '" + path + "': it is a directory");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError("cannot open '" + path + "'");
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) throw InputError("error while reading '" + path + "'");

  constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";
  std::string_view rest(text);
  if (rest.substr(0, kByteOrderMark.size()) == kByteOrderMark) {
    rest.remove_prefix(kByteOrderMark.size());
  }
  std::vector<std::string> lines;
  while (!rest.empty()) {
    const std::size_t end = rest.find('\n');
    std::string_view line = rest.substr(0, end);
    rest.remove_prefix(end == std::string_view::npos ? rest.size() : end + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    std::size_t bad = 0;
    if (!util::is_valid_utf8(line, &bad)) {
      throw InputError("'" + path + "' line " + std::to_string(lines.size() + 1) +
                       ": invalid UTF-8 at byte " + std::to_string(bad + 1));
    }
    lines.emplace_back(line);
  }
  return lines;
}

void check_hyps_refs(const std::vector<std::string>& hyps, const std::vector<std::string>& refs) {
  if (hyps.size() != refs.size()) {
    throw InputError(std::to_string(hyps.size()) + " hypotheses but " +
                     std::to_string(refs.size()) + " references; they must pair up line by line");
  }
  for (std::size_t i = 0; i < refs.size(); ++i) {
    if (refs[i].empty()) {
      throw InputError("reference " + std::to_string(i + 1) +
                       " is empty; sacreBLEU refuses empty references");
    }
  }
}

std::u32string decode_sentence(std::string_view utf8, const char* what, std::size_t line) {
  std::size_t bad = 0;
  if (!util::is_valid_utf8(utf8, &bad)) {
    throw InputError(std::string(what) + " " + std::to_string(line) + ": invalid UTF-8 at byte " +
                     std::to_string(bad + 1));
  }
  return util::utf8_to_u32(utf8);
}

}  // namespace s2s::metrics
