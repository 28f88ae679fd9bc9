#pragma once
// The batcher decides which examples train together: it shuffles, groups examples of similar
// length (less padding), caps each batch by sentences or padded tokens, and shards batches
// across processes. It works on lengths only and returns example indices, so the caller can
// scatter per-example results (hypotheses) back into corpus order.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
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

using Batches = std::vector<std::vector<std::size_t>>;

// One epoch's batches of one rank, in the order they train.
class EpochBatches {
 public:
  virtual ~EpochBatches() = default;
  virtual std::size_t size() const = 0;
  // Batch k, 0 <= k < size(); the reference lives until the next call.
  virtual const std::vector<std::size_t>& batch(std::size_t k) = 0;
};

// What the trainer asks of a batcher: the batches of an epoch.
class BatchSchedule {
 public:
  virtual ~BatchSchedule() = default;
  virtual std::unique_ptr<EpochBatches> epoch(int64_t epoch) const = 0;
  virtual std::size_t num_examples() const = 0;
};

// Greedy, in the given order: a batch closes when the next example would break the budget
// (sentences, or the batch's padded tokens: its size times its longest example).
template <class Iterator, class Length>
void pack_batches(Iterator first, Iterator last, const Length& length, BatchUnit unit,
                  int64_t batch_size, Batches* batches) {
  std::vector<std::size_t> current;
  int64_t longest = 0;
  for (auto it = first; it != last; ++it) {
    const int64_t len = length(*it);
    const auto n = static_cast<int64_t>(current.size()) + 1;
    const int64_t cost = unit == BatchUnit::kSentences ? n : n * std::max(longest, len);
    if (!current.empty() && cost > batch_size) {
      batches->push_back(std::move(current));
      current.clear();
      longest = 0;
    }
    current.push_back(*it);
    longest = std::max(longest, len);
  }
  if (!current.empty()) batches->push_back(std::move(current));
}

// The whole corpus's lengths in memory: one global shuffle an epoch, then sorted pools.
class Batcher : public BatchSchedule {
 public:
  // Lengths as they will be padded (include </s> if the model appends it). Throws ConfigError
  // on bad options and std::invalid_argument if the two length lists differ in size.
  Batcher(std::vector<int64_t> src_lengths, std::vector<int64_t> tgt_lengths,
          BatcherOptions options);

  // The batches of this rank for `epoch`, each a list of example indices. Same options and
  // epoch give the same batches on every platform. With world_size == 1, every example is in
  // exactly one batch.
  std::vector<std::vector<std::size_t>> epoch_batches(int64_t epoch) const;
  std::unique_ptr<EpochBatches> epoch(int64_t epoch) const override;

  std::size_t num_examples() const override { return src_lengths_.size(); }
  const BatcherOptions& options() const { return options_; }

 private:
  using Iterator = std::vector<std::size_t>::iterator;

  int64_t length(std::size_t example) const;
  void append_batches(Iterator first, Iterator last, Batches* batches) const;
  void append_bucketed(Iterator first, Iterator last, Batches* batches) const;
  Batches shard(const Batches& batches) const;

  std::vector<int64_t> src_lengths_, tgt_lengths_;
  BatcherOptions options_;
};

// The lengths of a corpus read a window at a time (a mapped corpus, data/prepared.h): `read`
// gives the padded lengths of examples [first, last); `release`, if set, tells the corpus that
// they are not needed soon.
struct WindowLengths {
  std::size_t size = 0;
  std::function<void(std::size_t first, std::size_t last, std::vector<int64_t>* src,
                     std::vector<int64_t>* tgt)>
      read;
  std::function<void(std::size_t first, std::size_t last)> release;
};

// Batches of a corpus too large to hold its lengths or an epoch's order in memory (Marian's
// maxi-batches): the corpus is cut into windows of `window` consecutive examples; an epoch
// visits the windows in a seeded permutation, and each window is shuffled, sorted by length,
// cut into batches and its batches shuffled, all seeded by (seed, epoch, window). Memory: one
// window and a count per window. Rank r of W takes batches r, r + W, ... of the epoch, padded as
// Batcher does. The batches of each window are counted in one pass over the lengths, once (the
// counts are the same every epoch), or every epoch for token batches of unsorted windows.
class WindowBatcher : public BatchSchedule {
 public:
  WindowBatcher(WindowLengths lengths, BatcherOptions options, std::size_t window);
  std::unique_ptr<EpochBatches> epoch(int64_t epoch) const override;
  std::size_t num_examples() const override { return lengths_.size; }
  std::size_t batches_per_epoch() const { return total_; }  // of epoch 0, over all ranks

  // Window w's batches in `epoch`, in their order.
  Batches window_batches(int64_t epoch, std::size_t w) const;
  // Tells the corpus that window w's examples are not needed soon (WindowLengths::release).
  void release_window(std::size_t w) const;

 private:
  bool counts_vary() const;
  std::vector<std::size_t> count_batches(int64_t epoch) const;  // each window's
  std::vector<std::size_t> count_pass(int64_t epoch) const;     // one pass over the lengths

  WindowLengths lengths_;
  BatcherOptions options_;
  std::size_t window_;
  std::vector<std::size_t> counts_;  // batches of each window
  std::size_t total_ = 0;
};

// Examples per window: bucket_batches batches' worth, and at least kMinWindowBatches' (Marian's
// maxi-batch of 100), at `mean_length` padded tokens an example for token batches.
inline constexpr int64_t kMinWindowBatches = 100;
std::size_t window_examples(const BatcherOptions& options, double mean_length);

}  // namespace s2s::data
