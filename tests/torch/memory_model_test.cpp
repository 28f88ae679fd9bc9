#include "model/memory_model.h"

#include <gtest/gtest.h>

#include "config/config.h"
#include "eval/search.h"

namespace s2s::model {
namespace {

config::ModelConfig small_model() {
  config::ModelConfig m;
  m.emb_size = 16;
  m.hidden_size = 32;
  return m;
}

TEST(MemoryModelTest, TrainingStepCountsEveryTerm) {
  const auto m = small_model();
  // B = 2, S = 3, T = 4, V = 100, one head:
  // 4 bytes x 2 x (3 (16 + 320) + 4 (16 + 256 + 200) + 4 x 3 x 2) = 4 x 2 x 2920.
  EXPECT_DOUBLE_EQ(training_step_bytes(m, 100, {2, 3, 4}), 4.0 * 2 * 2920);
}

TEST(MemoryModelTest, AttentionMakesLengthQuadratic) {
  auto m = small_model();
  const double short_batch = training_step_bytes(m, 100, {16, 1000, 1000});
  const double long_batch = training_step_bytes(m, 100, {16, 100000, 100000});
  EXPECT_GT(long_batch / short_batch, 1000.0);  // 100x the length: far more than 100x
  m.attention.scorer = "none";
  const double no_attention = training_step_bytes(m, 100, {16, 100000, 100000}) /
                              training_step_bytes(m, 100, {16, 1000, 1000});
  EXPECT_DOUBLE_EQ(no_attention, 100.0);  // without attention, linear
  // The case: 16 sentences of 200,000 tokens cannot fit in any machine's memory.
  EXPECT_GT(training_step_bytes(small_model(), 200, {16, 200001, 200001}), 1e12);
}

TEST(MemoryModelTest, SearchGrowsWithBeamAndKeptAttention) {
  const auto m = small_model();
  const double one = search_bytes(m, 100, 8, 1, 20, 50, /*keeps_attention=*/true);
  EXPECT_DOUBLE_EQ(search_bytes(m, 100, 8, 5, 20, 50, true), 5 * one);
  // B = 8, K = 1: 4 x 8 x (20 x 64 + 300 + 4 x 50 + 2 x 50 x 20).
  EXPECT_DOUBLE_EQ(one, 4.0 * 8 * (20 * 64 + 300 + 200 + 2000));
  EXPECT_DOUBLE_EQ(search_bytes(m, 100, 8, 1, 20, 50, false), 4.0 * 8 * (20 * 64 + 300 + 200));
}

TEST(MemoryModelTest, SearchStepsFollowTheLengthLimit) {
  eval::SearchOptions e;
  e.max_len_ratio = 1.5;
  e.max_len_extra = 10;
  EXPECT_EQ(eval::max_target_length(e, 7), 11 + 10);  // ceil(10.5) + 10: what search allows
}

}  // namespace
}  // namespace s2s::model
