#include "train/guided_alignment.h"

#include "eval/pieces.h"
#include "run/run_dir.h"
#include "util/error.h"
#include "util/logging.h"

namespace s2s::train {
namespace {

// The raw pair of each 1-based corpus line (pieces are matched to the words of the raw text).
std::vector<const data::SentencePair*> pairs_by_line(const std::vector<data::SentencePair>& pairs) {
  std::vector<const data::SentencePair*> by_line;
  for (const auto& p : pairs) {
    if (p.line > by_line.size()) by_line.resize(p.line, nullptr);
    by_line[p.line - 1] = &p;
  }
  return by_line;
}

// Pair `k` of `train` (its line `line` of the file) with the gold links `gold` of that line:
// checked against its words, then moved to its pieces when the tokenizer has them. False when
// the pieces cannot be matched to the words (the pair then keeps no links).
bool to_tokens(const data::TokenizedCorpus& train, std::size_t k, const data::SentencePair& raw,
               bool pieces, bool lowercase, const std::string& where, eval::Alignment* gold) {
  if (!pieces) {
    eval::check_alignment(*gold, static_cast<int64_t>(train.src[k].size()),
                          static_cast<int64_t>(train.tgt[k].size()), where);
    return true;
  }
  const auto src_words = eval::words_of(raw.src, lowercase);
  const auto tgt_words = eval::words_of(raw.tgt, lowercase);
  eval::check_alignment(*gold, static_cast<int64_t>(src_words.size()),
                        static_cast<int64_t>(tgt_words.size()), where);
  const auto src = eval::piece_words(train.src[k], src_words);
  const auto tgt = eval::piece_words(train.tgt[k], tgt_words);
  if (!src || !tgt) {
    gold->clear();
    return false;
  }
  *gold = piece_alignment(*gold, src->word_of_piece, tgt->word_of_piece);
  return true;
}

}  // namespace

std::vector<eval::Alignment> load_train_alignments(const config::DataConfig& data,
                                                   const data::TokenizedCorpus& train,
                                                   const data::Tokenizer& src_tokenizer) {
  if (data.train_alignments.empty()) return {};
  const auto& path = data.train_alignments;
  const auto spec = run::corpus_spec(data, data.train);
  const auto raw = data::read_corpus(spec);
  const auto lines = eval::read_alignments(path);
  if (lines.size() != raw.size()) {
    throw InputError(path + ": " + std::to_string(lines.size()) + " alignment lines for " +
                     std::to_string(raw.size()) + " sentence pairs of " + data::describe(spec));
  }
  const auto by_line = pairs_by_line(raw);
  const bool pieces = src_tokenizer.has_pieces();
  std::vector<eval::Alignment> gold(train.size());
  std::size_t unmatched = 0;
  for (std::size_t k = 0; k < train.size(); ++k) {
    const auto line = train.lines[k];
    gold[k] = lines[line - 1];
    const auto where = path + ":" + std::to_string(line);
    if (!to_tokens(train, k, *by_line[line - 1], pieces, data.lowercase, where, &gold[k])) {
      ++unmatched;
    }
  }
  auto log = util::logger("data");
  log->info("guided alignment: {} gold alignments from {}", train.size(), path);
  if (unmatched > 0) {
    log->warn(
        "guided alignment: {} of {} training pairs have pieces that do not spell their "
        "words; they train without alignment links",
        unmatched, train.size());
  }
  return gold;
}

eval::Alignment piece_alignment(const eval::Alignment& words, const std::vector<int64_t>& src_words,
                                const std::vector<int64_t>& tgt_words) {
  eval::Alignment pieces;
  for (const auto& [i, j] : words) {
    for (std::size_t p = 0; p < src_words.size(); ++p) {
      if (src_words[p] != i) continue;
      for (std::size_t q = 0; q < tgt_words.size(); ++q) {
        if (tgt_words[q] == j)
          pieces.emplace_back(static_cast<int64_t>(p), static_cast<int64_t>(q));
      }
    }
  }
  return pieces;
}

torch::Tensor gold_alignment_matrix(const std::vector<eval::Alignment>& alignments,
                                    const std::vector<std::size_t>& indices, int64_t steps,
                                    int64_t sources, const torch::Device& device) {
  const auto rows = static_cast<int64_t>(indices.size());
  auto gold = torch::zeros({rows, steps, sources}, torch::kFloat);
  auto g = gold.accessor<float, 3>();
  for (int64_t b = 0; b < rows; ++b) {
    for (const auto& [i, j] : alignments.at(indices[static_cast<std::size_t>(b)])) {
      // Links were checked against the tokens, and the batch holds every token plus </s>.
      TORCH_CHECK(i < sources && j < steps, "alignment link outside its batch row");
      g[b][j][i] = 1.0F;
    }
  }
  // Each linked row sums to 1; unlinked rows stay 0.
  gold /= gold.sum(/*dim=*/2, /*keepdim=*/true).clamp_min(1.0);
  return gold.to(device);
}

}  // namespace s2s::train
