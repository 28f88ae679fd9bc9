#include "data/batcher.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <random>
#include <stdexcept>
#include <utility>

#include "util/error.h"

namespace s2s::data {
namespace {

// SplitMix64 (Steele et al. 2014): spreads (seed, epoch) over all 64 bits, so nearby seeds and
// epochs start the Mersenne Twister in unrelated states.
uint64_t splitmix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

// std::mt19937_64's output is fixed by the standard; its seeding from one integer is too.
std::mt19937_64 make_rng(uint64_t seed, int64_t epoch) {
  return std::mt19937_64(splitmix64(seed ^ splitmix64(static_cast<uint64_t>(epoch))));
}

// Uniform in [0, bound) by rejection (no modulo bias). Not std::uniform_int_distribution, whose
// algorithm differs between standard libraries: the same seed must give the same batches.
uint64_t uniform_below(std::mt19937_64& rng, uint64_t bound) {
  constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();
  const uint64_t limit = kMax - kMax % bound;  // a multiple of bound
  uint64_t x = rng();
  while (x >= limit) x = rng();
  return x % bound;
}

// Fisher-Yates, for the same reason as uniform_below: std::shuffle is not portable.
template <typename T>
void shuffle(std::vector<T>& items, std::mt19937_64& rng) {
  for (std::size_t i = items.size(); i > 1; --i) {
    const auto j = static_cast<std::size_t>(uniform_below(rng, i));
    std::swap(items[i - 1], items[j]);
  }
}

int64_t saturating_mul(int64_t a, int64_t b) {
  return a > std::numeric_limits<int64_t>::max() / b ? std::numeric_limits<int64_t>::max() : a * b;
}

void validate(const BatcherOptions& o) {
  if (o.batch_size <= 0) {
    throw ConfigError("batch_size must be > 0, got " + std::to_string(o.batch_size));
  }
  if (o.bucket_batches < 0) {
    throw ConfigError("bucket_batches must be >= 0 (0 or 1 = no bucketing), got " +
                      std::to_string(o.bucket_batches));
  }
  if (o.world_size < 1) {
    throw ConfigError("world_size must be >= 1, got " + std::to_string(o.world_size));
  }
  if (o.rank < 0 || o.rank >= o.world_size) {
    throw ConfigError("rank must be in [0, world_size = " + std::to_string(o.world_size) +
                      "), got " + std::to_string(o.rank));
  }
}

}  // namespace

BatchUnit parse_batch_unit(const std::string& name) {
  return config::parse_choice<BatchUnit>(name, "training.batch_type");
}

std::string to_string(BatchUnit unit) { return config::choice_name(unit); }

Batcher::Batcher(std::vector<int64_t> src_lengths, std::vector<int64_t> tgt_lengths,
                 BatcherOptions options)
    : src_lengths_(std::move(src_lengths)),
      tgt_lengths_(std::move(tgt_lengths)),
      options_(options) {
  validate(options_);
  if (src_lengths_.size() != tgt_lengths_.size()) {
    throw std::invalid_argument("Batcher: " + std::to_string(src_lengths_.size()) +
                                " source lengths but " + std::to_string(tgt_lengths_.size()) +
                                " target lengths");
  }
  const auto negative = [](int64_t n) { return n < 0; };
  if (std::any_of(src_lengths_.begin(), src_lengths_.end(), negative) ||
      std::any_of(tgt_lengths_.begin(), tgt_lengths_.end(), negative)) {
    throw std::invalid_argument("Batcher: negative sentence length");
  }
}

int64_t Batcher::length(std::size_t example) const {
  return std::max(src_lengths_[example], tgt_lengths_[example]);
}

void Batcher::append_batches(Iterator first, Iterator last, Batches* batches) const {
  pack_batches(
      first, last, [this](std::size_t i) { return length(i); }, options_.unit, options_.batch_size,
      batches);
}

// Pools of about bucket_batches batches (counted in sentences, or in unpadded tokens), each
// sorted by length so that its batches need little padding, yet still drawn from a shuffle.
void Batcher::append_bucketed(Iterator first, Iterator last, Batches* batches) const {
  const int64_t capacity = saturating_mul(options_.bucket_batches, options_.batch_size);
  const auto by_length = [this](std::size_t a, std::size_t b) {
    return std::pair(src_lengths_[a], tgt_lengths_[a]) <
           std::pair(src_lengths_[b], tgt_lengths_[b]);
  };
  while (first != last) {
    Iterator end = first;
    for (int64_t load = 0; end != last && load < capacity; ++end) {
      load += options_.unit == BatchUnit::kSentences ? 1 : length(*end);
    }
    std::stable_sort(first, end, by_length);
    append_batches(first, end, batches);
    first = end;
  }
}

std::vector<std::vector<std::size_t>> Batcher::epoch_batches(int64_t epoch) const {
  std::vector<std::size_t> order(num_examples());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::mt19937_64 rng = make_rng(options_.seed, epoch);
  if (options_.shuffle) shuffle(order, rng);
  Batches batches;
  if (options_.bucket_batches > 1) {
    append_bucketed(order.begin(), order.end(), &batches);
  } else {
    append_batches(order.begin(), order.end(), &batches);
  }
  // Sorted pools would otherwise feed short sentences first and long ones last.
  if (options_.shuffle) shuffle(batches, rng);
  return shard(batches);
}

namespace {

// An epoch held whole: the in-memory Batcher's.
class HeldEpoch : public EpochBatches {
 public:
  explicit HeldEpoch(Batches batches) : batches_(std::move(batches)) {}
  std::size_t size() const override { return batches_.size(); }
  const std::vector<std::size_t>& batch(std::size_t k) override { return batches_.at(k); }

