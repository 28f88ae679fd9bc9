#include "data/tokenizer.h"

#include <array>
#include <stdexcept>

#include "data/sentencepiece.h"
#include "util/error.h"
#include "util/strings.h"
#include "util/unicode.h"

namespace s2s::data {
namespace {

// Decodes once so that every rule below sees whole code points, never bytes.
std::u32string decode(std::string_view line, bool lowercase) {
  std::u32string text;
  try {
    text = util::utf8_to_u32(line);
  } catch (const std::invalid_argument&) {
    check_utf8(line);  // throws, naming the byte
    throw;
  }
  // Lower-casing the whole line (not token by token) keeps Python's final-sigma rule.
  return lowercase ? util::to_lower(text) : text;
}

bool is_ascii_alnum(char32_t c) {
  return (c >= U'a' && c <= U'z') || (c >= U'A' && c <= U'Z') || (c >= U'0' && c <= U'9');
}

// L*, M* or N*. ASCII is answered without a table search (most text, most of the time), and
// anything else with one category lookup instead of three.
bool is_word_char(char32_t c) {
  if (c < 0x80) return is_ascii_alnum(c);
  const util::Category category = util::category(c);
  return category == util::Category::kLetter || category == util::Category::kMark ||
         category == util::Category::kNumber;
}

bool is_apostrophe(char32_t c) { return c == U'\'' || c == U'\u2019'; }

// End (one past) of the word token that starts at `i`, a word character: rules 2 and 3.
std::size_t word_end(const std::u32string& s, std::size_t i) {
  for (++i; i < s.size(); ++i) {
    const char32_t c = s[i];
    if (is_word_char(c)) continue;
    if (i + 1 == s.size()) break;
    // s[i - 1] is always a word character here: a joiner is only taken with the one after it.
    const char32_t prev = s[i - 1];
    const char32_t next = s[i + 1];
    if (c == U'-' && is_word_char(next)) continue;
    if ((c == U'.' || c == U',') && util::is_number(prev) && util::is_number(next)) continue;
    if (is_apostrophe(c) && util::is_letter(prev) && util::is_letter(next)) return i + 1;
    break;
  }
  return i;
}

bool ends_with(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix.data(), suffix.size()) == 0;
}

bool ends_with_apostrophe(const std::string& token) {
  return ends_with(token, "'") || ends_with(token, "\u2019");
}

// Tokens written without a space before them in canonical text.
bool attaches_left(const std::string& token) {
  static const std::array<std::string_view, 11> kClosing = {".", ",", "!", "?", ";",     ":",
                                                            ")", "]", "}", "%", "\u2026"};
  for (const auto& c : kClosing) {
    if (token == c) return true;
  }
  return false;
}

// Tokens written without a space after them; an elided word ("l'") attaches to the next one.
bool attaches_right(const std::string& token) {
  return token == "(" || token == "[" || token == "{" || ends_with_apostrophe(token);
}

}  // namespace

WhitespaceTokenizer::WhitespaceTokenizer(TokenizerOptions options) : options_(options) {}

std::vector<std::string> WhitespaceTokenizer::tokenize(std::string_view line) const {
  const std::u32string text = decode(line, options_.lowercase);
  std::vector<std::string> tokens;
  std::size_t i = 0;
  while (i < text.size()) {
    if (util::is_space(text[i])) {
      ++i;
      continue;
    }
    std::size_t end = i;
    while (end < text.size() && !util::is_space(text[end])) ++end;
    tokens.push_back(util::u32_to_utf8(std::u32string_view(text).substr(i, end - i)));
    i = end;
  }
  return tokens;
}

std::string WhitespaceTokenizer::detokenize(const std::vector<std::string>& tokens) const {
  return util::join(tokens, " ");
}

std::string WhitespaceTokenizer::name() const { return "whitespace"; }

WordTokenizer::WordTokenizer(TokenizerOptions options) : options_(options) {}

std::vector<std::string> WordTokenizer::tokenize(std::string_view line) const {
  const std::u32string text = decode(line, options_.lowercase);
  const std::u32string_view view(text);
  std::vector<std::string> tokens;
  std::size_t i = 0;
  while (i < text.size()) {
    const char32_t c = text[i];
    if (util::is_space(c)) {
      ++i;
      continue;
    }
    const std::size_t end = is_word_char(c) ? word_end(text, i) : i + 1;
    tokens.push_back(util::u32_to_utf8(view.substr(i, end - i)));
    i = end;
  }
  return tokens;
}

// Canonical form: single spaces, except none before closing punctuation, none after opening
// brackets and elisions, and straight double quotes alternating opening / closing.
std::string WordTokenizer::detokenize(const std::vector<std::string>& tokens) const {
  std::string out;
  bool glue_next = true;  // no space before the first token
  bool quote_open = false;
  for (const auto& token : tokens) {
    const bool is_quote = token == "\"";
    const bool closing_quote = is_quote && quote_open;
    if (!glue_next && !attaches_left(token) && !closing_quote) out += ' ';
    out += token;
    if (is_quote) quote_open = !quote_open;
    glue_next = attaches_right(token) || (is_quote && quote_open);
  }
  return out;
}

std::string WordTokenizer::name() const { return "word"; }

namespace {

struct TokenizerEntry {
  const char* name;
  bool pieces;  // Tokenizer::has_pieces
  std::unique_ptr<Tokenizer> (*make)(const TokenizerOptions&);
};

// The one place that knows every tokenizer; add new ones here.
const std::array<TokenizerEntry, 3> kTokenizers = {{
    {"sentencepiece", true,
     [](const TokenizerOptions& o) -> std::unique_ptr<Tokenizer> {
       return std::make_unique<SentencePieceTokenizer>(o.model, o.model_origin, o);
     }},
    {"whitespace", false,
     [](const TokenizerOptions& o) -> std::unique_ptr<Tokenizer> {
       return std::make_unique<WhitespaceTokenizer>(o);
     }},
    {"word", false,
     [](const TokenizerOptions& o) -> std::unique_ptr<Tokenizer> {
       return std::make_unique<WordTokenizer>(o);
     }},
}};

}  // namespace

void check_utf8(std::string_view line) {
  std::size_t bad = 0;
  if (!util::is_valid_utf8(line, &bad)) {
    throw InputError("tokenizer input: invalid UTF-8 at byte " + std::to_string(bad + 1));
  }
}

std::vector<std::string> tokenizer_names() {
  std::vector<std::string> names;
  for (const auto& entry : kTokenizers) names.emplace_back(entry.name);
  return names;
}

bool tokenizer_has_pieces(const std::string& name) {
  for (const auto& entry : kTokenizers) {
    if (name == entry.name) return entry.pieces;
  }
  return false;
}

std::unique_ptr<Tokenizer> make_tokenizer(const std::string& name,
                                          const TokenizerOptions& options) {
  for (const auto& entry : kTokenizers) {
    if (name == entry.name) return entry.make(options);
  }
  throw ConfigError("unknown tokenizer '" + name +
                    "' (valid: " + util::join(tokenizer_names(), ", ") + ")");
}

}  // namespace s2s::data
