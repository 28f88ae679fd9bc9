// The vectorizable exp, tanh and sigmoid of the torch-free kernels (platform/vector_math.h) against
// the standard library in double, over dense grids and the special values, compiled the way the
// kernels compile them: inlined into loops the compiler vectorizes (this file gets the kernels'
// flags, tests/CMakeLists.txt), in functions built for each instruction set of
// S2S_VECTOR_CLONES. Every set is checked on its own where the CPU has it (skipped with the
// reason where it does not), and so is the clone the loader picks for this CPU, as the kernels
// run it: each set's code for the polynomials is checked on the machines that run it.
#include "platform/vector_math.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace s2s {
namespace {

enum class Fn { kExp, kTanh, kSigmoid };

// y[i] = fn(x[i]) over the whole grid, one vectorized loop as in the kernels.
S2S_INLINE void evaluate(Fn fn, const float* x, int64_t n, float* y) {
  switch (fn) {
    case Fn::kExp:
#pragma omp simd
      for (int64_t i = 0; i < n; ++i) y[i] = platform::exp_nonpositive(x[i]);
      break;
    case Fn::kTanh:
#pragma omp simd
      for (int64_t i = 0; i < n; ++i) y[i] = platform::tanh_approx(x[i]);
      break;
    case Fn::kSigmoid:
#pragma omp simd
      for (int64_t i = 0; i < n; ++i) y[i] = platform::sigmoid_approx(x[i]);
      break;
  }
}

// The kernels' attribute: one clone per instruction set, the loader picks one for this CPU.
S2S_VECTOR_CLONES void evaluate_cloned(Fn fn, const float* x, int64_t n, float* y) {
  evaluate(fn, x, n, y);
}
// Each clone's instruction set on its own, whatever this CPU would pick.
__attribute__((target(S2S_VECTOR_ISA_AVX512))) void evaluate_avx512(Fn fn, const float* x,
                                                                    int64_t n, float* y) {
  evaluate(fn, x, n, y);
}
__attribute__((target(S2S_VECTOR_ISA_AVX2))) void evaluate_avx2(Fn fn, const float* x, int64_t n,
                                                                float* y) {
  evaluate(fn, x, n, y);
}
void evaluate_baseline(Fn fn, const float* x, int64_t n, float* y) { evaluate(fn, x, n, y); }

struct Isa {
  const char* name;
  bool (*supported)();  // __builtin_cpu_supports, asked when a test runs
  void (*evaluate)(Fn, const float*, int64_t, float*);
};

const Isa kIsas[] = {
    {"target_clones", [] { return true; }, evaluate_cloned},
    {S2S_VECTOR_ISA_AVX512, [] { return __builtin_cpu_supports(S2S_VECTOR_ISA_AVX512) != 0; },
     evaluate_avx512},
    {S2S_VECTOR_ISA_AVX2, [] { return __builtin_cpu_supports(S2S_VECTOR_ISA_AVX2) != 0; },
     evaluate_avx2},
    {"baseline", [] { return true; }, evaluate_baseline},
};

// x, x + step, ... up to `to`, accumulated in fp32 like a loop over x.
std::vector<float> grid(float from, float to, float step) {
  std::vector<float> xs;
  for (float x = from; x <= to; x += step) xs.push_back(x);
  return xs;
}

// Each special value repeated across a few vector widths, so that the vectorized loop body, not
// only its scalar remainder, computes it.
std::vector<float> repeated(const std::vector<float>& values) {
  constexpr int kCopies = 64;
  std::vector<float> xs;
  for (const float v : values) xs.insert(xs.end(), kCopies, v);
  return xs;
}

double relative_error(float got, double want) {
  return std::fabs(static_cast<double>(got) - want) / std::max(std::fabs(want), 1e-300);
}

constexpr double kTwoUlps = 2.5e-7;  // 2 ulp of fp32 is 2.4e-7 relative
constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNan = std::numeric_limits<float>::quiet_NaN();

class VectorMathTest : public ::testing::TestWithParam<Isa> {
 protected:
  void SetUp() override {
    if (!GetParam().supported()) {
      GTEST_SKIP() << "this CPU has no " << GetParam().name << ": the kernels run another clone "
                   << "of S2S_VECTOR_CLONES here, whose instruction set is checked instead";
    }
  }

  std::vector<float> apply(Fn fn, const std::vector<float>& xs) const {
    std::vector<float> ys(xs.size());
    GetParam().evaluate(fn, xs.data(), static_cast<int64_t>(xs.size()), ys.data());
    return ys;
  }

