// Learning-rate schedules: the linear warm-up, inverse square root and cosine decay after it,
// and the constant and plateau schedules, whose base rate the warm-up scales and then leaves
// alone.

#include <gtest/gtest.h>

#include <cmath>

#include "config/config.h"
#include "train/optimizer.h"

namespace s2s::train {
namespace {

constexpr int64_t kTotal = 1000;  // planned updates; only cosine reads them

config::TrainingConfig schedule(const std::string& name, int64_t warmup) {
  config::TrainingConfig t;
  t.lr_schedule = name;
  t.warmup_steps = warmup;
  return t;
}

TEST(ScheduleTest, NoWarmUpKeepsTheBaseRate) {
  for (const char* name : {"constant", "plateau"}) {
    const auto t = schedule(name, 0);
    for (const int64_t step : {0, 1, 999}) {
      EXPECT_DOUBLE_EQ(scheduled_learning_rate(t, step, kTotal, 1e-3), 1e-3) << name << " " << step;
    }
  }
  // Plateau's reduced rate is the base the schedule returns.
  EXPECT_DOUBLE_EQ(scheduled_learning_rate(schedule("plateau", 0), 50, kTotal, 2.5e-4), 2.5e-4);
}

TEST(ScheduleTest, WarmUpRisesLinearlyToTheBaseRate) {
  const auto t = schedule("constant", 4);
  EXPECT_DOUBLE_EQ(scheduled_learning_rate(t, 0, kTotal, 1e-3), 0.25e-3);  // update 1 of 4
  EXPECT_DOUBLE_EQ(scheduled_learning_rate(t, 2, kTotal, 1e-3), 0.75e-3);
  EXPECT_DOUBLE_EQ(scheduled_learning_rate(t, 3, kTotal, 1e-3), 1e-3);  // the 4th update: full rate
  EXPECT_DOUBLE_EQ(scheduled_learning_rate(t, 100, kTotal, 1e-3), 1e-3);
}

TEST(ScheduleTest, InverseSqrtDecaysAfterTheWarmUp) {
  const auto t = schedule("inverse_sqrt", 100);
  EXPECT_DOUBLE_EQ(scheduled_learning_rate(t, 49, kTotal, 1e-3), 0.5e-3);    // warm-up
  EXPECT_DOUBLE_EQ(scheduled_learning_rate(t, 99, kTotal, 1e-3), 1e-3);      // peak at update W
  EXPECT_DOUBLE_EQ(scheduled_learning_rate(t, 399, kTotal, 1e-3), 0.5e-3);   // sqrt(100 / 400)
  EXPECT_NEAR(scheduled_learning_rate(t, 9999, kTotal, 1e-3), 1e-4, 1e-15);  // sqrt(100 / 10000)
  // Monotone: up to the peak, then down.
  double previous = 0.0;
  for (int64_t step = 0; step < 100; ++step) {
    const double lr = scheduled_learning_rate(t, step, kTotal, 1e-3);
    EXPECT_GT(lr, previous);
    previous = lr;
  }
  for (int64_t step = 100; step < 1000; ++step) {
    const double lr = scheduled_learning_rate(t, step, kTotal, 1e-3);
    EXPECT_LT(lr, previous);
    previous = lr;
  }
}

TEST(ScheduleTest, CosineFallsFromTheBaseRateToMinLrAtTheLastUpdate) {
  auto t = schedule("cosine", 0);
  t.min_lr = 1e-5;
  const double lr = 1e-3, total = 400;
  // Update n = step + 1 of 400: min_lr + (lr - min_lr) (1 + cos(pi n / 400)) / 2.
  EXPECT_DOUBLE_EQ(scheduled_learning_rate(t, 199, 400, lr), 1e-5 + (lr - 1e-5) * 0.5);
  EXPECT_NEAR(scheduled_learning_rate(t, 99, 400, lr),
              1e-5 + (lr - 1e-5) * 0.5 * (1 + std::cos(M_PI * 100 / total)), 1e-15);
  EXPECT_DOUBLE_EQ(scheduled_learning_rate(t, 399, 400, lr), 1e-5);  // the last update
  EXPECT_DOUBLE_EQ(scheduled_learning_rate(t, 999, 400, lr), 1e-5);  // past the plan: stays
  double previous = lr;
  for (int64_t step = 0; step < 400; ++step) {
    const double now = scheduled_learning_rate(t, step, 400, lr);
    EXPECT_LT(now, previous) << step;
    previous = now;
  }
}

TEST(ScheduleTest, CosineStartsAfterTheWarmUp) {
  auto t = schedule("cosine", 100);
  t.min_lr = 0.0;
  EXPECT_DOUBLE_EQ(scheduled_learning_rate(t, 49, 1100, 1e-3), 0.5e-3);  // warm-up
  EXPECT_DOUBLE_EQ(scheduled_learning_rate(t, 99, 1100, 1e-3), 1e-3);    // peak at update W
  // Halfway through the 1000 updates after the warm-up: half the rate.
  EXPECT_NEAR(scheduled_learning_rate(t, 599, 1100, 1e-3), 0.5e-3, 1e-15);
  EXPECT_NEAR(scheduled_learning_rate(t, 1099, 1100, 1e-3), 0.0, 1e-18);
}

}  // namespace
}  // namespace s2s::train
