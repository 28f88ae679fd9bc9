#pragma once
// The batcher decides which examples train together: it shuffles, groups examples of similar
// length (less padding), caps each batch by sentences or padded tokens, and shards batches
// across processes. It works on lengths only and returns example indices, so the caller can
// scatter per-example results (hypotheses) back into corpus order.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "config/choices.h"

namespace s2s::data {

// What batch_size counts (training.batch_type, config/choices.h).
using config::BatchUnit;

// "sentences" | "tokens"; anything else throws ConfigError.
BatchUnit parse_batch_unit(const std::string& name);
std::string to_string(BatchUnit unit);

struct BatcherOptions {
  int64_t batch_size = 64;                 // sentences or padded tokens per batch (> 0)
  BatchUnit unit = BatchUnit::kSentences;  // what batch_size counts
  bool shuffle = true;                     // false keeps corpus order (evaluation)
  uint64_t seed = 1;                       // with the epoch, fixes the order
  int64_t bucket_batches = 100;  // sort by length inside pools of this many batches; 0/1 = off
  int64_t rank = 0;              // this process, 0 <= rank < world_size
  int64_t world_size = 1;        // number of processes sharing the data
};

class Batcher {
 public:
  // Lengths as they will be padded (include </s> if the model appends it). Throws ConfigError
  // on bad options and std::invalid_argument if the two length lists differ in size.
  Batcher(std::vector<int64_t> src_lengths, std::vector<int64_t> tgt_lengths,
          BatcherOptions options);

  // The batches of this rank for `epoch`, each a list of example indices. Same options and
  // epoch give the same batches on every platform. With world_size == 1, every example is in
  // exactly one batch.
  std::vector<std::vector<std::size_t>> epoch_batches(int64_t epoch) const;

  std::size_t num_examples() const { return src_lengths_.size(); }
  const BatcherOptions& options() const { return options_; }

 private:
  using Batches = std::vector<std::vector<std::size_t>>;
  using Iterator = std::vector<std::size_t>::iterator;

  int64_t length(std::size_t example) const;
  void append_batches(Iterator first, Iterator last, Batches* batches) const;
  void append_bucketed(Iterator first, Iterator last, Batches* batches) const;
  Batches shard(const Batches& batches) const;

  std::vector<int64_t> src_lengths_, tgt_lengths_;
  BatcherOptions options_;
};

}  // namespace s2s::data
