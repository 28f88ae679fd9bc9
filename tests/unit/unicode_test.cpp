// Unicode helpers: UTF-8 validation and conversion, categories, whitespace and lower-casing as
// Python 3 sees them (expected values checked against CPython's str methods and unicodedata).

#include "util/unicode.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

namespace s2s::util {
namespace {

TEST(Utf8Test, RoundTripsOneToFourByteSequences) {
  // a (1 byte), é U+00E9 (2), € U+20AC (3), 😀 U+1F600 (4).
  const std::string text = "a\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80";
  const std::u32string decoded = utf8_to_u32(text);
  EXPECT_EQ(decoded, (std::u32string{U'a', 0xE9, 0x20AC, 0x1F600}));
  EXPECT_EQ(u32_to_utf8(decoded), text);
  EXPECT_TRUE(is_valid_utf8(text));
  EXPECT_TRUE(is_valid_utf8(""));
}

TEST(Utf8Test, AppendsBoundaryCodePoints) {
  std::string out;
  for (const char32_t c : {char32_t{0x7F}, char32_t{0x80}, char32_t{0x7FF}, char32_t{0x800},
                           char32_t{0xFFFF}, char32_t{0x10000}, char32_t{0x10FFFF}}) {
    out.clear();
    append_utf8(out, c);
    EXPECT_EQ(utf8_to_u32(out), std::u32string(1, c)) << std::hex << static_cast<unsigned>(c);
  }
}

struct InvalidCase {
  const char* name;
  std::string bytes;
  std::size_t bad_offset;
};

TEST(Utf8Test, RejectsInvalidSequencesAndReportsWhere) {
  const InvalidCase cases[] = {
      {"stray continuation byte", "ab\x80", 2},
      {"overlong 2-byte '/'", "\xC0\xAF", 0},
      {"overlong 3-byte '/'", "x\xE0\x80\xAF", 1},
      {"overlong 4-byte", "\xF0\x80\x80\xAF", 0},
      {"surrogate U+D800", "ok\xED\xA0\x80", 2},
      {"beyond U+10FFFF", "\xF4\x90\x80\x80", 0},
      {"lead byte 0xFF", "\xFF", 0},
      {"truncated 3-byte at end", "a\xE2\x82", 1},
      {"truncated 2-byte before ASCII",
       "\xC3"
       "a",
       0},
  };
  for (const InvalidCase& c : cases) {
    std::size_t offset = 999;
    EXPECT_FALSE(is_valid_utf8(c.bytes, &offset)) << c.name;
    EXPECT_EQ(offset, c.bad_offset) << c.name;
    EXPECT_THROW(utf8_to_u32(c.bytes), std::invalid_argument) << c.name;
  }
}

TEST(CategoryTest, MajorClassesMatchUnicodedata) {
  EXPECT_EQ(category(U'A'), Category::kLetter);
  EXPECT_EQ(category(0xE9), Category::kLetter);    // é
  EXPECT_EQ(category(0x4E2D), Category::kLetter);  // 中
  EXPECT_EQ(category(0x0301), Category::kMark);    // combining acute
  EXPECT_EQ(category(U'7'), Category::kNumber);
  EXPECT_EQ(category(0xBD), Category::kNumber);    // ½ (No)
  EXPECT_EQ(category(0x0663), Category::kNumber);  // Arabic-Indic three (Nd)
  EXPECT_EQ(category(0x216B), Category::kNumber);  // Roman numeral twelve (Nl)
  EXPECT_EQ(category(U'.'), Category::kPunctuation);
  EXPECT_EQ(category(0x2013), Category::kPunctuation);  // en dash (Pd)
  EXPECT_EQ(category(0x2026), Category::kPunctuation);  // ellipsis (Po)
  EXPECT_EQ(category(0xAB), Category::kPunctuation);    // « (Pi)
  EXPECT_EQ(category(U'$'), Category::kSymbol);
  EXPECT_EQ(category(U'+'), Category::kSymbol);
  EXPECT_EQ(category(U'^'), Category::kSymbol);     // Sk
  EXPECT_EQ(category(0x20AC), Category::kSymbol);   // €
  EXPECT_EQ(category(0x1F600), Category::kSymbol);  // 😀
  EXPECT_EQ(category(U' '), Category::kSeparator);
  EXPECT_EQ(category(0x2028), Category::kSeparator);  // line separator (Zl)
  EXPECT_EQ(category(U'\n'), Category::kOther);       // Cc
  EXPECT_EQ(category(0x200B), Category::kOther);      // zero width space (Cf)
  EXPECT_EQ(category(0x0378), Category::kOther);      // unassigned
  EXPECT_EQ(category(0x10FFFF), Category::kOther);
}

TEST(CategoryTest, PredicatesAgreeWithCategory) {
  EXPECT_TRUE(is_letter(U'z'));
  EXPECT_TRUE(is_mark(0x0308));
  EXPECT_TRUE(is_number(U'0'));
  EXPECT_TRUE(is_number(0xB2));  // superscript two
  EXPECT_FALSE(is_number(U'a'));
  EXPECT_TRUE(is_punctuation(U'!'));
  EXPECT_FALSE(is_punctuation(U'$'));
  EXPECT_TRUE(is_symbol(U'~'));
  EXPECT_FALSE(is_symbol(U'-'));
}

TEST(SpaceTest, MatchesPythonIsspace) {
  for (const char32_t c :
       {char32_t{' '}, char32_t{'\t'}, char32_t{'\n'}, char32_t{0x0B}, char32_t{0x0C},
        char32_t{'\r'}, char32_t{0x1C}, char32_t{0x1F}, char32_t{0x85}, char32_t{0xA0},
        char32_t{0x1680}, char32_t{0x2000}, char32_t{0x200A}, char32_t{0x2028}, char32_t{0x2029},
        char32_t{0x202F}, char32_t{0x205F}, char32_t{0x3000}}) {
    EXPECT_TRUE(is_space(c)) << std::hex << static_cast<unsigned>(c);
  }
  // Zero width space, BOM, Mongolian vowel separator: not whitespace to Python.
  for (const char32_t c :
       {char32_t{'a'}, char32_t{0x200B}, char32_t{0xFEFF}, char32_t{0x180E}, char32_t{0x1B}}) {
    EXPECT_FALSE(is_space(c)) << std::hex << static_cast<unsigned>(c);
  }
}

TEST(LowerTest, SimpleMappings) {
  EXPECT_EQ(to_lower(std::string_view("Hello, WORLD 42")), "hello, world 42");
  EXPECT_EQ(to_lower(std::string_view("\xC3\x80\xC3\x89\xC3\x8E")),
            "\xC3\xA0\xC3\xA9\xC3\xAE");                                      // ÀÉÎ -> àéî
  EXPECT_EQ(to_lower(std::u32string(1, 0x0100)), std::u32string(1, 0x0101));  // stride-2 run
  EXPECT_EQ(to_lower(std::u32string(1, 0x1E9E)), std::u32string(1, 0xDF));    // ẞ -> ß
  EXPECT_EQ(to_lower(std::u32string(1, 0x212A)), U"k");                       // Kelvin sign
  EXPECT_EQ(to_lower(std::u32string(1, 0x216B)), std::u32string(1, 0x217B));  // Ⅻ -> ⅻ
  EXPECT_EQ(to_lower(std::u32string(1, 0x24B6)), std::u32string(1, 0x24D0));  // Ⓐ -> ⓐ
  EXPECT_EQ(to_lower(std::u32string(1, 0x13A0)), std::u32string(1, 0xAB70));  // Cherokee Ꭰ
  EXPECT_EQ(to_lower(std::u32string(1, 0xDF)), std::u32string(1, 0xDF));      // ß stays
}

TEST(LowerTest, DottedCapitalIBecomesTwoCodePoints) {
  // 'İx'.lower() == 'i\u0307x'
  EXPECT_EQ(to_lower(std::u32string{0x130, U'x'}), (std::u32string{U'i', 0x307, U'x'}));
}

TEST(LowerTest, FinalSigmaFollowsCPython) {
  const char32_t kCapital = 0x3A3;
  const char32_t kSmall = 0x3C3;
  const char32_t kFinal = 0x3C2;
  const char32_t kAlpha = 0x391;
  const char32_t kAlphaSmall = 0x3B1;
  // 'ΣΑΣ' -> 'σας': nothing cased before the first sigma; nothing after the last.
  EXPECT_EQ(to_lower(std::u32string{kCapital, kAlpha, kCapital}),
            (std::u32string{kSmall, kAlphaSmall, kFinal}));
  // 'ΑΣ.' -> 'ας.': the period is case-ignorable, then the end.
  EXPECT_EQ(to_lower(std::u32string{kAlpha, kCapital, U'.'}),
            (std::u32string{kAlphaSmall, kFinal, U'.'}));
  // "ΑΣ'Α" -> "ασ'α": the apostrophe is skipped and a cased letter follows.
  EXPECT_EQ(to_lower(std::u32string{kAlpha, kCapital, U'\'', kAlpha}),
            (std::u32string{kAlphaSmall, kSmall, U'\'', kAlphaSmall}));
  // "'Σ" -> "'σ": only case-ignorable code points before it.
  EXPECT_EQ(to_lower(std::u32string{U'\'', kCapital}), (std::u32string{U'\'', kSmall}));
  // 'A Σ' -> 'a σ': a space is neither cased nor case-ignorable.
  EXPECT_EQ(to_lower(std::u32string{U'A', U' ', kCapital}), (std::u32string{U'a', U' ', kSmall}));
  // A lone 'Σ' -> 'σ'.
  EXPECT_EQ(to_lower(std::u32string{kCapital}), std::u32string{kSmall});
  // 'ΟΔΟΣ ΣΑΣ' words: final sigma at the end of each word.
  EXPECT_EQ(to_lower(std::string_view("\xCE\x9F\xCE\x94\xCE\x9F\xCE\xA3 \xCE\xA3\xCE\x91\xCE\xA3")),
            "\xCE\xBF\xCE\xB4\xCE\xBF\xCF\x82 \xCF\x83\xCE\xB1\xCF\x82");
}

TEST(LowerTest, InvalidUtf8Throws) {
  EXPECT_THROW(to_lower(std::string_view("\xC3")), std::invalid_argument);
}

}  // namespace
}  // namespace s2s::util
