// sacreBLEU's tokenizers. Expected outputs were traced by hand through sacreBLEU 2.6.0's rules
// (and agree with its Python code run on the same strings).

#include "metrics/sacre_tokenizers.h"

#include <gtest/gtest.h>

#include <string>

#include "util/error.h"

namespace s2s::metrics {
namespace {

struct TokenizerCase {
  const char* input;
  const char* expected;
};

void expect_tokenizes(const std::string& name, std::initializer_list<TokenizerCase> cases) {
  const auto tokenizer = make_sacre_tokenizer(name);
  for (const TokenizerCase& c : cases) {
    EXPECT_EQ(tokenizer->tokenize_utf8(c.input), c.expected) << name << " on '" << c.input << "'";
  }
}

TEST(Tokenizer13aTest, SplitsAsciiPunctuationAndSymbols) {
  expect_tokenizes("13a", {
                              {"Hello, world!", "Hello , world !"},
                              {"x!?y", "x ! ? y"},
                              {"e-mail: a@b.com", "e-mail : a @ b . com"},
                              {"(1)-(2)", "( 1 ) - ( 2 )"},
                          });
}

TEST(Tokenizer13aTest, KeepsApostrophesAndHyphensInsideWords) {
  expect_tokenizes(
      "13a", {{"It's a well-known man's dog-walker.", "It's a well-known man's dog-walker ."}});
}

TEST(Tokenizer13aTest, PeriodsAndCommasStayInsideNumbers) {
  expect_tokenizes("13a", {
                              {"$1,000.50", "$ 1,000.50"},
                              {"1.5,2", "1.5,2"},
                              // The padding space lets a final period leave a number.
                              {"in 2024.", "in 2024 ."},
                              // "1," is kept by rule 2 but split by rule 3 (',' then '.').
                              {"1,.5", "1 , . 5"},
                              {"5. 6,a", "5 . 6 , a"},
                          });
}

TEST(Tokenizer13aTest, MatchesDoNotOverlap) {
  // ([0-9])(-): "1-" matches, so "-2" cannot; then "2-" and "3" ... as re.sub scans.
  expect_tokenizes("13a", {
                              {"a-1-2-3", "a-1 - 2 - 3"},
                              {"3-4 a-4", "3 - 4 a-4"},
                              {"1..2", "1 . . 2"},
                              {"a..b", "a . . b"},
                              {"...", ". . ."},
                              {".,.,", ". , . ,"},
                          });
}

TEST(Tokenizer13aTest, UnescapesEntitiesAndDropsSkipped) {
  expect_tokenizes("13a", {
                              // "&amp;lt;" -> "&lt;" -> "<": one str.replace after the other.
                              {"a &quot;b&quot; &amp;lt;", "a \" b \" <"},
                              {"x &gt; y", "x > y"},
                              {"a <skipped> b", "a b"},
                              {"well-\nknown a\nb", "wellknown a b"},
                          });
}

TEST(Tokenizer13aTest, LeavesNonAsciiPunctuationAlone) {
  // 'Straße – schnell…': en dash and ellipsis are not in mteval-v13a's ASCII class.
  expect_tokenizes("13a", {{"Stra\xC3\x9F"
                            "e \xE2\x80\x93 schnell\xE2\x80\xA6",
                            "Stra\xC3\x9F"
                            "e \xE2\x80\x93 schnell\xE2\x80\xA6"}});
}

TEST(Tokenizer13aTest, CollapsesUnicodeWhitespace) {
  // U+3000 ideographic space and U+00A0 no-break space are whitespace to str.split().
  expect_tokenizes("13a", {{"  a\xE3\x80\x80\xC2\xA0 b\t", "a b"}, {"", ""}, {"   ", ""}});
}

TEST(TokenizerIntlTest, SplitsUnicodePunctuationAndSymbols) {
  expect_tokenizes("intl", {
                               {"Stra\xC3\x9F"
                                "e \xE2\x80\x93 schnell\xE2\x80\xA6",
                                "Stra\xC3\x9F"
                                "e \xE2\x80\x93 schnell \xE2\x80\xA6"},
                               {"\xC2\xAB"
                                "Bonjour\xC2\xBB 3.5% ~x~",
                                "\xC2\xAB Bonjour \xC2\xBB 3.5 % ~ x ~"},
                               {"He paid $1,000.50", "He paid $ 1,000.50"},
                               {"It's well-known", "It ' s well - known"},
                           });
}

TEST(TokenizerIntlTest, PunctuationNextToDigitsAndNonOverlap) {
  expect_tokenizes("intl", {
                               // No padding: a period after a final number stays (mteval-v14).
                               {"in 2024.", "in 2024."},
                               {"3-4 a-4", "3-4 a - 4"},
                               {"a-1-2-3", "a - 1-2-3"},
                               // ")-" splits; then "(" before a digit does not.
                               {"(1)-(2)", "(1 ) - (2)"},
                               // No entity handling in intl.
                               {"&amp;", "& amp ;"},
                           });
}

TEST(TokenizerCharTest, JoinsEveryCodePointWithSpaces) {
  expect_tokenizes("char",
                   {{"ab c", "a b   c"}, {"\xC3\xA9t\xC3\xA9", "\xC3\xA9 t \xC3\xA9"}, {"", ""}});
}

TEST(TokenizerNoneTest, ReturnsTheLine) {
  expect_tokenizes("none", {{"  Hello, world!  ", "  Hello, world!  "}});
}

TEST(SacreTokenizerRegistryTest, KnowsFourTokenizersByName) {
  for (const std::string& name : sacre_tokenizer_names()) {
    EXPECT_EQ(make_sacre_tokenizer(name)->name(), name);
  }
  EXPECT_EQ(sacre_tokenizer_names().size(), 4u);
}

TEST(SacreTokenizerRegistryTest, UnknownNameListsValidOnes) {
  try {
    make_sacre_tokenizer("moses");
    FAIL() << "expected ConfigError";
  } catch (const ConfigError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("moses"), std::string::npos) << message;
    for (const char* name : {"13a", "intl", "char", "none"}) {
      EXPECT_NE(message.find(name), std::string::npos) << message;
    }
  }
}

TEST(NormalizeSpacesTest, IsPythonsJoinSplit) {
  EXPECT_EQ(normalize_spaces(U" \u2003a \u0085 b\u3000"), U"a b");
  EXPECT_EQ(normalize_spaces(U"a\u200Bb"), U"a\u200Bb");  // zero width space is not a space
}

}  // namespace
}  // namespace s2s::metrics
