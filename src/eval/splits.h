#pragma once
// The evaluation splits of a run (test, valid) as the evaluate and attention verbs read them:
// every pair of the corpus, no length filtering (every sentence is translated and scored), and
// teacher-forced scoring of the references (loss, perplexity, attention for AER).
//
// Shapes: T_i target tokens and S_i source tokens of sentence i, without </s>; m heads.

#include <torch/torch.h>

#include <cstdint>
#include <string>
#include <vector>

#include "config/config.h"
#include "data/corpus.h"
#include "data/tokenizer.h"
#include "eval/alignment.h"
#include "model/seq2seq.h"
#include "run/batch.h"
#include "run/run_dir.h"

namespace s2s::eval {

struct Split {
  std::string name;                       // "test" or "valid"
  std::string description;                // how logs name the corpus ("data/test.{de,en}")
  std::vector<data::SentencePair> pairs;  // raw lines
  data::TokenizedCorpus corpus;           // tokenized with the run's tokenizers
  std::string alignments;                 // gold alignment file, "" if none configured
};

// "test", "valid".
const std::vector<std::string>& split_names();

// Reads split `name` of `config`'s data section. A split the config does not name is a
// ConfigError naming the key (data.test / data.valid); an unknown name lists the valid ones.
Split load_split(const config::Config& config, const std::string& name,
                 const data::Tokenizer& src_tokenizer, const data::Tokenizer& tgt_tokenizer);
Split load_split(const run::LoadedRun& run, const std::string& name);

// The split's gold alignments, one per pair, checked against the tokenized pairs
// (InputError "PATH:LINE: ..."); empty if the split has none.
std::vector<Alignment> load_split_alignments(const Split& split);

// Teacher-forced pass over a corpus: summed NLL (no label smoothing) and, on request, the
// attention of every sentence.
struct ForcedScores {
  double nll_sum = 0.0;
  int64_t tokens = 0;                    // predicted target tokens, </s> included
  std::vector<torch::Tensor> attention;  // per sentence [T_i + 1, m, S_i + 1] (CPU), if kept
  double loss() const;                   // nll_sum / tokens
  double perplexity() const;             // exp(loss)
};

// Batches of `batch_size` sentences sorted by length; runs without autograd in eval mode.
ForcedScores teacher_forced_scores(model::Seq2Seq& model, const run::EncodedCorpus& corpus,
                                   int64_t batch_size, const torch::Device& device,
                                   bool keep_attention);

}  // namespace s2s::eval
