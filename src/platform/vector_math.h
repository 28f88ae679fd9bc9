#pragma once
// exp and tanh as plain arithmetic that the compiler vectorizes, for the torch-free kernels
// (loss/cross_entropy_kernel.cpp, model/additive_kernel.cpp): a call to std::exp or std::tanh in
// a loop keeps it scalar. Those files compile with -fno-math-errno -fno-trapping-math, without
// which these loops stay scalar too, and their loop functions are built once per instruction
// set with S2S_VECTOR_CLONES (everything below is inlined into each clone).

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace s2s::platform {

// A function compiled for AVX-512, AVX2 and the baseline, one chosen once at load time. The
// instruction sets are named once here: tests/unit/vector_math_test.cpp checks the accuracy of
// the functions below compiled for each, with __attribute__((target(S2S_VECTOR_ISA_AVX2))) and
// __builtin_cpu_supports(S2S_VECTOR_ISA_AVX2) (a name both take).
#define S2S_VECTOR_ISA_AVX512 "avx512f"
#define S2S_VECTOR_ISA_AVX2 "avx2"
#define S2S_VECTOR_CLONES \
  __attribute__((target_clones(S2S_VECTOR_ISA_AVX512, S2S_VECTOR_ISA_AVX2, "default")))
#define S2S_INLINE inline __attribute__((always_inline))

S2S_INLINE float from_bits(uint32_t bits) { return __builtin_bit_cast(float, bits); }
S2S_INLINE uint32_t to_bits(float f) { return __builtin_bit_cast(uint32_t, f); }

// exp(x) for x <= 0: x = k ln 2 + r, |r| <= ln(2)/2, exp(r) by Cephes' degree-6 polynomial
// (relative error about 2e-7), 2^k from the exponent bits. Below -87 (exp < 1.7e-38) it
// returns exp(-87).
S2S_INLINE float exp_nonpositive(float x) {
  x = std::max(x, -87.0f);
  // k = round(x / ln 2) (half away from zero): truncation of a value <= 0 shifted by -1/2.
  const auto k_int = static_cast<int32_t>(x * 1.44269504f - 0.5f);
  const auto k = static_cast<float>(k_int);
  const float r = (x - k * 0.693359375f) + k * 2.12194440e-4f;
  float p = 1.9875691500e-4f;
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  p = p * r * r + r + 1.0f;
  return p * from_bits(static_cast<uint32_t>(k_int + 127) << 23);
}

// tanh(x), both branches of Cephes' tanhf computed and one selected (relative error a few
// 1e-7): for |x| < 0.625 the odd polynomial x + x^3 P(x^2); above, (1 - t) / (1 + t) with
// t = exp(-2|x|) <= 0.29, where 1 - t loses no digits. NaN stays NaN (the polynomial's).
S2S_INLINE float tanh_approx(float x) {
  const float a = std::fabs(x);
  const float t = exp_nonpositive(-2.0f * a);
  const float large = (1.0f - t) / (1.0f + t);
  const float z = x * x;
  float p = -5.70498872745e-3f;
  p = p * z + 2.06390887954e-2f;
  p = p * z - 5.37397155531e-2f;
  p = p * z + 1.33314422036e-1f;
  p = p * z - 3.33332819422e-1f;
  const float small = a + a * z * p;
  // The choice and the sign as bit masks: GCC keeps a ?: between these two as a branch, and
  // a loop with one does not vectorize.
  const uint32_t take_large = 0u - static_cast<uint32_t>(a >= 0.625f);
  const uint32_t magnitude = (to_bits(large) & take_large) | (to_bits(small) & ~take_large);
  return from_bits(magnitude | (to_bits(x) & 0x80000000u));
}

// 1 / (1 + exp(-x)) from t = exp(-|x|): 1 / (1 + t) for x >= 0, t / (1 + t) below, where
// 1 - 1 / (1 + t) would lose the digits of tiny results (relative error a few 1e-7). NaN stays
// NaN.
S2S_INLINE float sigmoid_approx(float x) {
  const float t = exp_nonpositive(-std::fabs(x));
  const float inverse = 1.0f / (1.0f + t);
  const uint32_t negative = 0u - static_cast<uint32_t>(x < 0.0f);
  const uint32_t nan = 0u - static_cast<uint32_t>(x != x);
  const uint32_t value = (to_bits(inverse) & ~negative) | (to_bits(t * inverse) & negative);
  return from_bits((value & ~nan) | (to_bits(x) & nan));
}

// fp32 <-> bf16 bits (bf16 is the high half of an fp32; narrowing rounds to nearest even, for
// finite values).
S2S_INLINE float widen(uint16_t bf16) { return from_bits(static_cast<uint32_t>(bf16) << 16); }
S2S_INLINE float widen(float x) { return x; }
S2S_INLINE uint16_t to_bf16(float x) {
  const uint32_t bits = to_bits(x);
  return static_cast<uint16_t>((bits + 0x7FFFu + ((bits >> 16) & 1u)) >> 16);
}

}  // namespace s2s::platform
