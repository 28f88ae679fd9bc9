#include "data/tokenizer.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "util/error.h"

namespace s2s::data {
namespace {

using Tokens = std::vector<std::string>;

Tokens word(const std::string& line, bool lowercase = false) {
  return WordTokenizer(TokenizerOptions{lowercase}).tokenize(line);
}

TEST(TokenizerWordTest, EmptyAndBlankLinesHaveNoTokens) {
  EXPECT_EQ(word(""), Tokens{});
  EXPECT_EQ(word(" \t  \t"), Tokens{});
}

TEST(TokenizerWordTest, SplitsPunctuationFromWords) {
  EXPECT_EQ(word("Le chien."), (Tokens{"Le", "chien", "."}));
  EXPECT_EQ(word("Oui, (non)!"), (Tokens{"Oui", ",", "(", "non", ")", "!"}));
}

TEST(TokenizerWordTest, OnlyPunctuationGivesOneTokenPerCharacter) {
  EXPECT_EQ(word("?!..."), (Tokens{"?", "!", ".", ".", "."}));
  EXPECT_EQ(word("«…»"), (Tokens{"«", "…", "»"}));
}

TEST(TokenizerWordTest, RunsOfSpacesTabsAndUnicodeSpacesSeparate) {
  // U+00A0 no-break space and U+3000 ideographic space are whitespace too.
  EXPECT_EQ(word("  a \t\t b\u00A0c\u3000d  "), (Tokens{"a", "b", "c", "d"}));
}

TEST(TokenizerWordTest, UnicodeLettersAndMarksStayInWords) {
  EXPECT_EQ(word("Café Straße niño Жук 中文"), (Tokens{"Café", "Straße", "niño", "Жук", "中文"}));
  // "é" written as e + U+0301 (combining acute, a mark) is one word.
  EXPECT_EQ(word("e\u0301te\u0301"), Tokens{"e\u0301te\u0301"});
}

TEST(TokenizerWordTest, LowercasesBeforeSplitting) {
  EXPECT_EQ(word("ÉCOLE Straße", /*lowercase=*/true), (Tokens{"école", "straße"}));
  EXPECT_EQ(word("ÉCOLE"), Tokens{"ÉCOLE"});
  // The whole line is lowered at once, so a final capital sigma becomes final sigma (U+03C2).
  EXPECT_EQ(word("ΟΔΟΣ.", /*lowercase=*/true), (Tokens{"οδο\u03C2", "."}));
}

TEST(TokenizerWordTest, DotAndCommaStayBetweenDigitsOnly) {
  EXPECT_EQ(word("3.5 1,000 3.5.2 2."), (Tokens{"3.5", "1,000", "3.5.2", "2", "."}));
  EXPECT_EQ(word("a.5 3,a ,5"), (Tokens{"a", ".", "5", "3", ",", "a", ",", "5"}));
  EXPECT_EQ(word("1..2"), (Tokens{"1", ".", ".", "2"}));
}

TEST(TokenizerWordTest, HyphenStaysBetweenWordCharacters) {
  EXPECT_EQ(word("est-ce vingt-deux t-shirt 3-4"),
            (Tokens{"est-ce", "vingt-deux", "t-shirt", "3-4"}));
  EXPECT_EQ(word("-a a- a--b a - b"),
            (Tokens{"-", "a", "a", "-", "a", "-", "-", "b", "a", "-", "b"}));
}

TEST(TokenizerWordTest, ApostropheBetweenLettersEndsTheToken) {
  EXPECT_EQ(word("l'homme"), (Tokens{"l'", "homme"}));
  EXPECT_EQ(word("qu'elle"), (Tokens{"qu'", "elle"}));
  EXPECT_EQ(word("aujourd'hui"), (Tokens{"aujourd'", "hui"}));
  EXPECT_EQ(word("l\u2019homme"), (Tokens{"l\u2019", "homme"}));
  EXPECT_EQ(word("rock'n'roll"), (Tokens{"rock'", "n'", "roll"}));
  EXPECT_EQ(word("Est-ce qu'il"), (Tokens{"Est-ce", "qu'", "il"}));
}

TEST(TokenizerWordTest, ApostropheNotBetweenLettersIsItsOwnToken) {
  EXPECT_EQ(word("'hello'"), (Tokens{"'", "hello", "'"}));
  EXPECT_EQ(word("dogs' \u2019x"), (Tokens{"dogs", "'", "\u2019", "x"}));
  EXPECT_EQ(word("l'3 3'a"), (Tokens{"l", "'", "3", "3", "'", "a"}));
  EXPECT_EQ(word("''"), (Tokens{"'", "'"}));
}

TEST(TokenizerWordTest, SymbolsAndUnderscoreAreOwnTokens) {
  EXPECT_EQ(word("a_b 50% 5$+x"), (Tokens{"a", "_", "b", "50", "%", "5", "$", "+", "x"}));
  EXPECT_EQ(word("a😀b"), (Tokens{"a", "😀", "b"}));
}

TEST(TokenizerWordTest, InvalidUtf8IsAnInputError) { EXPECT_THROW(word("ab\xFF"), InputError); }

TEST(TokenizerWordTest, DetokenizeAttachesPunctuationQuotesAndElisions) {
  const WordTokenizer t;
  EXPECT_EQ(t.detokenize({}), "");
  EXPECT_EQ(t.detokenize({"l'", "homme", "(", "grand", ")", "a", "50", "%", "!"}),
            "l'homme (grand) a 50%!");
  EXPECT_EQ(t.detokenize({"\"", "a", "\"", "\"", "b", "\"", "c"}), "\"a\" \"b\" c");
  EXPECT_EQ(t.detokenize({"x", "[", "y", "]", "{", "z", "}", ";", "w", ":", "v", "?", "…"}),
            "x [y] {z}; w: v?…");
}

TEST(TokenizerWordTest, DetokenizeInvertsTokenizeOnCanonicalText) {
  const WordTokenizer t;
  const std::vector<std::string> canonical = {
      "Un homme (en rouge) dit \"bonjour\" à l'enfant.",
      "Est-ce qu'elle a 3,5 ans?",
      "Aujourd'hui, il fait 20% de plus…",
      "Il a dit: « oui » [deux fois] {vraiment}!",
      "Wait... what?!",
      "L\u2019homme a 1,000,000 t-shirts; \"super\", dit-il.",
      "Жук и 中文 ne\u0301e 😀",
  };
  for (const auto& text : canonical) EXPECT_EQ(t.detokenize(t.tokenize(text)), text);
}

TEST(TokenizerWhitespaceTest, SplitsOnUnicodeWhitespaceOnly) {
  const WhitespaceTokenizer t;
  EXPECT_EQ(t.tokenize("  chien. \t l'homme\u00A0x\u3000y "),
            (Tokens{"chien.", "l'homme", "x", "y"}));
  EXPECT_EQ(t.tokenize(""), Tokens{});
  EXPECT_EQ(t.detokenize({"a", "b.", "c"}), "a b. c");
}

TEST(TokenizerWhitespaceTest, LowercasesWhenAsked) {
  EXPECT_EQ(WhitespaceTokenizer(TokenizerOptions{true}).tokenize("Élan VITAL"),
            (Tokens{"élan", "vital"}));
}

TEST(TokenizerRegistryTest, MakesEachNamedTokenizer) {
  EXPECT_EQ(tokenizer_names(), (std::vector<std::string>{"sentencepiece", "whitespace", "word"}));
  for (const auto& name : {"whitespace", "word"}) EXPECT_EQ(make_tokenizer(name)->name(), name);
  // A SentencePiece tokenizer needs a model (sentencepiece_test.cpp).
  EXPECT_THROW(make_tokenizer("sentencepiece"), InputError);
  EXPECT_EQ(make_tokenizer("word", TokenizerOptions{true})->tokenize("Le Chien."),
            (Tokens{"le", "chien", "."}));
}

TEST(TokenizerRegistryTest, UnknownNameListsValidOnes) {
  try {
    make_tokenizer("spacy");
    FAIL() << "expected a ConfigError";
  } catch (const ConfigError& e) {
    EXPECT_STREQ(e.what(), "unknown tokenizer 'spacy' (valid: sentencepiece, whitespace, word)");
  }
}

}  // namespace
}  // namespace s2s::data
