#include "util/unicode.h"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <stdexcept>

namespace s2s::util {
namespace {

// Row types of the generated tables (src/util/unicode_tables.inc).
struct CategoryRange {
  char32_t first;
  char32_t last;
  Category category;
};

struct CodePointRange {
  char32_t first;
  char32_t last;
};

// Maps first, first + stride, ..., last to c + delta.
struct LowerRange {
  char32_t first;
  char32_t last;
  std::int32_t stride;
  std::int32_t delta;
};

struct SpecialLower {
  char32_t code_point;
  char32_t lower[3];
  std::size_t size;
};

constexpr Category kL = Category::kLetter;
constexpr Category kM = Category::kMark;
constexpr Category kN = Category::kNumber;
constexpr Category kP = Category::kPunctuation;
constexpr Category kS = Category::kSymbol;
constexpr Category kZ = Category::kSeparator;

#include "util/unicode_tables.inc"

constexpr char32_t kMaxCodePoint = 0x10FFFF;
constexpr char32_t kCapitalSigma = 0x03A3;
constexpr char32_t kSmallSigma = 0x03C3;
constexpr char32_t kFinalSigma = 0x03C2;

// The range of a sorted, disjoint table whose `first` is the last one <= c, or nullptr.
template <typename Row, std::size_t N>
const Row* find_range(const Row (&table)[N], char32_t c) {
  const Row* it =
      std::upper_bound(std::begin(table), std::end(table), c,
                       [](char32_t value, const Row& row) { return value < row.first; });
  if (it == std::begin(table)) return nullptr;
  --it;
  return c <= it->last ? it : nullptr;
}

template <std::size_t N>
bool in_ranges(const CodePointRange (&table)[N], char32_t c) {
  return find_range(table, c) != nullptr;
}

bool is_case_ignorable(char32_t c) { return in_ranges(kCaseIgnorableRanges, c); }
bool is_cased(char32_t c) { return in_ranges(kCasedRanges, c); }

// CPython's handle_capital_sigma: U+03A3 at `i` becomes final sigma when a cased letter precedes
// it and none follows, skipping case-ignorable code points on both sides.
char32_t lower_capital_sigma(std::u32string_view s, std::size_t i) {
  std::size_t j = i;
  while (j > 0 && is_case_ignorable(s[j - 1])) --j;
  if (j == 0 || !is_cased(s[j - 1])) return kSmallSigma;
  j = i + 1;
  while (j < s.size() && is_case_ignorable(s[j])) ++j;
  return j == s.size() || !is_cased(s[j]) ? kFinalSigma : kSmallSigma;
}

// Appends str.lower() of the single code point c (no final sigma context).
void append_lower(std::u32string& out, char32_t c) {
  if (c < 0x80) {
    out.push_back(c >= U'A' && c <= U'Z' ? c + 0x20 : c);
    return;
  }
  for (const SpecialLower& special : kSpecialLowers) {
    if (special.code_point == c) {
      out.append(special.lower, special.size);
      return;
    }
  }
  const LowerRange* range = find_range(kLowerRanges, c);
  if (range != nullptr && (c - range->first) % static_cast<char32_t>(range->stride) == 0) {
    out.push_back(static_cast<char32_t>(static_cast<std::int64_t>(c) + range->delta));
    return;
  }
  out.push_back(c);
}

// Length of the UTF-8 sequence starting at s[i], or 0 if it is invalid (overlong, surrogate,
// beyond U+10FFFF, truncated, or a stray continuation byte). Stores the code point in *out.
std::size_t decode_one(std::string_view s, std::size_t i, char32_t* out) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char b0 = byte(i);
  if (b0 < 0x80) {
    *out = b0;
    return 1;
  }
  std::size_t length = 0;
  char32_t c = 0;
  char32_t min_value = 0;
  if ((b0 & 0xE0) == 0xC0) {
    length = 2;
    c = b0 & 0x1Fu;
    min_value = 0x80;
  } else if ((b0 & 0xF0) == 0xE0) {
    length = 3;
    c = b0 & 0x0Fu;
    min_value = 0x800;
  } else if ((b0 & 0xF8) == 0xF0) {
    length = 4;
    c = b0 & 0x07u;
    min_value = 0x10000;
  } else {
    return 0;
  }
  if (i + length > s.size()) return 0;
  for (std::size_t k = 1; k < length; ++k) {
    const unsigned char b = byte(i + k);
    if ((b & 0xC0) != 0x80) return 0;
    c = (c << 6) | (b & 0x3Fu);
  }
  if (c < min_value || c > kMaxCodePoint || (c >= 0xD800 && c <= 0xDFFF)) return 0;
  *out = c;
  return length;
}

}  // namespace

Category category(char32_t c) {
  const CategoryRange* range = find_range(kCategoryRanges, c);
  return range != nullptr ? range->category : Category::kOther;
}

bool is_letter(char32_t c) { return category(c) == Category::kLetter; }
bool is_mark(char32_t c) { return category(c) == Category::kMark; }
bool is_number(char32_t c) {
  if (c < 0x80) return c >= U'0' && c <= U'9';
  return category(c) == Category::kNumber;
}
bool is_punctuation(char32_t c) { return category(c) == Category::kPunctuation; }
bool is_symbol(char32_t c) { return category(c) == Category::kSymbol; }

bool is_space(char32_t c) {
  if (c < 0x80) return c == U' ' || (c >= 0x09 && c <= 0x0D) || (c >= 0x1C && c <= 0x1F);
  return in_ranges(kSpaceRanges, c);
}

bool is_valid_utf8(std::string_view s, std::size_t* bad_offset) {
  std::size_t i = 0;
  char32_t c = 0;
  while (i < s.size()) {
    const std::size_t length = decode_one(s, i, &c);
    if (length == 0) {
      if (bad_offset != nullptr) *bad_offset = i;
      return false;
    }
    i += length;
  }
  return true;
}

std::u32string utf8_to_u32(std::string_view s) {
  std::u32string out;
  out.reserve(s.size());
  std::size_t i = 0;
  char32_t c = 0;
  while (i < s.size()) {
    const std::size_t length = decode_one(s, i, &c);
    if (length == 0) {
      throw std::invalid_argument("invalid UTF-8 at byte " + std::to_string(i));
    }
    out.push_back(c);
    i += length;
  }
  return out;
}

void append_utf8(std::string& out, char32_t c) {
  const auto put = [&](char32_t bits) { out.push_back(static_cast<char>(bits)); };
  if (c < 0x80) {
    put(c);
  } else if (c < 0x800) {
    put(0xC0 | (c >> 6));
    put(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    put(0xE0 | (c >> 12));
    put(0x80 | ((c >> 6) & 0x3F));
    put(0x80 | (c & 0x3F));
  } else {
    put(0xF0 | (c >> 18));
    put(0x80 | ((c >> 12) & 0x3F));
    put(0x80 | ((c >> 6) & 0x3F));
    put(0x80 | (c & 0x3F));
  }
}

std::string u32_to_utf8(std::u32string_view s) {
  std::string out;
  out.reserve(s.size());
  for (const char32_t c : s) append_utf8(out, c);
  return out;
}

std::u32string to_lower(std::u32string_view s) {
  std::u32string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == kCapitalSigma) {
      out.push_back(lower_capital_sigma(s, i));
    } else {
      append_lower(out, s[i]);
    }
  }
  return out;
}

std::string to_lower(std::string_view utf8) { return u32_to_utf8(to_lower(utf8_to_u32(utf8))); }

}  // namespace s2s::util
