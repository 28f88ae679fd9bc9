// The machine: the CPU load of other processes, the OpenBLAS kernels chosen from the CPU's flags.

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <string>

#include "platform/cpu_load.h"
#include "platform/openblas.h"

namespace s2s::platform {
namespace {

TEST(OpenBlasTest, TheFlagsNameTheWidestKernelsTheCpuRuns) {
  const std::string avx2 = "fpu sse sse2 ssse3 sse4_1 sse4_2 avx fma avx2";
  const std::string avx512 = avx2 + " avx512f avx512dq avx512cd avx512bw avx512vl avx512_bf16";
  EXPECT_EQ(openblas_core_for_flags(avx512), "SkylakeX");
  EXPECT_EQ(openblas_core_for_flags(avx2), "Haswell");
  EXPECT_EQ(openblas_core_for_flags(avx2 + " avx512f"),
            "Haswell");  // AVX-512 F alone is not enough
  EXPECT_EQ(openblas_core_for_flags("fpu sse sse2 avx"), "");
  EXPECT_EQ(openblas_core_for_flags("fma avx2x"), "");  // whole words only
  EXPECT_EQ(openblas_core_for_flags(""), "");
}

TEST(OpenBlasTest, OnlyAnOlderFamilyIsReplaced) {
  EXPECT_TRUE(openblas_core_is_older("Prescott", "SkylakeX"));  // a CPU newer than OpenBLAS
  EXPECT_TRUE(openblas_core_is_older("Prescott", "Haswell"));
  EXPECT_TRUE(openblas_core_is_older("Sandybridge", "Haswell"));
  EXPECT_TRUE(openblas_core_is_older("Zen", "SkylakeX"));
  EXPECT_FALSE(openblas_core_is_older("SkylakeX", "SkylakeX"));
  EXPECT_FALSE(openblas_core_is_older("Cooperlake", "SkylakeX"));
  EXPECT_FALSE(openblas_core_is_older("SapphireRapids", "Haswell"));
  EXPECT_FALSE(openblas_core_is_older("Zen5", "SkylakeX"));  // unknown: a newer OpenBLAS's
  EXPECT_FALSE(openblas_core_is_older("Prescott", ""));      // the flags support nothing wider
}

TEST(CpuLoadTest, OthersAreTheMachinesBusyTicksLessThisProcesss) {
  // 2 cores, 200 ticks of machine time: 150 busy, 50 of them this process's -> 1 core of others.
  const CpuTimes before{1000, 4000, 300}, after{1150, 4200, 350};
  EXPECT_DOUBLE_EQ(busy_cores_of_others(before, after, 2), 1.0);
  EXPECT_DOUBLE_EQ(busy_cores_of_others(before, before, 2), 0.0);  // no time passed
  // Counters read at slightly different moments never give less than 0 or more than the cores.
  EXPECT_DOUBLE_EQ(busy_cores_of_others(before, {1010, 4010, 330}, 2), 0.0);
  EXPECT_DOUBLE_EQ(busy_cores_of_others(before, {1300, 4100, 300}, 2), 2.0);
}

TEST(CpuLoadTest, ABusyChildProcessCountsAsAnotherProcesssCore) {
  const auto before = read_cpu_times();
  ASSERT_TRUE(before.has_value()) << "/proc/stat or /proc/self/stat unreadable";
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {  // spin for 0.5 s, then leave without running the parent's handlers
    const auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(500);
    while (std::chrono::steady_clock::now() < end) {
    }
    _exit(0);
  }
  int status = 0;
  waitpid(child, &status, 0);
  const auto after = read_cpu_times();
  ASSERT_TRUE(after.has_value());
  const auto cores = static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN));
  // The child held (about) one core the whole time; other tests may add more, never less.
  EXPECT_GE(busy_cores_of_others(*before, *after, cores), 0.5);
  EXPECT_LE(busy_cores_of_others(*before, *after, cores), cores);
}

}  // namespace
}  // namespace s2s::platform
