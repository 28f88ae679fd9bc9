#include "data/corpus.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string_view>

#include "config/choices.h"
#include "util/error.h"
#include "util/logging.h"
#include "util/strings.h"
#include "util/unicode.h"

namespace s2s::data {
namespace {

constexpr std::string_view kBom = "\xEF\xBB\xBF";

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};

// The whole file in one string: one allocation and a few large reads, fast on 100 MB corpora.
std::string read_file(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    throw InputError(path + ": is a directory, expected a text file");
  }
  std::unique_ptr<std::FILE, FileCloser> file(std::fopen(path.c_str(), "rb"));
  if (!file) throw InputError(path + ": cannot open (" + std::strerror(errno) + ")");
  // The size is only a hint (pipes report 0): the loop grows the buffer as needed.
  const auto size = std::filesystem::file_size(path, ec);
  std::string data(ec ? std::size_t{1} << 16 : static_cast<std::size_t>(size) + 1, '\0');
  std::size_t used = 0;
  while (true) {
    if (used == data.size()) data.resize(data.size() * 2);
    const std::size_t n = std::fread(data.data() + used, 1, data.size() - used, file.get());
    used += n;
    if (n > 0) continue;
    if (std::ferror(file.get())) throw InputError(path + ": read error");
    break;
  }
  data.resize(used);
  return data;
}

bool is_blank(std::string_view line) {
  return line.find_first_not_of(" \t") == std::string_view::npos;
}

std::string where(const std::string& path, std::size_t line) {
  return path + ":" + std::to_string(line) + ": ";
}

}  // namespace

void check_text_line(const std::string& path, std::size_t number, std::string_view line,
                     std::size_t max_line_bytes) {
  if (max_line_bytes > 0 && line.size() > max_line_bytes) {
    throw InputError(where(path, number) + "a line of " + std::to_string(line.size()) +
                     " bytes, more than data.max_line_bytes = " + std::to_string(max_line_bytes) +
                     "; cut or drop the line, or raise the key");
  }
  std::size_t bad = line.find('\0');
  if (bad != std::string_view::npos) {
    throw InputError(where(path, number) + "NUL byte at byte " + std::to_string(bad + 1) +
                     " (not a text file?)");
  }
  if (!util::is_valid_utf8(line, &bad)) {
    throw InputError(where(path, number) + "invalid UTF-8 at byte " + std::to_string(bad + 1));
  }
}

bool is_blank_line(std::string_view line) { return is_blank(line); }

SentencePair tsv_pair(const std::string& path, std::size_t number, const std::string& line) {
  if (line.empty()) return {"", "", number};  // kept so that filtering counts it
  const std::size_t tab = line.find('\t');
  if (tab == std::string::npos) {
    throw InputError(where(path, number) + "expected source<TAB>target");
  }
  const std::size_t tab2 = line.find('\t', tab + 1);
  if (tab2 != std::string::npos) {
    const auto columns = 1 + std::count(line.begin(), line.end(), '\t');
    throw InputError(where(path, number) + "expected 2 tab-separated columns, found " +
                     std::to_string(columns) + " (keep the first two: cut -f1,2)");
  }
  return {line.substr(0, tab), line.substr(tab + 1), number};
}

FilterVerdict classify_pair(std::size_t src_tokens, std::size_t tgt_tokens, int64_t max_len) {
  if (src_tokens == 0 || tgt_tokens == 0) return FilterVerdict::kEmpty;
  const auto limit = static_cast<std::size_t>(max_len);
  if (max_len > 0 && (src_tokens > limit || tgt_tokens > limit)) return FilterVerdict::kTooLong;
  return FilterVerdict::kKeep;
}

std::vector<std::string> read_lines(const std::string& path, std::size_t max_line_bytes) {
  const std::string data = read_file(path);
  std::string_view text(data);
  if (text.substr(0, kBom.size()) == kBom) text.remove_prefix(kBom.size());
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t newline = text.find('\n', start);
    const std::size_t end = newline == std::string_view::npos ? text.size() : newline;
    std::string_view line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    check_text_line(path, lines.size() + 1, line, max_line_bytes);
    lines.emplace_back(line);
    start = end + 1;
  }
  // Editors often leave blank lines at the end; anywhere else a blank line is data.
  std::size_t dropped = 0;
  for (; !lines.empty() && is_blank(lines.back()); ++dropped) lines.pop_back();
  if (dropped > 0) {
    util::logger("data")->debug("{}: dropped {} blank line(s) at the end", path, dropped);
  }
  return lines;
}

std::vector<SentencePair> read_tsv(const std::string& path, std::size_t max_line_bytes) {
  const std::vector<std::string> lines = read_lines(path, max_line_bytes);
  std::vector<SentencePair> pairs;
  pairs.reserve(lines.size());
  for (std::size_t i = 0; i < lines.size(); ++i) pairs.push_back(tsv_pair(path, i + 1, lines[i]));
  return pairs;
}

std::vector<SentencePair> read_parallel(const std::string& src_path, const std::string& tgt_path,
                                        std::size_t max_line_bytes) {
  std::vector<std::string> src = read_lines(src_path, max_line_bytes);
  std::vector<std::string> tgt = read_lines(tgt_path, max_line_bytes);
  if (src.size() != tgt.size()) {
    throw InputError("parallel files differ in length: " + src_path + " has " +
                     std::to_string(src.size()) + " lines, " + tgt_path + " has " +
                     std::to_string(tgt.size()));
  }
  std::vector<SentencePair> pairs(src.size());
  for (std::size_t i = 0; i < src.size(); ++i) {
    pairs[i] = {std::move(src[i]), std::move(tgt[i]), i + 1};
  }
  return pairs;
}

