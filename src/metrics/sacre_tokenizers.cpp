#include "metrics/sacre_tokenizers.h"

#include <string>

#include "util/error.h"
#include "util/strings.h"
#include "util/unicode.h"

namespace s2s::metrics {
namespace {

using util::is_number;
using util::is_punctuation;
using util::is_space;
using util::is_symbol;

// str.replace(from, to): every non-overlapping occurrence, left to right.
void replace_all(std::u32string& s, std::u32string_view from, std::u32string_view to) {
  std::size_t pos = s.find(from);
  if (pos == std::u32string::npos) return;
  std::u32string out;
  out.reserve(s.size());
  std::size_t start = 0;
  for (; pos != std::u32string::npos; pos = s.find(from, start)) {
    out.append(s, start, pos - start);
    out.append(to);
    start = pos + from.size();
  }
  out.append(s, start, std::u32string::npos);
  s = std::move(out);
}

// re.sub for a one-code-point pattern `(X)`: every code point matching `match` is replaced by
// `emit(out, c)`.
template <typename Match, typename Emit>
std::u32string sub_one(std::u32string_view s, Match match, Emit emit) {
  std::u32string out;
  out.reserve(s.size() * 2);
  for (const char32_t c : s) {
    if (match(c)) {
      emit(out, c);
    } else {
      out.push_back(c);
    }
  }
  return out;
}

// re.sub for a two-code-point pattern `(X)(Y)`. Matches never overlap: after a match at i the
// search resumes at i + 2, so in "a.." only "a." matches, not the second ".".
template <typename MatchFirst, typename MatchSecond, typename Emit>
std::u32string sub_pair(std::u32string_view s, MatchFirst first, MatchSecond second, Emit emit) {
  std::u32string out;
  out.reserve(s.size() * 2);
  std::size_t i = 0;
  while (i < s.size()) {
    if (i + 1 < s.size() && first(s[i]) && second(s[i + 1])) {
      emit(out, s[i], s[i + 1]);
      i += 2;
    } else {
      out.push_back(s[i]);
      ++i;
    }
  }
  return out;
}

// Replacement templates: r'\1 \2 ', r' \1 \2', r' \1 '.
void emit_a_space_b_space(std::u32string& out, char32_t a, char32_t b) {
  out.push_back(a);
  out.push_back(U' ');
  out.push_back(b);
  out.push_back(U' ');
}
void emit_space_a_space_b(std::u32string& out, char32_t a, char32_t b) {
  out.push_back(U' ');
  out.push_back(a);
  out.push_back(U' ');
  out.push_back(b);
}
void emit_space_a_space(std::u32string& out, char32_t a) {
  out.push_back(U' ');
  out.push_back(a);
  out.push_back(U' ');
}

// Python's [0-9] is ASCII only, unlike \d.
bool is_ascii_digit(char32_t c) { return c >= U'0' && c <= U'9'; }
bool is_not_ascii_digit(char32_t c) { return !is_ascii_digit(c); }
bool is_period_or_comma(char32_t c) { return c == U'.' || c == U','; }
bool is_dash(char32_t c) { return c == U'-'; }

// The class [\{-\~\[-\` -\&\(-\+\:-\@\/] of mteval-v13a: ASCII symbols and punctuation except
// the apostrophe, comma, hyphen and period (and the space, which the class also holds).
bool is_13a_split(char32_t c) {
  return (c >= U'{' && c <= U'~') || (c >= U'[' && c <= U'`') || (c >= U' ' && c <= U'&') ||
         (c >= U'(' && c <= U'+') || (c >= U':' && c <= U'@') || c == U'/';
}

class Tokenizer13a : public SacreTokenizer {
 public:
  std::string name() const override { return "13a"; }

