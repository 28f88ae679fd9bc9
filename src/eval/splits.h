#pragma once
// The evaluation splits of a run (test, valid) as the evaluate and attention verbs read them:
// every pair of the corpus, no length filtering (every sentence is translated and scored), and
// teacher-forced scoring of the references (loss, perplexity, attention for AER).
//
// Shapes: T_i target tokens and S_i source tokens of sentence i, without </s>; m heads.

#include <torch/torch.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "batching/batch.h"
#include "checkpoint/load_run.h"
#include "config/config.h"
#include "data/corpus.h"
#include "data/tokenizer.h"
#include "device/precision.h"
#include "eval/alignment.h"
#include "eval/ensemble.h"
#include "model/seq2seq.h"

namespace s2s::eval {

struct Split {
  std::string name;                       // "test" or "valid"
  std::string description;                // how logs name the corpus ("data/test.{de,en}")
  std::vector<std::string> files;         // the files it was read from
  std::vector<data::SentencePair> pairs;  // raw lines
  data::TokenizedCorpus corpus;           // tokenized with the run's tokenizers
  std::string alignments;                 // gold alignment file, "" if none configured
  bool pieces = false;     // tokens are SentencePiece pieces: gold links index the words of the
                           // word tokenizer, and AER merges pieces into them (eval/pieces.h)
  bool lowercase = false;  // data.lowercase: the tokens are lower-cased
};

// "test", "valid".
const std::vector<std::string>& split_names();

// Reads split `name` of `config`'s data section. A split the config does not name is a
// ConfigError naming the key (data.test / data.valid); an unknown name lists the valid ones.
Split load_split(const config::Config& config, const std::string& name,
                 const data::Tokenizer& src_tokenizer, const data::Tokenizer& tgt_tokenizer);
Split load_split(const checkpoint::LoadedRun& run, const std::string& name);

// The split's gold alignments, one per pair, checked against the tokenized pairs
// (InputError "PATH:LINE: ..."); empty if the split has none.
std::vector<Alignment> load_split_alignments(const Split& split);

// Bounded work for unbounded inputs: decoding cuts a source longer than
// evaluation.max_src_len tokens to its first max_src_len tokens, and teacher forcing (loss,
// perplexity, attention for AER) leaves out pairs with a side longer than that.

// `sources`, each cut to at most `max_len` tokens. Each cut is a warning naming `where(i)` (the
// first few; then one line counting the rest).
std::vector<std::vector<std::string>> bounded_sources(
    const std::vector<std::vector<std::string>>& sources, int64_t max_len,
    const std::function<std::string(std::size_t)>& where);

// Indices of the pairs of `corpus` whose sides both have at most `max_len` tokens.
std::vector<std::size_t> pairs_within(const data::TokenizedCorpus& corpus, int64_t max_len);

// "data/test.{de,en}:12": where sentence `i` of a split comes from.
std::string sentence_origin(const Split& split, std::size_t i);

// Teacher-forced pass over a corpus: summed NLL (no label smoothing) and, on request, the
// attention of every sentence.
struct ForcedScores {
  double nll_sum = 0.0;
  int64_t tokens = 0;                    // predicted target tokens, </s> included
  std::vector<torch::Tensor> attention;  // per sentence [T_i + 1, m, S_i + 1] (CPU), if kept
  double loss() const;                   // nll_sum / tokens
  double perplexity() const;             // exp(loss)
};

// Batches of `batch_size` sentences sorted by length; runs without autograd in eval mode. An
// ensemble is scored by the log of its members' mean probability, its attention is their mean
// (eval/ensemble.h).
ForcedScores teacher_forced_scores(const Ensemble& models, const batching::EncodedCorpus& corpus,
                                   int64_t batch_size, const torch::Device& device,
                                   bool keep_attention,
                                   device::Precision precision = device::Precision::kFp32);

}  // namespace s2s::eval
