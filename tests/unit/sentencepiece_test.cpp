// SentencePiece tokenization: text comes back exactly from its pieces, training is
// deterministic, unseen characters and empty lines are handled, bad model files are one-line
// errors, and the vocabulary is the model's pieces.

#include "data/sentencepiece.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "data/corpus.h"
#include "data/vocab.h"
#include "support/shared_dir.h"
#include "support/temp_dir.h"
#include "util/error.h"

namespace s2s::data {
namespace {

std::vector<std::string> both_sides(const std::string& prefix, const std::string& src,
                                    const std::string& tgt) {
  auto lines = read_lines(prefix + "." + src);
  const auto other = read_lines(prefix + "." + tgt);
  lines.insert(lines.end(), other.begin(), other.end());
  return lines;
}

std::string bundled_model(const std::string& type = "unigram") {
  SentencePieceOptions options;
  options.vocab_size = 2000;
  options.model_type = type;
  return train_sentencepiece(both_sides(S2S_SOURCE_DIR "/data/en-fr/train", "en", "fr"), options);
}

// Every line of a corpus, tokenized and detokenized, is the line itself.
void expect_round_trip(const SentencePieceTokenizer& tokenizer,
                       const std::vector<std::string>& lines, const std::string& what) {
  std::size_t failures = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const auto pieces = tokenizer.tokenize(lines[i]);
    if (tokenizer.detokenize(pieces) != lines[i] && ++failures <= 3) {
      ADD_FAILURE() << what << " line " << i + 1 << ": '" << lines[i] << "' came back as '"
                    << tokenizer.detokenize(pieces) << "'";
    }
  }
  EXPECT_EQ(failures, 0u) << what;
}

TEST(SentencePieceTest, BundledCorpusComesBackExactly) {
  for (const std::string type : {"unigram", "bpe"}) {
    const SentencePieceTokenizer tokenizer(bundled_model(type), "the " + type + " model");
    for (const std::string split : {"train", "valid", "test"}) {
      expect_round_trip(tokenizer, both_sides(S2S_SOURCE_DIR "/data/en-fr/" + split, "en", "fr"),
                        type + " " + split);
    }
  }
}

TEST(SentencePieceTest, Multi30kComesBackExactly) {
  const std::string prefix = test_support::shared_path("data/multi30k/train");
  S2S_SKIP_IF_ABSENT(prefix + ".de") << "the Multi30k round trip is not checked";
  SentencePieceOptions options;
  options.vocab_size = 8000;
  const auto lines = both_sides(prefix, "de", "en");
  const SentencePieceTokenizer tokenizer(train_sentencepiece(lines, options), "multi30k");
  expect_round_trip(tokenizer, lines, "multi30k train");
  // Its German side has U+00A0 ("Nummer\u00A0 28"), which the pieces keep: still a vocabulary.
  EXPECT_EQ(Vocab::from_tokens(tokenizer.pieces()).size(), 8000 - 3 + Vocab::kNumSpecials);
}

TEST(SentencePieceTest, TrainingTwiceGivesTheSameModelByteForByte) {
  EXPECT_EQ(bundled_model(), bundled_model());
  EXPECT_EQ(bundled_model("bpe"), bundled_model("bpe"));
}

TEST(SentencePieceTest, PiecesCarryTheSpaceAndFormTheVocabulary) {
  const SentencePieceTokenizer tokenizer(bundled_model(), "model");
  const auto pieces = tokenizer.tokenize("the cat sleeps");
  ASSERT_FALSE(pieces.empty());
  EXPECT_EQ(pieces.front().rfind("\u2581", 0), 0u) << pieces.front();
  const auto vocab = Vocab::from_tokens(tokenizer.pieces());
  EXPECT_EQ(vocab.size(), 2000 - 3 + Vocab::kNumSpecials);  // its <unk> <s> </s> are ours
  for (const auto& piece : pieces) EXPECT_NE(vocab.id(piece), Vocab::kUnk) << piece;
}

TEST(SentencePieceTest, UnseenCharactersAndEmptyLines) {
  const SentencePieceTokenizer tokenizer(bundled_model(), "model");
  EXPECT_TRUE(tokenizer.tokenize("").empty());
  EXPECT_EQ(tokenizer.detokenize({}), "");
  const auto vocab = Vocab::from_tokens(tokenizer.pieces());
  const auto pieces = tokenizer.tokenize("the 日本 cat");
  bool unknown = false;
  for (const auto& piece : pieces) unknown |= vocab.id(piece) == Vocab::kUnk;
  EXPECT_TRUE(unknown);  // characters the model never saw become <unk> in the vocabulary
  EXPECT_THROW(tokenizer.tokenize(std::string("caf\xC3", 4)), InputError);  // invalid UTF-8
}

TEST(SentencePieceTest, LowercasesWhenAsked) {
  TokenizerOptions options;
  options.lowercase = true;
  const SentencePieceTokenizer tokenizer(bundled_model(), "model", options);
  EXPECT_EQ(tokenizer.detokenize(tokenizer.tokenize("The CAT")), "the cat");
}

TEST(SentencePieceTest, MissingAndCorruptModelsAreOneLineErrors) {
  const test_support::TempDir dir;
  const auto missing = dir.file("missing.model");
  try {
    read_sentencepiece_model(missing);
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(missing), std::string::npos) << e.what();
  }
  const auto model = bundled_model();
  for (const auto& bytes :
       {std::string("not a model"), model.substr(0, model.size() / 2), std::string()}) {
    try {
      SentencePieceTokenizer tokenizer(bytes, "run/sentencepiece.model");
      ADD_FAILURE() << "no error";
    } catch (const InputError& e) {
      const std::string what = e.what();
      EXPECT_EQ(what.rfind("run/sentencepiece.model: not a SentencePiece model", 0), 0u) << what;
      EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    }
  }
}

TEST(SentencePieceTest, SettingsTheCorpusCannotMeetAreConfigErrors) {
  SentencePieceOptions options;
  options.vocab_size = 1000000;
  try {
    train_sentencepiece({"a b c", "d e f"}, options);
    ADD_FAILURE() << "no error";
  } catch (const ConfigError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("data.sentencepiece:", 0), 0u) << e.what();
  }
}

}  // namespace
}  // namespace s2s::data
