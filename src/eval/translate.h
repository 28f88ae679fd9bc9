#pragma once
// Corpus-level translation: tokens or raw lines in, detokenized hypotheses out, in input order.
// Used by the trainer (validation BLEU) and the evaluate, translate and attention verbs.
//
//   encode with the source vocabulary (</s> appended) -> sort by length, cut into batches of
//   batch_size sentences (less padding) -> search -> scatter back to input order ->
//   ids to tokens (Vocab::decode) -> optional <unk> replacement -> detokenize.
//
// <unk> replacement (Luong et al. 2015b, "Addressing the rare word problem"): a generated
// <unk> is replaced by the source token it attends to most (weights averaged over heads; the
// source </s> is never chosen). It needs a model with attention; without one <unk> stays.

#include <torch/torch.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "checkpoint/load_run.h"
#include "config/config.h"
#include "data/tokenizer.h"
#include "data/vocab.h"
#include "device/precision.h"
#include "eval/ensemble.h"
#include "eval/search.h"
#include "model/seq2seq.h"

namespace s2s::eval {

// Called after each decoded batch with the sentences done so far and their total.
using Progress = std::function<void(std::size_t done, std::size_t total)>;

struct TranslateOptions {
  SearchOptions search;      // decoding strategy; search.n_best hypotheses are kept
  int64_t batch_size = 64;   // sentences per decoding batch
  bool replace_unk = false;  // replace generated <unk> by the most attended source token
  Progress progress;         // optional
  // bf16: decode under bf16 autocast; int8: with int8 weights (model/int8_linear.h)
  device::Precision precision = device::Precision::kFp32;
};

// The config's evaluation section as translate options (n_best 1: the best hypothesis only;
// `s2s translate --n-best` asks for more).
TranslateOptions translate_options(const config::EvaluationConfig& evaluation);

// One hypothesis of a sentence's n-best list.
struct Candidate {
  std::string text;               // detokenized
  double score = 0.0;             // sum of log-probs, </s> included
  double normalized_score = 0.0;  // score / lp(length): the ranking criterion of beam search
};

// One translated sentence.
struct Translation {
  std::vector<std::string> source;  // source tokens, without </s>
  std::vector<std::string> tokens;  // hypothesis tokens, without </s> (after <unk> replacement)
  std::string text;                 // detokenized hypothesis
  double score = 0.0;               // sum of log-probs, </s> included (0 for an empty input)
  // [tokens + 1, m, source + 1] on the CPU; undefined without attention or for an empty input.
  torch::Tensor attention;
  // The search.n_best best hypotheses, best first (the first is the one above); one empty
  // candidate for an empty input.
  std::vector<Candidate> n_best;
};

// Everything decoding needs, borrowed: the vocabularies and tokenizers must outlive it.
class Translator {
 public:
  // `models`: one model or an ensemble (eval/ensemble.h).
  Translator(Ensemble models, const data::Vocab& src_vocab, const data::Vocab& tgt_vocab,
             const data::Tokenizer& src_tokenizer, const data::Tokenizer& tgt_tokenizer,
             torch::Device device);
  explicit Translator(const checkpoint::LoadedRun& run);  // every member of the run

  // Tokenized sources (no </s>) -> one translation each, in order. An empty source gives an
  // empty translation without running the model.
  std::vector<Translation> translate_tokens(const std::vector<std::vector<std::string>>& sources,
                                            const TranslateOptions& options) const;
  // Raw lines, tokenized with the source tokenizer first.
  std::vector<Translation> translate_lines(const std::vector<std::string>& lines,
                                           const TranslateOptions& options) const;

 private:
  Translation finish(const std::vector<std::string>& source, const Hypothesis& hypothesis,
                     bool replace_unk) const;

  Ensemble models_;
  const data::Vocab& src_vocab_;
  const data::Vocab& tgt_vocab_;
  const data::Tokenizer& src_tokenizer_;
  const data::Tokenizer& tgt_tokenizer_;
  torch::Device device_;
};

// The detokenized hypotheses of `translations`, in order.
std::vector<std::string> texts(const std::vector<Translation>& translations);

// Replaces every <unk> in `tokens` by source[argmax_i mean_heads attention[t, :, i]] over real
// source positions. attention [tokens + 1, m, source + 1]; unchanged if undefined or no source.
std::vector<std::string> replace_unknown(std::vector<std::string> tokens,
                                         const std::vector<int64_t>& ids,
                                         const std::vector<std::string>& source,
                                         const torch::Tensor& attention);

// Batches of at most `batch_size` indices into `lengths`, longest first (less padding); an
// index with length 0 is left out.
std::vector<std::vector<std::size_t>> length_sorted_batches(const std::vector<int64_t>& lengths,
                                                            int64_t batch_size);

}  // namespace s2s::eval
