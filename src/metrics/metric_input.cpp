#include "metrics/metric_input.h"

#include <filesystem>
#include <fstream>
#include <iterator>
#include <utility>

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

void check_reference_sets(const std::vector<std::string>& hyps, const ReferenceSets& references) {
  if (references.empty()) throw InputError("no references: give at least one");
  for (const auto& refs : references) check_hyps_refs(hyps, refs);
}

ReferenceSets read_reference_files(const std::vector<std::string>& paths, std::size_t lines,
                                   const std::string& hyp_name) {
  if (paths.empty()) throw InputError("no reference file: give at least one");
  ReferenceSets references;
  for (std::size_t r = 0; r < paths.size(); ++r) {
    const auto& path = paths[r];
    auto refs = read_text_lines(path);  // first: a missing file is named as such
    for (std::size_t q = 0; q < r; ++q) {
      std::error_code error;
      if (std::filesystem::equivalent(paths[q], path, error)) {
        throw InputError("'" + path + "' is given twice as a reference (as '" + paths[q] +
                         "'): each reference counts once");
      }
    }
    if (refs.size() != lines) {
      throw InputError(hyp_name + " has " + std::to_string(lines) + " lines but '" + path +
                       "' has " + std::to_string(refs.size()) +
                       "; hypotheses and references must pair up line by line");
    }
    if (refs.empty()) {
      throw InputError(hyp_name + " and '" + path + "' hold no lines: nothing to score");
    }
    for (std::size_t i = 0; i < refs.size(); ++i) {
      if (refs[i].empty()) {
        throw InputError("'" + path + "' line " + std::to_string(i + 1) +
                         " is empty; sacreBLEU refuses empty references");
      }
    }
    references.push_back(std::move(refs));
  }
  return references;
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
