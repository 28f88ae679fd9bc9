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

// Greedy, in the given order: a batch closes when the next example would break the budget.
void Batcher::append_batches(Iterator first, Iterator last, Batches* batches) const {
  std::vector<std::size_t> current;
  int64_t longest = 0;
  for (auto it = first; it != last; ++it) {
    const int64_t len = length(*it);
    const auto n = static_cast<int64_t>(current.size()) + 1;
    const int64_t cost =
        options_.unit == BatchUnit::kSentences ? n : n * std::max(longest, len);  // padded
    if (!current.empty() && cost > options_.batch_size) {
      batches->push_back(std::move(current));
      current.clear();
      longest = 0;
    }
    current.push_back(*it);
    longest = std::max(longest, len);
  }
  if (!current.empty()) batches->push_back(std::move(current));
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

// Rank r takes batches r, r + W, r + 2W, ... Every rank must run the same number of steps (the
// gradient all-reduce waits for all), so the list is padded, as fairseq does, by repeating
// batches from the start of the epoch: a few examples are seen twice in that epoch.
Batcher::Batches Batcher::shard(const Batches& batches) const {
  const auto world = static_cast<std::size_t>(options_.world_size);
  if (world == 1 || batches.empty()) return batches;
  const std::size_t per_rank = (batches.size() + world - 1) / world;
  Batches mine;
  mine.reserve(per_rank);
  for (std::size_t k = 0; k < per_rank; ++k) {
    const std::size_t i = static_cast<std::size_t>(options_.rank) + k * world;
    mine.push_back(batches[i % batches.size()]);
  }
  return mine;
}

}  // namespace s2s::data