namespace {

config::CorpusFormat format_of(const CorpusSpec& spec) {
  return config::parse_choice<config::CorpusFormat>(spec.format, "data.format");
}

}  // namespace

std::string describe(const CorpusSpec& spec) {
  if (format_of(spec) == config::CorpusFormat::kParallel) {
    return spec.path + ".{" + spec.src_ext + "," + spec.tgt_ext + "}";
  }
  return spec.path;
}

std::vector<std::string> corpus_files(const CorpusSpec& spec) {
  if (format_of(spec) == config::CorpusFormat::kParallel) {
    return {spec.path + "." + spec.src_ext, spec.path + "." + spec.tgt_ext};
  }
  return {spec.path};
}

std::vector<SentencePair> read_corpus(const CorpusSpec& spec) {
  if (spec.path.empty()) throw ConfigError("corpus path is empty");
  std::vector<SentencePair> pairs;
  std::string files;
  if (format_of(spec) == config::CorpusFormat::kTsv) {
    files = spec.path;
    pairs = read_tsv(spec.path, spec.max_line_bytes);
  } else {
    if (spec.src_ext.empty() || spec.tgt_ext.empty()) {
      throw ConfigError("corpus format 'parallel' needs both src_ext and tgt_ext (path " +
                        spec.path + ")");
    }
    const std::string src = spec.path + "." + spec.src_ext;
    const std::string tgt = spec.path + "." + spec.tgt_ext;
    files = src + " and " + tgt;
    pairs = read_parallel(src, tgt, spec.max_line_bytes);
  }
  if (pairs.empty()) throw InputError(files + ": no sentence pairs (empty corpus)");
  return pairs;
}

TokenizedCorpus tokenize_corpus(const std::vector<SentencePair>& pairs,
                                const Tokenizer& src_tokenizer, const Tokenizer& tgt_tokenizer) {
  TokenizedCorpus corpus;
  corpus.src.reserve(pairs.size());
  corpus.tgt.reserve(pairs.size());
  corpus.lines.reserve(pairs.size());
  corpus.tgt_raw.reserve(pairs.size());
  for (const auto& pair : pairs) {
    corpus.src.push_back(src_tokenizer.tokenize(pair.src));
    corpus.tgt.push_back(tgt_tokenizer.tokenize(pair.tgt));
    corpus.lines.push_back(pair.line);
    corpus.tgt_raw.push_back(pair.tgt);
  }
  return corpus;
}

std::vector<std::size_t> filter_pairs(const std::vector<std::vector<std::string>>& src,
                                      const std::vector<std::vector<std::string>>& tgt,
                                      int64_t max_len, FilterStats* stats) {
  if (src.size() != tgt.size()) {
    throw std::invalid_argument("filter_pairs: source and target sizes differ");
  }
  if (max_len < 0) {
    throw ConfigError("max_len must be >= 0 (0 = no limit), got " + std::to_string(max_len));
  }
  FilterStats counts;
  std::vector<std::size_t> kept;
  kept.reserve(src.size());
  for (std::size_t i = 0; i < src.size(); ++i) {
    switch (classify_pair(src[i].size(), tgt[i].size(), max_len)) {
      case FilterVerdict::kEmpty:
        ++counts.empty;
        break;
      case FilterVerdict::kTooLong:
        ++counts.too_long;
        break;
      case FilterVerdict::kKeep:
        kept.push_back(i);
        break;
    }
  }
  counts.kept = kept.size();
  if (stats != nullptr) *stats = counts;
  return kept;
}

TokenizedCorpus select_pairs(const TokenizedCorpus& corpus,
                             const std::vector<std::size_t>& indices) {
  TokenizedCorpus out;
  out.src.reserve(indices.size());
  out.tgt.reserve(indices.size());
  out.lines.reserve(indices.size());
  out.tgt_raw.reserve(indices.size());
  for (const std::size_t i : indices) {
    out.src.push_back(corpus.src.at(i));
    out.tgt.push_back(corpus.tgt.at(i));
    out.lines.push_back(corpus.lines.at(i));
    out.tgt_raw.push_back(corpus.tgt_raw.at(i));
  }
  return out;
}

void log_corpus_stats(const std::string& split, const std::string& source, std::size_t n_read,
                      double seconds, const FilterStats& stats, int64_t max_len) {
  const std::string limit =
      max_len > 0 ? "too long > " + std::to_string(max_len) : std::string("no length limit");
  util::logger("data")->info(
      "{}: {} pairs read from {} and tokenized in {:.1f} s, {} filtered ({}), {} empty", split,
      n_read, source, seconds, stats.too_long, limit, stats.empty);
}

TokenizedCorpus load_corpus(const std::string& split, const CorpusSpec& spec,
                            const Tokenizer& src_tokenizer, const Tokenizer& tgt_tokenizer,
                            int64_t max_len) {
  const auto start = std::chrono::steady_clock::now();
  const std::vector<SentencePair> pairs = read_corpus(spec);
  const TokenizedCorpus all = tokenize_corpus(pairs, src_tokenizer, tgt_tokenizer);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  FilterStats stats;
  const std::vector<std::size_t> kept = filter_pairs(all.src, all.tgt, max_len, &stats);
  log_corpus_stats(split, describe(spec), pairs.size(), seconds, stats, max_len);
  if (kept.empty()) {
    throw InputError(describe(spec) + ": all " + std::to_string(pairs.size()) +
                     " pairs were filtered out (" + std::to_string(stats.too_long) + " too long, " +
                     std::to_string(stats.empty) + " empty)");
  }
  return select_pairs(all, kept);
}

}  // namespace s2s::data
