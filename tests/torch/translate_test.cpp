// Corpus-level translation: batching by length, order of results, empty lines, <unk> replacement.

#include "eval/translate.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "config/config.h"
#include "model/build_model.h"

namespace s2s::eval {
namespace {

TEST(TranslateTest, LengthSortedBatchesLongestFirstSkippingEmpty) {
  const std::vector<int64_t> lengths = {3, 0, 5, 1, 5, 2};
  const auto batches = length_sorted_batches(lengths, 2);
  const std::vector<std::vector<std::size_t>> expected = {{2, 4}, {0, 5}, {3}};
  EXPECT_EQ(batches, expected);
}

TEST(TranslateTest, ReplacesUnknownByMostAttendedSourceToken) {
  // tokens: a <unk> </s>-step; source: x y + </s>. Row 1 attends most to </s> (ignored), then y.
  const auto attention = torch::tensor({0.7f, 0.2f, 0.1f,  //
                                        0.1f, 0.3f, 0.6f,  //
                                        0.3f, 0.3f, 0.4f})
                             .view({3, 1, 3});
  const std::vector<std::string> tokens = {"a", "<unk>"};
  EXPECT_EQ(replace_unknown(tokens, {5, data::Vocab::kUnk}, {"x", "y"}, attention),
            (std::vector<std::string>{"a", "y"}));
  EXPECT_EQ(replace_unknown(tokens, {5, data::Vocab::kUnk}, {"x", "y"}, torch::Tensor()), tokens);
}

class TranslatorTest : public testing::Test {
 protected:
  void SetUp() override {
    torch::manual_seed(11);
    const std::vector<std::vector<std::string>> words = {{"a", "b", "c", "d", "e", "f"}};
    src_vocab_ = data::Vocab::build(words);
    tgt_vocab_ = data::Vocab::build(words);
    config::ModelConfig m;
    m.emb_size = 8;
    m.hidden_size = 8;
    model_ = model::build_model(m, src_vocab_.size(), tgt_vocab_.size());
  }

  Translator translator() const {
    return Translator(model_, src_vocab_, tgt_vocab_, tokenizer_, tokenizer_, torch::kCPU);
  }

  data::Vocab src_vocab_, tgt_vocab_;
  data::WhitespaceTokenizer tokenizer_;
  model::Seq2Seq model_{nullptr};
};

TEST_F(TranslatorTest, KeepsInputOrderAndEmptyLines) {
  const std::vector<std::string> lines = {"a b c", "", "d", "e f a b c d", "  ", "b zzz"};
  TranslateOptions one_by_one;
  one_by_one.batch_size = 1;
  TranslateOptions batched;
  batched.batch_size = 4;
  const auto a = translator().translate_lines(lines, one_by_one);
  const auto b = translator().translate_lines(lines, batched);
  ASSERT_EQ(a.size(), lines.size());
  ASSERT_EQ(b.size(), lines.size());
  for (std::size_t i = 0; i < lines.size(); ++i) {
    EXPECT_EQ(a[i].tokens, b[i].tokens) << "line " << i;
    EXPECT_NEAR(a[i].score, b[i].score, 1e-4) << "line " << i;
    EXPECT_EQ(a[i].source, tokenizer_.tokenize(lines[i]));
  }
  for (const std::size_t empty : {1u, 4u}) {
    EXPECT_EQ(b[empty].text, "");
    EXPECT_TRUE(b[empty].tokens.empty());
    EXPECT_FALSE(b[empty].attention.defined());
  }
  EXPECT_EQ(b[3].attention.size(2), 7);  // 6 source tokens + </s>
  EXPECT_EQ(b[0].text, tokenizer_.detokenize(b[0].tokens));
}

}  // namespace
}  // namespace s2s::eval