  // The largest relative error of fn over xs against `exact` in double.
  template <class Exact>
  double worst_error(Fn fn, const std::vector<float>& xs, Exact exact) const {
    const auto ys = apply(fn, xs);
    double worst = 0.0;
    for (std::size_t i = 0; i < xs.size(); ++i) {
      worst = std::max(worst, relative_error(ys[i], exact(double{xs[i]})));
    }
    return worst;
  }
};

TEST_P(VectorMathTest, TanhIsWithinTwoUlpsEverywhere) {
  const auto tanh = [](double x) { return std::tanh(x); };
  EXPECT_LT(worst_error(Fn::kTanh, grid(-20.0f, 20.0f, 1.0e-3f), tanh), kTwoUlps);
  // Tiny arguments, where tanh x = x to the last bit.
  std::vector<float> tiny;
  for (float x = 1.0e-30f; x < 1.0f; x *= 1.01f) {
    tiny.push_back(x);
    tiny.push_back(-x);
  }
  EXPECT_LT(worst_error(Fn::kTanh, tiny, tanh), kTwoUlps);
}

TEST_P(VectorMathTest, TanhSpecialValues) {
  const auto tanh = apply(Fn::kTanh, repeated({kInf, -kInf, 100.0f, 0.0f, -0.0f, kNan}));
  const std::size_t n = tanh.size() / 6;
  for (std::size_t i = 0; i < n; ++i) {
    EXPECT_EQ(tanh[i], 1.0f);
    EXPECT_EQ(tanh[n + i], -1.0f);
    EXPECT_EQ(tanh[2 * n + i], 1.0f);
    EXPECT_EQ(tanh[3 * n + i], 0.0f);
    EXPECT_TRUE(tanh[4 * n + i] == 0.0f && std::signbit(tanh[4 * n + i]));
    EXPECT_TRUE(std::isnan(tanh[5 * n + i]));
  }
}

TEST_P(VectorMathTest, ExpOfNonPositiveArguments) {
  const auto exp = [](double x) { return std::exp(x); };
  EXPECT_LT(worst_error(Fn::kExp, grid(-87.0f, 0.0f, 1.0e-3f), exp), kTwoUlps);
  const auto special = apply(Fn::kExp, repeated({0.0f, -1000.0f}));
  const std::size_t n = special.size() / 2;
  for (std::size_t i = 0; i < n; ++i) {
    EXPECT_EQ(special[i], 1.0f);
    // Below -87 the floor exp(-87), never 0 or a denormal.
    EXPECT_FLOAT_EQ(special[n + i], std::exp(-87.0f));
  }
}

TEST_P(VectorMathTest, SigmoidIsWithinTwoUlpsEverywhere) {
  const auto sigmoid = [](double x) { return 1.0 / (1.0 + std::exp(-x)); };
  EXPECT_LT(worst_error(Fn::kSigmoid, grid(-80.0f, 40.0f, 1.0e-3f), sigmoid), kTwoUlps);
  const auto special = apply(Fn::kSigmoid, repeated({kInf, -kInf, 0.0f, kNan}));
  const std::size_t n = special.size() / 4;
  for (std::size_t i = 0; i < n; ++i) {
    EXPECT_EQ(special[i], 1.0f);
    EXPECT_EQ(special[n + i], std::exp(-87.0f) / (1.0f + std::exp(-87.0f)));
    EXPECT_EQ(special[2 * n + i], 0.5f);
    EXPECT_TRUE(std::isnan(special[3 * n + i]));
  }
}

INSTANTIATE_TEST_SUITE_P(Isa, VectorMathTest, ::testing::ValuesIn(kIsas),
                         [](const ::testing::TestParamInfo<Isa>& isa) {
                           return std::string(isa.param.name);
                         });

TEST(Bf16Test, RoundsToNearestEven) {
  EXPECT_EQ(platform::to_bf16(1.0f), 0x3F80);
  EXPECT_EQ(platform::widen(platform::to_bf16(-2.5f)), -2.5f);
  // 1 + 2^-8 lies halfway between 1 and 1 + 2^-7: to the even one, 1.
  EXPECT_EQ(platform::widen(platform::to_bf16(1.0f + 0.00390625f)), 1.0f);
  // 1 + 3 * 2^-8, halfway between 1 + 2^-7 and 1 + 2^-6: to 1 + 2^-6.
  EXPECT_EQ(platform::widen(platform::to_bf16(1.0f + 3 * 0.00390625f)), 1.015625f);
  EXPECT_EQ(platform::widen(platform::to_bf16(1.0f + 0.005f)), 1.0078125f);  // nearest
}

}  // namespace
}  // namespace s2s
