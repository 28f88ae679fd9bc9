#include "eval/scores.h"

#include <functional>

#include "batching/batch.h"
#include "checkpoint/load_run.h"
#include "eval/pieces.h"
#include "util/error.h"
#include "util/logging.h"

namespace s2s::eval {
namespace {

// Entropy of the attention the model used (over its tokens), and AER of `aligned(i)`: the
// attention of kept sentence i over the units the gold alignments index.
void score_attention(const ForcedScores& forced, const std::vector<Alignment>& gold,
                     const std::function<torch::Tensor(std::size_t)>& aligned,
                     SplitScores& scores) {
  EntropyStats entropy;
  std::optional<AerCounts> aer;
  if (!gold.empty()) aer.emplace();
  for (std::size_t i = 0; i < forced.attention.size(); ++i) {
    entropy += attention_entropy(forced.attention[i]);
    if (aer) *aer += aer_counts(predicted_alignment(aligned(i)), gold[i]);
  }
  scores.entropy = entropy;
  scores.aer = aer;
}

// Pieces merged into words (eval/pieces.h) for the gold alignments, which link words.
torch::Tensor attention_over_words(const Split& split, std::size_t pair,
                                   const torch::Tensor& attention) {
  const auto& text = split.pairs[pair];
  const auto src = piece_words_of(split.corpus.src[pair], text.src, split.lowercase);
  const auto tgt = piece_words_of(split.corpus.tgt[pair], text.tgt, split.lowercase);
  if (!src || !tgt) {
    throw InputError(sentence_origin(split, pair) +
                     ": its SentencePiece pieces do not spell its words, so attention cannot "
                     "be compared with the gold alignment");
  }
  return merge_piece_attention(attention, *src, *tgt);
}

}  // namespace

metrics::BleuOptions bleu_options(const config::EvaluationConfig& e) {
  metrics::BleuOptions o;
  o.tokenize = e.bleu_tokenize;
  o.lowercase = e.bleu_lowercase;
  return o;
}

metrics::ChrfOptions chrf_options(const config::EvaluationConfig& e) {
  metrics::ChrfOptions o;
  o.lowercase = e.chrf_lowercase;  // as sacreBLEU: -lc is for BLEU only
  return o;
}

SplitScores score_split(checkpoint::LoadedRun& run, const Split& split,
                        const std::vector<std::string>& hypotheses) {
  SplitScores scores;
  const auto& references = split.corpus.tgt_raw;
  scores.bleu = metrics::corpus_bleu(hypotheses, references, bleu_options(run.config.evaluation));
  scores.chrf = metrics::corpus_chrf(hypotheses, references, chrf_options(run.config.evaluation));
  // Teacher forcing scores the pairs within evaluation.max_src_len (eval/splits.h).
  const auto keep = pairs_within(split.corpus, run.config.evaluation.max_src_len);
  auto gold = load_split_alignments(split);
  if (keep.size() < split.corpus.size()) {
    util::logger("eval")->warn(
        "{}: {} of {} pairs longer than evaluation.max_src_len = {} tokens left out of loss, "
        "perplexity and AER",
        split.name, split.corpus.size() - keep.size(), split.corpus.size(),
        run.config.evaluation.max_src_len);
    if (!gold.empty()) {
      std::vector<Alignment> kept;
      for (const auto i : keep) kept.push_back(gold[i]);
      gold = std::move(kept);
    }
  }
  const Ensemble models(run.members);
  const bool attention = models.has_attention();
  const auto encoded =
      batching::encode_corpus(data::select_pairs(split.corpus, keep), run.src_vocab, run.tgt_vocab);
  scores.forced = teacher_forced_scores(models, encoded, run.config.evaluation.batch_size,
                                        run.device, attention, run.precision.precision);
  if (attention) {
    score_attention(
        scores.forced, gold,
        [&](std::size_t i) {
          const auto& a = scores.forced.attention[i];
          return split.pieces ? attention_over_words(split, keep[i], a) : a;
        },
        scores);
  }
  return scores;
}

}  // namespace s2s::eval