 private:
  Batches batches_;
};

// Global batch of rank `rank`'s k-th step, with the padding of Batcher::shard.
std::size_t sharded(std::size_t k, const BatcherOptions& o, std::size_t total) {
  return (static_cast<std::size_t>(o.rank) + k * static_cast<std::size_t>(o.world_size)) % total;
}

std::size_t per_rank(std::size_t total, const BatcherOptions& o) {
  const auto world = static_cast<std::size_t>(o.world_size);
  return world == 1 || total == 0 ? total : (total + world - 1) / world;
}

}  // namespace

std::unique_ptr<EpochBatches> Batcher::epoch(int64_t epoch) const {
  return std::make_unique<HeldEpoch>(epoch_batches(epoch));
}

// Rank r takes batches r, r + W, r + 2W, ... Every rank must run the same number of steps (the
// gradient all-reduce waits for all), so the list is padded, as fairseq does, by repeating
// batches from the start of the epoch: a few examples are seen twice in that epoch.
Batches Batcher::shard(const Batches& batches) const {
  const auto world = static_cast<std::size_t>(options_.world_size);
  if (world == 1 || batches.empty()) return batches;
  Batches mine;
  mine.reserve(per_rank(batches.size(), options_));
  for (std::size_t k = 0; k < per_rank(batches.size(), options_); ++k) {
    mine.push_back(batches[sharded(k, options_, batches.size())]);
  }
  return mine;
}

// ---------------------------------------------------------------------------------------------
// WindowBatcher

std::size_t window_examples(const BatcherOptions& options, double mean_length) {
  // At least kMinWindowBatches: a window of one batch would train the same batches every epoch.
  const double batches =
      static_cast<double>(std::max<int64_t>(options.bucket_batches, kMinWindowBatches));
  const double per_batch =
      options.unit == BatchUnit::kSentences
          ? static_cast<double>(options.batch_size)
          : static_cast<double>(options.batch_size) / std::max(mean_length, 1.0);
  return static_cast<std::size_t>(std::max(1.0, batches * std::max(per_batch, 1.0)));
}

WindowBatcher::WindowBatcher(WindowLengths lengths, BatcherOptions options, std::size_t window)
    : lengths_(std::move(lengths)), options_(options), window_(std::max<std::size_t>(window, 1)) {
  validate(options_);
  counts_ = count_pass(0);
  for (const auto count : counts_) total_ += count;
}

// Sentence batches, and token batches cut from windows sorted by length (or never shuffled),
// are the same number in every epoch: a window's count depends on its lengths only. Token
// batches of shuffled, unsorted windows are not, and are counted again for each epoch.
bool WindowBatcher::counts_vary() const {
  return options_.unit == BatchUnit::kTokens && options_.shuffle && options_.bucket_batches <= 1;
}

std::vector<std::size_t> WindowBatcher::count_batches(int64_t epoch) const {
  return epoch == 0 || !counts_vary() ? counts_ : count_pass(epoch);
}

std::vector<std::size_t> WindowBatcher::count_pass(int64_t epoch) const {
  std::vector<std::size_t> counts;
  const std::size_t windows = (lengths_.size + window_ - 1) / window_;
  counts.reserve(windows);
  for (std::size_t w = 0; w < windows; ++w) {
    counts.push_back(window_batches(epoch, w).size());
    release_window(w);
  }
  return counts;
}

void WindowBatcher::release_window(std::size_t w) const {
  if (!lengths_.release) return;
  const std::size_t first = w * window_;
  lengths_.release(first, std::min(first + window_, lengths_.size));
}

Batches WindowBatcher::window_batches(int64_t epoch, std::size_t w) const {
  const std::size_t first = w * window_, last = std::min(first + window_, lengths_.size);
  std::vector<int64_t> src, tgt;
  lengths_.read(first, last, &src, &tgt);
  std::vector<std::size_t> order(last - first);
  std::iota(order.begin(), order.end(), std::size_t{0});
  // Another stream for every window of every epoch.
  std::mt19937_64 rng = make_rng(options_.seed ^ splitmix64(w + 1), epoch);
  if (options_.shuffle) shuffle(order, rng);
  if (options_.bucket_batches > 1) {
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      return std::pair(src[a], tgt[a]) < std::pair(src[b], tgt[b]);
    });
  }
  Batches batches;
  pack_batches(
      order.begin(), order.end(), [&](std::size_t i) { return std::max(src[i], tgt[i]); },
      options_.unit, options_.batch_size, &batches);
  if (options_.shuffle) shuffle(batches, rng);
  for (auto& batch : batches) {
    for (auto& i : batch) i += first;
  }
  return batches;
}