  std::u32string tokenize(std::u32string_view line) const override {
    // Language-independent part, one str.replace after the other.
    std::u32string s(line);
    replace_all(s, U"<skipped>", U"");
    replace_all(s, U"-\n", U"");
    replace_all(s, U"\n", U" ");
    replace_all(s, U"&quot;", U"\"");
    replace_all(s, U"&amp;", U"&");
    replace_all(s, U"&lt;", U"<");
    replace_all(s, U"&gt;", U">");
    // Padding lets a sentence-final period split off a number (mteval's " $norm_text ").
    s = U" " + s + U" ";
    s = sub_one(s, is_13a_split, emit_space_a_space);
    // Periods and commas split off unless preceded by a digit ...
    s = sub_pair(s, is_not_ascii_digit, is_period_or_comma, emit_a_space_b_space);
    // ... or unless followed by a digit.
    s = sub_pair(s, is_period_or_comma, is_not_ascii_digit, emit_space_a_space_b);
    // A dash after a digit.
    s = sub_pair(s, is_ascii_digit, is_dash, emit_a_space_b_space);
    return normalize_spaces(s);
  }
};

// No padding here, so "in 2024." keeps its period, as in mteval-v14.pl.
class TokenizerIntl : public SacreTokenizer {
 public:
  std::string name() const override { return "intl"; }

  std::u32string tokenize(std::u32string_view line) const override {
    const auto not_number = [](char32_t c) { return !is_number(c); };
    const auto punctuation = [](char32_t c) { return is_punctuation(c); };
    // (\P{N})(\p{P}) -> r'\1 \2 ': punctuation preceded by a non-digit.
    std::u32string s = sub_pair(line, not_number, punctuation, emit_a_space_b_space);
    // (\p{P})(\P{N}) -> r' \1 \2': punctuation followed by a non-digit.
    s = sub_pair(s, punctuation, not_number, emit_space_a_space_b);
    // (\p{S}) -> r' \1 ': every symbol.
    s = sub_one(
        s, [](char32_t c) { return is_symbol(c); }, emit_space_a_space);
    return normalize_spaces(s);
  }
};

class TokenizerChar : public SacreTokenizer {
 public:
  std::string name() const override { return "char"; }

  // " ".join(line): whitespace stays in; BLEU's split() removes it.
  std::u32string tokenize(std::u32string_view line) const override {
    std::u32string out;
    out.reserve(line.size() * 2);
    for (const char32_t c : line) {
      if (!out.empty()) out.push_back(U' ');
      out.push_back(c);
    }
    return out;
  }
};

class TokenizerNone : public SacreTokenizer {
 public:
  std::string name() const override { return "none"; }
  std::u32string tokenize(std::u32string_view line) const override { return std::u32string(line); }
};

}  // namespace

std::string SacreTokenizer::tokenize_utf8(std::string_view line) const {
  return util::u32_to_utf8(tokenize(util::utf8_to_u32(line)));
}

namespace {

template <class T>
std::unique_ptr<SacreTokenizer> make() {
  return std::make_unique<T>();
}

struct SacreTokenizerSpec {
  const char* name;
  std::unique_ptr<SacreTokenizer> (*make)();
};

// The registry, in the order sacreBLEU lists the tokenizers.
const std::vector<SacreTokenizerSpec>& registry() {
  static const std::vector<SacreTokenizerSpec> specs = {{"none", make<TokenizerNone>},
                                                        {"13a", make<Tokenizer13a>},
                                                        {"char", make<TokenizerChar>},
                                                        {"intl", make<TokenizerIntl>}};
  return specs;
}

}  // namespace

const std::vector<std::string>& sacre_tokenizer_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const auto& spec : registry()) out.emplace_back(spec.name);
    return out;
  }();
  return names;
}

std::unique_ptr<SacreTokenizer> make_sacre_tokenizer(const std::string& name) {
  for (const auto& spec : registry()) {
    if (name == spec.name) return spec.make();
  }
  throw ConfigError("unknown sacreBLEU tokenizer '" + name +
                    "' (valid: " + util::join(sacre_tokenizer_names(), ", ") + ")");
}

std::u32string normalize_spaces(std::u32string_view s) {
  std::u32string out;
  out.reserve(s.size());
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && is_space(s[i])) ++i;
    if (i == s.size()) break;
    if (!out.empty()) out.push_back(U' ');
    while (i < s.size() && !is_space(s[i])) out.push_back(s[i++]);
  }
  return out;
}

}  // namespace s2s::metrics
