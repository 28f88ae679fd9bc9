#pragma once
// SentencePiece pieces merged into words, so that heatmaps read as words and attention can be
// scored against word-level gold alignments (AER).
//
// The words are the `word` tokenizer's tokens of the same text (data/tokenizer.h): the units
// gold alignments index. Both tokenizations cover the text's characters in order, so with
// whitespace and SentencePiece's "▁" left out, piece p covers bytes [a_p, b_p) of the same
// string that the words cover; p belongs to the word holding byte a_p. A piece with no bytes
// of its own ("▁" alone) joins the word of the next piece, or of the previous one at the end.
//
// Attention [T + 1, m, S + 1] over pieces (</s> last on both axes) becomes [T' + 1, m, S' + 1]
// over words: the columns of a word's source pieces are summed (a row still sums to 1: the
// attention the word received) and the rows of a word's target pieces are averaged (a row is
// still a distribution: the word's mean attention); </s> stays its own row and column.

#include <torch/torch.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace s2s::eval {

// The word of each piece, and the words.
struct PieceWords {
  std::vector<int64_t> word_of_piece;  // [P] index into `words`, non-decreasing
  std::vector<std::string> words;      // [W]
};

// nullopt when the pieces and the words do not spell the same characters (a normalization
// that changed them): such a sentence cannot be merged.
std::optional<PieceWords> piece_words(const std::vector<std::string>& pieces,
                                      const std::vector<std::string>& words);

// The word tokenizer's tokens of `text`, lower-cased first when `lowercase`.
std::vector<std::string> words_of(const std::string& text, bool lowercase);

// The words of `text` (the word tokenizer's tokens, lower-cased like the pieces when
// `lowercase`) as groups of its `pieces`.
std::optional<PieceWords> piece_words_of(const std::vector<std::string>& pieces,
                                         const std::string& text, bool lowercase);

// attention [T + 1, m, S + 1] over pieces -> [T' + 1, m, S' + 1] over words, as above.
torch::Tensor merge_piece_attention(const torch::Tensor& attention, const PieceWords& source,
                                    const PieceWords& target);

}  // namespace s2s::eval
