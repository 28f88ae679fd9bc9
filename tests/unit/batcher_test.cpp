#include "data/batcher.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <set>
#include <stdexcept>
#include <vector>

#include "util/error.h"

namespace s2s::data {
namespace {

using Batches = std::vector<std::vector<std::size_t>>;
using Lengths = std::vector<int64_t>;

// Deterministic, varied lengths in [1, 40].
Lengths lengths(std::size_t n, int64_t mul) {
  Lengths out(n);
  for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<int64_t>(i) * mul % 40 + 1;
  return out;
}

BatcherOptions options(int64_t batch_size, BatchUnit unit, bool shuffle, int64_t bucket_batches) {
  BatcherOptions o;
  o.batch_size = batch_size;
  o.unit = unit;
  o.shuffle = shuffle;
  o.bucket_batches = bucket_batches;
  return o;
}

Batcher make(std::size_t n, const BatcherOptions& o) {
  return Batcher(lengths(n, 7), lengths(n, 13), o);
}

std::vector<std::size_t> flatten(const Batches& batches) {
  std::vector<std::size_t> all;
  for (const auto& b : batches) all.insert(all.end(), b.begin(), b.end());
  return all;
}

// Every batcher configuration worth checking for coverage.
std::vector<BatcherOptions> all_configurations() {
  std::vector<BatcherOptions> configs;
  for (const BatchUnit unit : {BatchUnit::kSentences, BatchUnit::kTokens}) {
    for (const bool shuffle : {false, true}) {
      for (const int64_t buckets : {0, 1, 3}) {
        configs.push_back(options(unit == BatchUnit::kTokens ? 120 : 7, unit, shuffle, buckets));
      }
    }
  }
  return configs;
}

TEST(BatcherTest, ParsesUnits) {
  EXPECT_EQ(parse_batch_unit("sentences"), BatchUnit::kSentences);
  EXPECT_EQ(parse_batch_unit("tokens"), BatchUnit::kTokens);
  EXPECT_EQ(to_string(BatchUnit::kTokens), "tokens");
  try {
    parse_batch_unit("words");
    FAIL() << "expected a ConfigError";
  } catch (const ConfigError& e) {
    EXPECT_STREQ(e.what(), "training.batch_type: unknown value 'words' (valid: sentences, tokens)");
  }
}

TEST(BatcherTest, EveryExampleExactlyOncePerEpoch) {
  for (const auto& o : all_configurations()) {
    std::vector<std::size_t> all = flatten(make(101, o).epoch_batches(2));
    std::sort(all.begin(), all.end());
    std::vector<std::size_t> expected(101);
    for (std::size_t i = 0; i < expected.size(); ++i) expected[i] = i;
    EXPECT_EQ(all, expected) << to_string(o.unit) << " shuffle " << o.shuffle << " buckets "
                             << o.bucket_batches;
  }
}

TEST(BatcherTest, SameSeedAndEpochGiveSameBatches) {
  for (const auto& o : all_configurations()) {
    EXPECT_EQ(make(101, o).epoch_batches(5), make(101, o).epoch_batches(5));
  }
}

TEST(BatcherTest, EpochsAndSeedsChangeTheOrder) {
  const BatcherOptions o = options(7, BatchUnit::kSentences, true, 3);
  const Batcher b = make(101, o);
  EXPECT_NE(b.epoch_batches(0), b.epoch_batches(1));
  BatcherOptions other = o;
  other.seed = 2;
  EXPECT_NE(make(101, other).epoch_batches(0), b.epoch_batches(0));
}

// Pinned against an independent Python implementation of mt19937_64 (checked against the
// standard's 10000th-output value), SplitMix64, rejection sampling and Fisher-Yates: these
// batches must not change across compilers and standard libraries.
TEST(BatcherTest, ShuffleIsPinnedAcrossPlatforms) {
  BatcherOptions o = options(3, BatchUnit::kSentences, true, 0);
  const Batcher b(Lengths(10, 1), Lengths(10, 1), o);
  EXPECT_EQ(b.epoch_batches(0), (Batches{{4, 6, 8}, {1}, {7, 2, 0}, {9, 3, 5}}));
  EXPECT_EQ(b.epoch_batches(1), (Batches{{9}, {2, 0, 1}, {5, 8, 7}, {4, 3, 6}}));
  o.seed = 42;
  EXPECT_EQ(Batcher(Lengths(10, 1), Lengths(10, 1), o).epoch_batches(7),
            (Batches{{9, 8, 3}, {7, 0, 2}, {1}, {5, 6, 4}}));
}

TEST(BatcherTest, WithoutShuffleKeepsCorpusOrder) {
  const Batcher b(Lengths(10, 1), Lengths(10, 1), options(4, BatchUnit::kSentences, false, 0));
  EXPECT_EQ(b.epoch_batches(3), (Batches{{0, 1, 2, 3}, {4, 5, 6, 7}, {8, 9}}));
}

TEST(BatcherTest, BucketingWithoutShuffleSortsEachPoolByLength) {
  // Pools of 2 batches x 2 sentences: {0..3} and {4, 5}, each sorted by (src, tgt) stably.
  const Batcher b({5, 1, 3, 1, 9, 2}, {1, 4, 1, 2, 1, 1},
                  options(2, BatchUnit::kSentences, false, 2));
  EXPECT_EQ(b.epoch_batches(0), (Batches{{3, 1}, {2, 0}, {5, 4}}));
}

TEST(BatcherTest, TokenBudgetCountsPaddedTokens) {
  // max(src, tgt) per example: 3 5 4 10 2; budget 12: {0,1} costs 2 x 5 = 10, adding 2 would
  // cost 15; example 3 (10 tokens) cannot share with anyone.
  const Batcher b({3, 3, 4, 10, 2}, {3, 5, 1, 1, 2}, options(12, BatchUnit::kTokens, false, 0));
  EXPECT_EQ(b.epoch_batches(0), (Batches{{0, 1}, {2}, {3}, {4}}));
}

TEST(BatcherTest, OverLongSentenceFormsItsOwnBatch) {
  const Batcher b({2, 50, 2}, {2, 1, 2}, options(10, BatchUnit::kTokens, false, 0));
  EXPECT_EQ(b.epoch_batches(0), (Batches{{0}, {1}, {2}}));
}

TEST(BatcherTest, BudgetsAreRespected) {
  for (const auto& o : all_configurations()) {
    const Lengths src = lengths(101, 7);
    const Lengths tgt = lengths(101, 13);
    for (const auto& batch : Batcher(src, tgt, o).epoch_batches(1)) {
      ASSERT_FALSE(batch.empty());
      int64_t longest = 0;
      for (const std::size_t i : batch) longest = std::max({longest, src[i], tgt[i]});
      const auto n = static_cast<int64_t>(batch.size());
      const int64_t cost = o.unit == BatchUnit::kSentences ? n : n * longest;
      EXPECT_TRUE(cost <= o.batch_size || n == 1) << "cost " << cost;
    }
  }
}

TEST(BatcherTest, BucketingReducesPadding) {
  const Lengths src = lengths(1000, 7);
  const Lengths tgt = lengths(1000, 7);
  const auto padded = [&](int64_t buckets) {
    int64_t total = 0;
    const Batcher b(src, tgt, options(16, BatchUnit::kSentences, true, buckets));
    for (const auto& batch : b.epoch_batches(0)) {
      int64_t longest = 0;
      for (const std::size_t i : batch) longest = std::max(longest, src[i]);
      total += longest * static_cast<int64_t>(batch.size());
    }
    return total;
  };
  EXPECT_LT(padded(10), padded(0) * 3 / 4);
}

TEST(BatcherTest, ShardsInterleaveTheFullBatchList) {
  BatcherOptions o = options(2, BatchUnit::kSentences, true, 2);
  const Batches full = make(24, o).epoch_batches(4);  // 12 batches
  ASSERT_EQ(full.size(), 12u);
  o.world_size = 3;
  std::set<std::size_t> seen;
  for (int64_t rank = 0; rank < 3; ++rank) {
    o.rank = rank;
    const Batches mine = make(24, o).epoch_batches(4);
    ASSERT_EQ(mine.size(), 4u);
    for (std::size_t k = 0; k < mine.size(); ++k) {
      EXPECT_EQ(mine[k], full[static_cast<std::size_t>(rank) + 3 * k]);
      for (const std::size_t i : mine[k]) EXPECT_TRUE(seen.insert(i).second) << "twice: " << i;
    }
  }
  EXPECT_EQ(seen.size(), 24u);  // disjoint and covering
}

TEST(BatcherTest, ShardsArePaddedToEqualCountsFromTheStart) {
  // 10 batches over 4 ranks: 3 each; positions 10 and 11 repeat batches 0 and 1.
  BatcherOptions o = options(1, BatchUnit::kSentences, false, 0);
  const Batches full = make(10, o).epoch_batches(0);
  o.world_size = 4;
  std::vector<std::size_t> counts(10, 0);
  for (int64_t rank = 0; rank < 4; ++rank) {
    o.rank = rank;
    const Batches mine = make(10, o).epoch_batches(0);
    ASSERT_EQ(mine.size(), 3u);
    for (const std::size_t i : flatten(mine)) ++counts[i];
  }
  EXPECT_EQ(counts, (std::vector<std::size_t>{2, 2, 1, 1, 1, 1, 1, 1, 1, 1}));
  o.rank = 3;
  EXPECT_EQ(make(10, o).epoch_batches(0), (Batches{full[3], full[7], full[1]}));
}

TEST(BatcherTest, FewerBatchesThanRanksStillGivesEveryRankOne) {
  BatcherOptions o = options(1, BatchUnit::kSentences, false, 0);
  o.world_size = 4;
  o.rank = 3;
  EXPECT_EQ(make(2, o).epoch_batches(0), (Batches{{1}}));
  o.rank = 2;
  EXPECT_EQ(make(2, o).epoch_batches(0), (Batches{{0}}));
}

TEST(BatcherTest, EmptyCorpusHasNoBatches) {
  EXPECT_TRUE(Batcher({}, {}, BatcherOptions{}).epoch_batches(0).empty());
}

TEST(BatcherTest, RejectsBadOptions) {
  const auto with = [](auto change) {
    BatcherOptions o;
    change(o);
    return o;
  };
  EXPECT_THROW(make(4, with([](BatcherOptions& o) { o.rank = -1; })), ConfigError);
  EXPECT_THROW(make(4, with([](BatcherOptions& o) { o.world_size = 2, o.rank = 2; })), ConfigError);
  EXPECT_THROW(make(4, with([](BatcherOptions& o) { o.world_size = 0, o.rank = 0; })), ConfigError);
  EXPECT_THROW(make(4, with([](BatcherOptions& o) { o.batch_size = 0; })), ConfigError);
  EXPECT_THROW(make(4, with([](BatcherOptions& o) { o.bucket_batches = -1; })), ConfigError);
  try {
    make(4, with([](BatcherOptions& o) { o.world_size = 2, o.rank = 5; }));
    FAIL() << "expected a ConfigError";
  } catch (const ConfigError& e) {
    EXPECT_STREQ(e.what(), "rank must be in [0, world_size = 2), got 5");
  }
  EXPECT_THROW(Batcher({1, 2}, {1}, BatcherOptions{}), std::invalid_argument);
}

// ---------------------------------------------------------------------------------------------
// WindowBatcher: the same lengths read a window at a time.

struct Windowed {
  Lengths src, tgt;
  std::vector<std::pair<std::size_t, std::size_t>> released;
  WindowBatcher make(const BatcherOptions& o, std::size_t window) {
    WindowLengths lengths;
    lengths.size = src.size();
    lengths.read = [this](std::size_t first, std::size_t last, Lengths* s, Lengths* t) {
      for (std::size_t i = first; i < last; ++i) {
        s->push_back(src[i]);
        t->push_back(tgt[i]);
      }
    };
    lengths.release = [this](std::size_t first, std::size_t last) {
      released.emplace_back(first, last);
    };
    return WindowBatcher(std::move(lengths), o, window);
  }
};

Batches all_batches(const BatchSchedule& schedule, int64_t epoch) {
  const auto batches = schedule.epoch(epoch);
  Batches out;
  for (std::size_t k = 0; k < batches->size(); ++k) out.push_back(batches->batch(k));
  return out;
}

TEST(WindowBatcherTest, EveryExampleOncePerEpochWithinBudgets) {
  Windowed w{lengths(101, 7), lengths(101, 13), {}};
  for (const auto& o : all_configurations()) {
    for (const std::size_t window :
         {std::size_t{1}, std::size_t{10}, std::size_t{33}, std::size_t{200}}) {
      const auto batcher = w.make(o, window);
      for (const int64_t epoch : {0, 3}) {
        const auto batches = all_batches(batcher, epoch);
        if (epoch == 0) {
          EXPECT_EQ(batches.size(), batcher.batches_per_epoch());
        }
        std::vector<std::size_t> all = flatten(batches);
        std::sort(all.begin(), all.end());
        std::vector<std::size_t> expected(101);
        std::iota(expected.begin(), expected.end(), std::size_t{0});
        ASSERT_EQ(all, expected) << to_string(o.unit) << " window " << window;
        for (const auto& batch : batches) {
          int64_t longest = 0;
          for (const auto i : batch) longest = std::max({longest, w.src[i], w.tgt[i]});
          const auto n = static_cast<int64_t>(batch.size());
          if (n > 1) {
            EXPECT_LE(o.unit == BatchUnit::kTokens ? n * longest : n, o.batch_size);
          }
          // A batch never spans two windows.
          EXPECT_EQ(*std::min_element(batch.begin(), batch.end()) / window,
                    *std::max_element(batch.begin(), batch.end()) / window);
        }
      }
    }
  }
}

TEST(WindowBatcherTest, SeededAndDifferentEveryEpoch) {
  Windowed w{lengths(500, 7), lengths(500, 13), {}};
  const auto o = options(8, BatchUnit::kSentences, true, 3);
  const auto a = w.make(o, 24), b = w.make(o, 24);
  EXPECT_EQ(all_batches(a, 2), all_batches(b, 2));
  EXPECT_NE(all_batches(a, 2), all_batches(a, 3));
  // Windows come in another order, and are shuffled inside: not the file order.
  EXPECT_NE(flatten(all_batches(a, 0)).front(), 0u);
}

TEST(WindowBatcherTest, AnyBatchCanBeAskedFirst) {
  // A resumed epoch starts at its saved batch: the same batches as reading from the start.
  Windowed w{lengths(300, 7), lengths(300, 13), {}};
  const auto batcher = w.make(options(60, BatchUnit::kTokens, true, 4), 40);
  const auto expected = all_batches(batcher, 1);
  const auto epoch = batcher.epoch(1);
  for (const std::size_t k : {7u, 3u, 0u, static_cast<unsigned>(expected.size() - 1), 8u}) {
    EXPECT_EQ(epoch->batch(k), expected[k]) << k;
  }
  EXPECT_THROW(epoch->batch(expected.size()), std::out_of_range);
}

TEST(WindowBatcherTest, RanksShareTheEpochLikeBatcher) {
  Windowed w{lengths(101, 7), lengths(101, 13), {}};
  auto o = options(6, BatchUnit::kSentences, true, 2);
  const auto whole = all_batches(w.make(o, 12), 4);
  o.world_size = 2;
  o.rank = 0;
  const auto rank0 = all_batches(w.make(o, 12), 4);
  o.rank = 1;
  const auto rank1 = all_batches(w.make(o, 12), 4);
  ASSERT_EQ(rank0.size(), (whole.size() + 1) / 2);
  ASSERT_EQ(rank1.size(), rank0.size());
  for (std::size_t k = 0; k < rank0.size(); ++k) {
    EXPECT_EQ(rank0[k], whole[2 * k]);
    EXPECT_EQ(rank1[k], whole[(2 * k + 1) % whole.size()]);  // padded from the start
  }
}

TEST(WindowBatcherTest, ReleasesEveryWindowItCounted) {
  Windowed w{lengths(100, 7), lengths(100, 13), {}};
  w.make(options(5, BatchUnit::kSentences, true, 2), 30);
  EXPECT_EQ(w.released, (std::vector<std::pair<std::size_t, std::size_t>>{
                            {0, 30}, {30, 60}, {60, 90}, {90, 100}}));
  EXPECT_EQ(window_examples(options(64, BatchUnit::kSentences, true, 100), 20.0), 6400u);
  EXPECT_EQ(window_examples(options(4000, BatchUnit::kTokens, true, 100), 20.0), 20000u);
  EXPECT_EQ(window_examples(options(64, BatchUnit::kSentences, true, 0), 20.0), 6400u);
  EXPECT_EQ(window_examples(options(64, BatchUnit::kSentences, true, 300), 20.0), 19200u);
}

}  // namespace
}  // namespace s2s::data
