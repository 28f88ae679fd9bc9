#pragma once
// The data a training reads, prepared once by the same steps for the trainer and the
// benchmark: read -> tokenize -> filter (train only) -> vocabularies -> ids -> batcher.

#include <memory>
#include <utility>

#include "batching/batch.h"
#include "config/config.h"
#include "data/batcher.h"
#include "data/corpus.h"
#include "data/prepared.h"
#include "data/tokenizer.h"
#include "data/vocab.h"
#include "eval/alignment.h"
#include "run/run_dir.h"
#include "run/tokenizers.h"

namespace s2s::train {

struct TrainingData {
  std::unique_ptr<data::Tokenizer> src_tokenizer, tgt_tokenizer;
  data::Vocab src_vocab, tgt_vocab;
  data::TokenizedCorpus train_text;  // pairs longer than data.max_len filtered out
  data::TokenizedCorpus valid_text;  // every pair: validation BLEU covers the whole split
  // The training pairs in memory (train), or mapped from a prepared corpus (data.prepared:
  // prepared, and train and train_text stay empty).
  batching::EncodedCorpus train, valid;
  std::shared_ptr<const data::PreparedCorpus> prepared;
  // The gold alignment of each training pair (train/guided_alignment.h), when guided alignment
  // trains: training.guided_alignment.weight > 0; else empty.
  std::vector<eval::Alignment> alignments;
  std::unique_ptr<data::BatchSchedule> batcher;  // the training batches of every epoch
};

// Lengths of training pair i as batched: the source with </s>, the target with <s> and </s>.
std::pair<int64_t, int64_t> training_pair_lengths(const TrainingData& data, std::size_t i);

// Builds the vocabularies from the training split, or reads them from `vocabularies` (the run
// directory of a resumed training) when given. With several processes the batcher gives rank
// `rank` of `world_size` its shard of every epoch.
TrainingData prepare_training_data(const config::Config& config,
                                   const run::RunPaths* vocabularies = nullptr, int64_t rank = 0,
                                   int64_t world_size = 1);

// The training pairs `indices` as a batch on `device`, with their gold alignment matrix when
// `data` has alignments.
batching::Batch training_batch(const TrainingData& data, const std::vector<std::size_t>& indices,
                               const torch::Device& device);

}  // namespace s2s::train
