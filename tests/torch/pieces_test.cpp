// SentencePiece pieces merged into words: which word each piece belongs to, and attention over
// words (source columns summed, target rows averaged, </s> kept).

#include "eval/pieces.h"

#include <gtest/gtest.h>
#include <torch/torch.h>

namespace s2s {
namespace {

const std::string kMark = "\xE2\x96\x81";  // U+2581

TEST(PieceWordsTest, PiecesJoinTheWordTheirFirstCharacterBelongsTo) {
  // Words of "Est-ce que l'avocat?" by the word tokenizer: Est-ce | que | l' | avocat | ?
  const std::vector<std::string> pieces = {kMark + "Est", "-",   "ce",   kMark + "que",
                                           kMark + "l",   "'av", "ocat", "?"};
  const auto w = eval::piece_words_of(pieces, "Est-ce que l'avocat?", false);
  ASSERT_TRUE(w.has_value());
  EXPECT_EQ(w->words, (std::vector<std::string>{"Est-ce", "que", "l'", "avocat", "?"}));
  // "'av" starts inside "l'" and runs into "avocat": it belongs to "l'".
  EXPECT_EQ(w->word_of_piece, (std::vector<int64_t>{0, 0, 0, 1, 2, 2, 3, 4}));
}

TEST(PieceWordsTest, SpaceOnlyPiecesJoinTheNextWordAndMismatchesAreRefused) {
  const auto w = eval::piece_words({kMark, "(", "a", kMark + kMark, "b", kMark}, {"(", "a", "b"});
  ASSERT_TRUE(w.has_value());
  EXPECT_EQ(w->word_of_piece, (std::vector<int64_t>{0, 0, 1, 2, 2, 2}));
  EXPECT_FALSE(eval::piece_words({kMark + "ab"}, {"abc"}).has_value());
  EXPECT_FALSE(eval::piece_words({kMark + "abcd"}, {"abc"}).has_value());
  EXPECT_FALSE(eval::piece_words({kMark}, {}).has_value());
}

TEST(PieceWordsTest, AttentionOverWordsSumsSourcePiecesAndAveragesTargetPieces) {
  // Source pieces a b | c (2 words) + </s>; target pieces x | y z (2 words) + </s>; one head.
  const eval::PieceWords src{{0, 0, 1}, {"ab", "c"}}, tgt{{0, 1, 1}, {"x", "yz"}};
  const auto a = torch::tensor({{0.1, 0.2, 0.3, 0.4},
                                {0.5, 0.5, 0.0, 0.0},
                                {0.0, 0.0, 1.0, 0.0},
                                {0.25, 0.25, 0.25, 0.25}},
                               torch::kDouble)
                     .unsqueeze(1);  // [T + 1 = 4, m = 1, S + 1 = 4]
  const auto merged = eval::merge_piece_attention(a, src, tgt);
  ASSERT_EQ(merged.sizes(), (std::vector<int64_t>{3, 1, 3}));
  const auto expected = torch::tensor({{0.3, 0.3, 0.4},     // x: (0.1 + 0.2), 0.3, 0.4
                                       {0.5, 0.5, 0.0},     // yz: mean of (1, 0, 0), (0, 1, 0)
                                       {0.5, 0.25, 0.25}},  // </s> stays
                                      torch::kDouble);
  EXPECT_TRUE(torch::allclose(merged.squeeze(1), expected));
  EXPECT_TRUE(torch::allclose(merged.sum(-1), torch::ones({3, 1}, torch::kDouble)));
}

}  // namespace
}  // namespace s2s
