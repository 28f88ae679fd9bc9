// Learning-rate schedules: the linear warm-up, inverse square root decay after it, and the
// constant and plateau schedules, whose base rate the warm-up scales and then leaves alone.

#include <gtest/gtest.h>

#include <cmath>

#include "config/config.h"
#include "train/optimizer.h"

namespace s2s::train {
namespace {

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
      EXPECT_DOUBLE_EQ(scheduled_learning_rate(t, step, 1e-3), 1e-3) << name << " " << step;
    }
  }
  // Plateau's reduced rate is the base the schedule returns.
  EXPECT_DOUBLE_EQ(scheduled_learning_rate(schedule("plateau", 0), 50, 2.5e-4), 2.5e-4);
}

TEST(ScheduleTest, WarmUpRisesLinearlyToTheBaseRate) {
  const auto t = schedule("constant", 4);
  EXPECT_DOUBLE_EQ(scheduled_learning_rate(t, 0, 1e-3), 0.25e-3);  // update 1 of 4
  EXPECT_DOUBLE_EQ(scheduled_learning_rate(t, 2, 1e-3), 0.75e-3);
  EXPECT_DOUBLE_EQ(scheduled_learning_rate(t, 3, 1e-3), 1e-3);  // the 4th update: full rate
  EXPECT_DOUBLE_EQ(scheduled_learning_rate(t, 100, 1e-3), 1e-3);
}

TEST(ScheduleTest, InverseSqrtDecaysAfterTheWarmUp) {
  const auto t = schedule("inverse_sqrt", 100);
  EXPECT_DOUBLE_EQ(scheduled_learning_rate(t, 49, 1e-3), 0.5e-3);    // warm-up
  EXPECT_DOUBLE_EQ(scheduled_learning_rate(t, 99, 1e-3), 1e-3);      // peak at update W
  EXPECT_DOUBLE_EQ(scheduled_learning_rate(t, 399, 1e-3), 0.5e-3);   // sqrt(100 / 400)
  EXPECT_NEAR(scheduled_learning_rate(t, 9999, 1e-3), 1e-4, 1e-15);  // sqrt(100 / 10000)
  // Monotone: up to the peak, then down.
  double previous = 0.0;
  for (int64_t step = 0; step < 100; ++step) {
    const double lr = scheduled_learning_rate(t, step, 1e-3);
    EXPECT_GT(lr, previous);
    previous = lr;
  }
  for (int64_t step = 100; step < 1000; ++step) {
    const double lr = scheduled_learning_rate(t, step, 1e-3);
    EXPECT_LT(lr, previous);
    previous = lr;
  }
}

}  // namespace
}  // namespace s2s::train
