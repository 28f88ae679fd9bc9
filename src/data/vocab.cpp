#include "data/vocab.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "data/corpus.h"
#include "util/error.h"
#include "util/fs.h"
#include "util/unicode.h"

namespace s2s::data {
namespace {

// ASCII whitespace and line separators: no tokenizer puts them in a token, and a vocabulary file
// (one token a line) cannot show them unambiguously. Other Unicode spaces (U+00A0, U+202F, ...) are
// characters like any other inside SentencePiece pieces, which keep the text as it is.
bool has_separator(const std::string& token) {
  for (const char32_t c : util::utf8_to_u32(token)) {
    if ((c < 0x80 && util::is_space(c)) || c == 0x85 || c == 0x2028 || c == 0x2029) return true;
  }
  return false;
}

bool is_special(const std::string& token) {
  return std::any_of(std::begin(Vocab::kSpecialTokens), std::end(Vocab::kSpecialTokens),
                     [&](const char* special) { return token == special; });
}

void validate(const VocabOptions& options) {
  if (options.min_freq < 1) {
    throw ConfigError("vocab min_freq must be >= 1, got " + std::to_string(options.min_freq));
  }
  if (options.max_size != 0 && options.max_size < Vocab::kNumSpecials) {
    throw ConfigError("vocab max_size must be 0 (no limit) or >= 4 (the specials), got " +
                      std::to_string(options.max_size));
  }
}

std::string where(const std::string& path, std::size_t line) {
  return path + ":" + std::to_string(line) + ": ";
}

// One line of a vocabulary file: the rules load() enforces, each with its own message.
void check_line(const std::string& path, std::size_t line, const std::string& token) {
  const std::size_t index = line - 1;
  if (index < static_cast<std::size_t>(Vocab::kNumSpecials) &&
      token != Vocab::kSpecialTokens[index]) {
    throw InputError(where(path, line) + "expected special token " + Vocab::kSpecialTokens[index] +
                     ", found '" + token + "' (a vocabulary starts with <pad> <unk> <s> </s>)");
  }
  if (token.empty()) throw InputError(where(path, line) + "empty token");
  if (has_separator(token)) {
    throw InputError(where(path, line) + "token '" + token + "' contains whitespace");
  }
}

}  // namespace

Vocab::Vocab()
    : Vocab(std::vector<std::string>(std::begin(kSpecialTokens), std::end(kSpecialTokens))) {}

Vocab::Vocab(std::vector<std::string> tokens) : tokens_(std::move(tokens)) {
  ids_.reserve(tokens_.size());
  for (std::size_t i = 0; i < tokens_.size(); ++i) {
    ids_.emplace(tokens_[i], static_cast<int64_t>(i));
  }
}

Vocab Vocab::build(const std::vector<std::vector<std::string>>& sentences,
                   const VocabOptions& options) {
  std::unordered_map<std::string, int64_t> counts;
  for (const auto& sentence : sentences) {
    for (const auto& token : sentence) ++counts[token];
  }
  return from_counts(counts, options);
}

Vocab Vocab::from_counts(const std::unordered_map<std::string, int64_t>& counts,
                         const VocabOptions& options) {
  validate(options);
  std::vector<std::pair<std::string, int64_t>> entries;
  for (const auto& [token, count] : counts) {
    if (count < options.min_freq || is_special(token)) continue;
    // Tokenizers never produce these; a vocabulary file could not hold them.
    if (token.empty() || has_separator(token)) {
      throw std::invalid_argument("Vocab::build: token '" + token + "' is empty or has spaces");
    }
    entries.emplace_back(token, count);
  }
  std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second > b.second : a.first < b.first;
  });
  std::vector<std::string> tokens(std::begin(kSpecialTokens), std::end(kSpecialTokens));
  const std::size_t limit = options.max_size > 0 ? static_cast<std::size_t>(options.max_size)
                                                 : tokens.size() + entries.size();
  for (std::size_t i = 0; i < entries.size() && tokens.size() < limit; ++i) {
    tokens.push_back(std::move(entries[i].first));
  }
  return Vocab(std::move(tokens));
}

Vocab Vocab::from_tokens(const std::vector<std::string>& tokens) {
  Vocab vocab;
  for (const auto& token : tokens) {
    if (is_special(token)) continue;
    if (token.empty() || has_separator(token) || vocab.ids_.count(token) != 0) {
      throw std::invalid_argument("Vocab::from_tokens: token '" + token +
                                  "' is empty, has spaces or repeats");
    }
    vocab.ids_.emplace(token, vocab.size());
    vocab.tokens_.push_back(token);
  }
  return vocab;
}

void Vocab::save(const std::string& path) const {
  std::string text;
  for (const auto& token : tokens_) text += token + '\n';
  util::write_file_atomic(path, text);
}

Vocab Vocab::load(const std::string& path) {
  std::vector<std::string> lines = read_lines(path);
  std::unordered_map<std::string, std::size_t> first_line;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    check_line(path, i + 1, lines[i]);
    const auto [it, inserted] = first_line.emplace(lines[i], i + 1);
    if (!inserted) {
      throw InputError(where(path, i + 1) + "duplicate token '" + lines[i] + "' (first on line " +
                       std::to_string(it->second) + ")");
    }
  }
  if (lines.size() < static_cast<std::size_t>(kNumSpecials)) {
    throw InputError(where(path, lines.size() + 1) + "expected special token " +
                     kSpecialTokens[lines.size()] + ", found end of file");
  }
  return Vocab(std::move(lines));
}

int64_t Vocab::id(const std::string& token) const {
  const auto it = ids_.find(token);
  return it == ids_.end() ? kUnk : it->second;
}

const std::string& Vocab::token(int64_t id) const {
  if (id < 0 || id >= size()) {
    throw std::out_of_range("token id " + std::to_string(id) + " outside vocabulary of size " +
                            std::to_string(size()));
  }
  return tokens_[static_cast<std::size_t>(id)];
}

std::vector<int64_t> Vocab::encode(const std::vector<std::string>& tokens, bool add_bos,
                                   bool add_eos) const {
  std::vector<int64_t> ids;
  ids.reserve(tokens.size() + 2);
  if (add_bos) ids.push_back(kBos);
  for (const auto& token : tokens) ids.push_back(id(token));
  if (add_eos) ids.push_back(kEos);
  return ids;
}

std::vector<std::string> Vocab::decode(const std::vector<int64_t>& ids) const {
  std::vector<std::string> tokens;
  for (const int64_t i : ids) {
    if (i == kEos) break;
    if (i == kPad || i == kBos) continue;
    tokens.push_back(token(i));
  }
  return tokens;
}

}  // namespace s2s::data
