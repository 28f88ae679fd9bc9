#include "data/vocab.h"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

#include "support/temp_dir.h"
#include "util/error.h"

namespace s2s::data {
namespace {

using Tokens = std::vector<std::string>;
const Tokens kSpecials = {"<pad>", "<unk>", "<s>", "</s>"};

Tokens with_specials(const Tokens& rest) {
  Tokens all = kSpecials;
  all.insert(all.end(), rest.begin(), rest.end());
  return all;
}

// a: 3, c: 2, b: 1, d: 1.
const std::vector<Tokens> kSentences = {{"b", "a", "c", "a"}, {"c", "a", "d"}};

class VocabTest : public test_support::TempDirTest {
 protected:
  // Expects Vocab::load(path) to fail with exactly "PATH:" + `rest`.
  void expect_load_error(const std::string& contents, const std::string& rest) const {
    const std::string path = write("bad.vocab", contents);
    try {
      Vocab::load(path);
      ADD_FAILURE() << "expected an InputError for: " << rest;
    } catch (const InputError& e) {
      EXPECT_EQ(e.what(), path + ":" + rest);
    }
  }
};

TEST_F(VocabTest, SpecialsComeFirst) {
  const Vocab v;
  EXPECT_EQ(v.size(), 4);
  EXPECT_EQ(v.tokens(), kSpecials);
  EXPECT_EQ(v.id("<pad>"), Vocab::kPad);
  EXPECT_EQ(v.id("<unk>"), Vocab::kUnk);
  EXPECT_EQ(v.id("<s>"), Vocab::kBos);
  EXPECT_EQ(v.id("</s>"), Vocab::kEos);
}

TEST_F(VocabTest, BuildOrdersByFrequencyThenBytes) {
  const Vocab v = Vocab::build(kSentences);
  EXPECT_EQ(v.tokens(), with_specials({"a", "c", "b", "d"}));
  EXPECT_EQ(v.id("a"), 4);
  EXPECT_EQ(v.id("d"), 7);
  EXPECT_EQ(v.token(5), "c");
}

TEST_F(VocabTest, TiesAreBrokenBytewise) {
  // Bytewise: "B" (0x42) < "a" < "b" < "é" (0xC3 0xA9); the input order does not matter.
  const Vocab v1 = Vocab::build({{"é", "b", "a", "B"}});
  const Vocab v2 = Vocab::build({{"B"}, {"a", "é"}, {"b"}});
  EXPECT_EQ(v1.tokens(), with_specials({"B", "a", "b", "é"}));
  EXPECT_EQ(v2.tokens(), v1.tokens());
}

TEST_F(VocabTest, MinFreqDropsRareTokens) {
  EXPECT_EQ(Vocab::build(kSentences, {2, 0}).tokens(), with_specials({"a", "c"}));
  EXPECT_EQ(Vocab::build(kSentences, {4, 0}).tokens(), kSpecials);
}

TEST_F(VocabTest, MaxSizeCountsTheSpecials) {
  EXPECT_EQ(Vocab::build(kSentences, {1, 5}).tokens(), with_specials({"a"}));
  EXPECT_EQ(Vocab::build(kSentences, {1, 4}).tokens(), kSpecials);
  EXPECT_EQ(Vocab::build(kSentences, {1, 100}).size(), 8);
}

TEST_F(VocabTest, LiteralSpecialsInTheCorpusAreNotAddedTwice) {
  const Vocab v = Vocab::build({{"<unk>", "x", "</s>", "<unk>"}});
  EXPECT_EQ(v.tokens(), with_specials({"x"}));
}

TEST_F(VocabTest, BadOptionsAreConfigErrors) {
  EXPECT_THROW(Vocab::build(kSentences, {0, 0}), ConfigError);
  EXPECT_THROW(Vocab::build(kSentences, {1, 3}), ConfigError);
  EXPECT_THROW(Vocab::build(kSentences, {1, -1}), ConfigError);
}

TEST_F(VocabTest, UnknownTokensMapToUnkAndBadIdsThrow) {
  const Vocab v = Vocab::build(kSentences);
  EXPECT_EQ(v.id("zebra"), Vocab::kUnk);
  EXPECT_THROW(v.token(8), std::out_of_range);
  EXPECT_THROW(v.token(-1), std::out_of_range);
}

TEST_F(VocabTest, EncodeAddsBosAndEosOnRequest) {
  const Vocab v = Vocab::build(kSentences);
  EXPECT_EQ(v.encode({"a", "zebra", "d"}, true, true), (std::vector<int64_t>{2, 4, 1, 7, 3}));
  EXPECT_EQ(v.encode({"a", "zebra", "d"}, false, false), (std::vector<int64_t>{4, 1, 7}));
  EXPECT_EQ(v.encode({}, false, true), (std::vector<int64_t>{3}));
}

TEST_F(VocabTest, DecodeStopsAtEosAndSkipsPadAndBos) {
  const Vocab v = Vocab::build(kSentences);
  EXPECT_EQ(v.decode({2, 4, 0, 1, 5, 3, 6}), (Tokens{"a", "<unk>", "c"}));
  EXPECT_EQ(v.decode({3, 4}), Tokens{});
  EXPECT_THROW(v.decode({99}), std::out_of_range);
}

TEST_F(VocabTest, SaveLoadRoundTrip) {
  const Vocab v = Vocab::build({{"é", "l'", "中", "l'"}});
  const std::string path = (dir_ / "v.txt").string();
  v.save(path);
  std::ifstream in(path, std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text, "<pad>\n<unk>\n<s>\n</s>\nl'\né\n中\n");  // é is C3 A9, 中 E4 B8 AD
  const Vocab loaded = Vocab::load(path);
  EXPECT_EQ(loaded.tokens(), v.tokens());
  EXPECT_EQ(loaded.id("中"), 6);
}

TEST_F(VocabTest, LoadAcceptsCrlfAndTrailingBlankLines) {
  const Vocab v = Vocab::load(write("crlf.vocab", "<pad>\r\n<unk>\r\n<s>\r\n</s>\r\nx\r\n\r\n"));
  EXPECT_EQ(v.tokens(), with_specials({"x"}));
}

TEST_F(VocabTest, LoadRejectsMissingOrMisplacedSpecials) {
  expect_load_error("a\n<unk>\n<s>\n</s>\n",
                    "1: expected special token <pad>, found 'a' (a vocabulary starts with <pad> "
                    "<unk> <s> </s>)");
  expect_load_error("<pad>\n<s>\n<unk>\n</s>\n",
                    "2: expected special token <unk>, found '<s>' (a vocabulary starts with "
                    "<pad> <unk> <s> </s>)");
  expect_load_error("<pad>\n<unk>\n", "3: expected special token <s>, found end of file");
}

TEST_F(VocabTest, LoadRejectsDuplicatesEmptyTokensAndWhitespace) {
  expect_load_error("<pad>\n<unk>\n<s>\n</s>\nx\ny\nx\n",
                    "7: duplicate token 'x' (first on line 5)");
  expect_load_error("<pad>\n<unk>\n<s>\n</s>\nx\n\ny\n", "6: empty token");
  expect_load_error("<pad>\n<unk>\n<s>\n</s>\na b\n", "5: token 'a b' contains whitespace");
  expect_load_error("<pad>\n<unk>\n<s>\n</s>\nx\ta\n", "5: token 'x\ta' contains whitespace");
  expect_load_error("<pad>\n<unk>\n<s>\n</s>\na\u2028b\n",
                    "5: token 'a\u2028b' contains whitespace");
}

// SentencePiece keeps U+00A0 (Multi30k has it) as a character of its pieces: such a
// vocabulary is built, saved and loaded like any other.
TEST_F(VocabTest, NoBreakSpaceInsideAPieceIsACharacter) {
  const Vocab vocab = Vocab::from_tokens({"\u2581nummer\u00A0", "\u00A0", "\u2581x"});
  EXPECT_EQ(vocab.size(), Vocab::kNumSpecials + 3);
  const std::string path = (dir_ / "pieces.vocab").string();
  vocab.save(path);
  const Vocab loaded = Vocab::load(path);
  EXPECT_EQ(loaded.id("\u00A0"), Vocab::kNumSpecials + 1);
  EXPECT_THROW(Vocab::from_tokens({"a b"}), std::invalid_argument);
  EXPECT_THROW(Vocab::from_tokens({"a\tb"}), std::invalid_argument);
}

TEST_F(VocabTest, LoadOfMissingFileNamesThePath) {
  const std::string path = (dir_ / "missing.vocab").string();
  try {
    Vocab::load(path);
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind(path + ": cannot open", 0), 0u) << e.what();
  }
}

}  // namespace
}  // namespace s2s::data