namespace {

// The windows in an epoch's order, and the batches of the window last asked for.
class WindowEpoch : public EpochBatches {
 public:
  WindowEpoch(const WindowBatcher& batcher, const std::vector<std::size_t>& counts,
              const BatcherOptions& options, int64_t epoch)
      : batcher_(batcher), options_(options), epoch_(epoch) {
    order_.resize(counts.size());
    std::iota(order_.begin(), order_.end(), std::size_t{0});
    std::mt19937_64 rng = make_rng(options.seed, epoch);
    if (options.shuffle) shuffle(order_, rng);
    ends_.reserve(order_.size());
    std::size_t end = 0;
    for (const auto w : order_) ends_.push_back(end += counts[w]);
    size_ = per_rank(end, options);
  }
  std::size_t size() const override { return size_; }
  const std::vector<std::size_t>& batch(std::size_t k) override {
    if (k >= size_)
      throw std::out_of_range("batch " + std::to_string(k) + " of " + std::to_string(size_));
    const std::size_t g = sharded(k, options_, ends_.back());
    const auto p =
        static_cast<std::size_t>(std::upper_bound(ends_.begin(), ends_.end(), g) - ends_.begin());
    if (p != current_) {
      // The window left behind will not be read again this epoch: its pages may go.
      if (current_ < order_.size()) batcher_.release_window(order_[current_]);
      held_ = batcher_.window_batches(epoch_, order_[p]);
      current_ = p;
    }
    return held_.at(g - (p == 0 ? 0 : ends_[p - 1]));
  }

 private:
  const WindowBatcher& batcher_;
  BatcherOptions options_;
  int64_t epoch_;
  std::vector<std::size_t> order_, ends_;  // windows in order; batches up to each, inclusive
  std::size_t size_ = 0;
  std::size_t current_ = std::numeric_limits<std::size_t>::max();
  Batches held_;
};

}  // namespace

std::unique_ptr<EpochBatches> WindowBatcher::epoch(int64_t epoch) const {
  return std::make_unique<WindowEpoch>(*this, count_batches(epoch), options_, epoch);
}

}  // namespace s2s::data
