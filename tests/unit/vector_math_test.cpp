// The vectorizable exp and tanh of the torch-free kernels (util/vector_math.h) against the
// standard library in double, over dense grids and the special values.
#include "util/vector_math.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace s2s {
namespace {

double relative_error(float got, double want) {
  return std::fabs(static_cast<double>(got) - want) / std::max(std::fabs(want), 1e-300);
}

TEST(VectorMathTest, TanhIsWithinTwoUlpsEverywhere) {
  double worst = 0.0;
  for (float x = -20.0f; x <= 20.0f; x += 1.0e-3f) {
    worst = std::max(worst, relative_error(util::tanh_approx(x), std::tanh(double{x})));
  }
  // Tiny arguments, where tanh x = x to the last bit.
  for (float x = 1.0e-30f; x < 1.0f; x *= 1.01f) {
    worst = std::max(worst, relative_error(util::tanh_approx(x), std::tanh(double{x})));
    worst = std::max(worst, relative_error(util::tanh_approx(-x), std::tanh(double{-x})));
  }
  EXPECT_LT(worst, 2.5e-7);  // 2 ulp of fp32 is 2.4e-7 relative
}

TEST(VectorMathTest, TanhSpecialValues) {
  const float inf = std::numeric_limits<float>::infinity();
  EXPECT_EQ(util::tanh_approx(inf), 1.0f);
  EXPECT_EQ(util::tanh_approx(-inf), -1.0f);
  EXPECT_EQ(util::tanh_approx(100.0f), 1.0f);
  EXPECT_EQ(util::tanh_approx(0.0f), 0.0f);
  EXPECT_TRUE(std::signbit(util::tanh_approx(-0.0f)));
  EXPECT_TRUE(std::isnan(util::tanh_approx(std::numeric_limits<float>::quiet_NaN())));
}

TEST(VectorMathTest, ExpOfNonPositiveArguments) {
  double worst = 0.0;
  for (float x = -87.0f; x <= 0.0f; x += 1.0e-3f) {
    worst = std::max(worst, relative_error(util::exp_nonpositive(x), std::exp(double{x})));
  }
  EXPECT_LT(worst, 2.5e-7);
  EXPECT_EQ(util::exp_nonpositive(0.0f), 1.0f);
  // Below -87 the floor exp(-87), never 0 or a denormal.
  EXPECT_FLOAT_EQ(util::exp_nonpositive(-1000.0f), std::exp(-87.0f));
}

TEST(VectorMathTest, SigmoidIsWithinTwoUlpsEverywhere) {
  double worst = 0.0;
  for (float x = -80.0f; x <= 40.0f; x += 1.0e-3f) {
    const double want = 1.0 / (1.0 + std::exp(-double{x}));
    worst = std::max(worst, relative_error(util::sigmoid_approx(x), want));
  }
  EXPECT_LT(worst, 2.5e-7);
  const float inf = std::numeric_limits<float>::infinity();
  EXPECT_EQ(util::sigmoid_approx(inf), 1.0f);
  EXPECT_EQ(util::sigmoid_approx(-inf), std::exp(-87.0f) / (1.0f + std::exp(-87.0f)));
  EXPECT_EQ(util::sigmoid_approx(0.0f), 0.5f);
  EXPECT_TRUE(std::isnan(util::sigmoid_approx(std::numeric_limits<float>::quiet_NaN())));
}

TEST(VectorMathTest, Bf16RoundsToNearestEven) {
  EXPECT_EQ(util::to_bf16(1.0f), 0x3F80);
  EXPECT_EQ(util::widen(util::to_bf16(-2.5f)), -2.5f);
  // 1 + 2^-8 lies halfway between 1 and 1 + 2^-7: to the even one, 1.
  EXPECT_EQ(util::widen(util::to_bf16(1.0f + 0.00390625f)), 1.0f);
  // 1 + 3 * 2^-8, halfway between 1 + 2^-7 and 1 + 2^-6: to 1 + 2^-6.
  EXPECT_EQ(util::widen(util::to_bf16(1.0f + 3 * 0.00390625f)), 1.015625f);
  EXPECT_EQ(util::widen(util::to_bf16(1.0f + 0.005f)), 1.0078125f);  // nearest
}

}  // namespace
}  // namespace s2s
