#include "eval/pieces.h"

#include <string_view>

#include "data/tokenizer.h"

namespace s2s::eval {
namespace {

constexpr std::string_view kSpaceMark = "\xE2\x96\x81";  // U+2581, SentencePiece's space

// Bytes of `piece` that are text: without "▁" and ASCII whitespace.
std::size_t text_bytes(std::string_view piece) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < piece.size();) {
    if (piece.substr(i, kSpaceMark.size()) == kSpaceMark) {
      i += kSpaceMark.size();
      continue;
    }
    const char c = piece[i++];
    if (c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != '\v' && c != '\f') ++n;
  }
  return n;
}

// [rows, cols] with weight `w[r]` at (r, group[r]) for each r: the sum (or mean) over groups.
torch::Tensor group_matrix(const std::vector<int64_t>& group, int64_t groups, bool mean) {
  const auto rows = static_cast<int64_t>(group.size());
  auto m = torch::zeros({rows + 1, groups + 1});  // + </s>, its own group
  for (int64_t r = 0; r < rows; ++r) m[r][group[static_cast<std::size_t>(r)]] = 1.0;
  m[rows][groups] = 1.0;
  if (mean) m = m / m.sum(0, /*keepdim=*/true).clamp_min(1.0);
  return m;
}

}  // namespace

std::optional<PieceWords> piece_words(const std::vector<std::string>& pieces,
                                      const std::vector<std::string>& words) {
  // ends[w]: the end of word w's bytes in the text without whitespace.
  std::vector<std::size_t> ends;
  std::size_t total = 0;
  for (const auto& w : words) ends.push_back(total += text_bytes(w));
  PieceWords out;
  out.words = words;
  out.word_of_piece.assign(pieces.size(), -1);
  std::size_t at = 0, word = 0;
  std::vector<std::size_t> empty;  // pieces with no bytes, waiting for the next word
  for (std::size_t p = 0; p < pieces.size(); ++p) {
    const auto n = text_bytes(pieces[p]);
    if (n == 0) {
      empty.push_back(p);
      continue;
    }
    while (word < ends.size() && ends[word] <= at) ++word;  // the word holding byte `at`
    if (word == ends.size()) return std::nullopt;
    for (const auto e : empty) out.word_of_piece[e] = static_cast<int64_t>(word);
    empty.clear();
    out.word_of_piece[p] = static_cast<int64_t>(word);
    at += n;
  }
  if (at != total) return std::nullopt;
  for (const auto e : empty) {  // trailing "▁": the last word
    if (words.empty()) return std::nullopt;
    out.word_of_piece[e] = static_cast<int64_t>(words.size()) - 1;
  }
  return out;
}

std::vector<std::string> words_of(const std::string& text, bool lowercase) {
  data::TokenizerOptions options;
  options.lowercase = lowercase;
  return data::WordTokenizer(options).tokenize(text);
}

std::optional<PieceWords> piece_words_of(const std::vector<std::string>& pieces,
                                         const std::string& text, bool lowercase) {
  return piece_words(pieces, words_of(text, lowercase));
}

torch::Tensor merge_piece_attention(const torch::Tensor& attention, const PieceWords& source,
                                    const PieceWords& target) {
  const auto src =
      group_matrix(source.word_of_piece, static_cast<int64_t>(source.words.size()), /*mean=*/false);
  const auto tgt =
      group_matrix(target.word_of_piece, static_cast<int64_t>(target.words.size()), /*mean=*/true);
  // out[w, h, v] = sum_t sum_s tgt[t, w] a[t, h, s] src[s, v]
  return torch::einsum("tw,ths,sv->whv",
                       {tgt.to(attention.dtype()), attention, src.to(attention.dtype())});
}

}  // namespace s2s::eval
