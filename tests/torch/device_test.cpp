// The thread count: kept where the user chose it (at most one per hardware thread), else one
// thread per free core.

#include "device/device.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <torch/torch.h>

#include <algorithm>
#include <string>
#include <thread>

namespace s2s {
namespace {

TEST(ThreadsTest, OnePerFreeCoreAndAtLeastOne) {
  EXPECT_EQ(device::threads_for_free_cores(2, 0.05), 2);  // idle but for noise
  EXPECT_EQ(device::threads_for_free_cores(2, 0.7), 1);   // beside one busy process (its share)
  EXPECT_EQ(device::threads_for_free_cores(2, 2.0), 1);   // a build on every core: still one
  EXPECT_EQ(device::threads_for_free_cores(16, 3.2), 13);
  EXPECT_EQ(device::threads_for_free_cores(1, 0.0), 1);
}

TEST(ThreadsTest, AChosenCountIsKeptAndTheEnvironmentWins) {
  const int before = torch::get_num_threads();
  ::unsetenv("OMP_NUM_THREADS");
  EXPECT_FALSE(device::threads_follow_load(1));
  EXPECT_NE(device::set_threads(1).find("1 thread (the threads key)"), std::string::npos);
  EXPECT_EQ(torch::get_num_threads(), 1);
  // More than the machine has: one per hardware thread, and the message says so.
  const int hardware = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  const auto capped = device::set_threads(hardware + 3);
  EXPECT_NE(capped.find("the threads key asked for " + std::to_string(hardware + 3)),
            std::string::npos)
      << capped;
  EXPECT_EQ(torch::get_num_threads(), hardware);
  EXPECT_TRUE(device::threads_follow_load(0));
  EXPECT_NE(device::set_threads(0).find("follows the load"), std::string::npos);
  EXPECT_GE(torch::get_num_threads(), 1);
  ::setenv("OMP_NUM_THREADS", "1", 1);
  EXPECT_FALSE(device::threads_follow_load(0));
  EXPECT_NE(device::set_threads(0).find("1 thread (OMP_NUM_THREADS)"), std::string::npos);
  EXPECT_EQ(torch::get_num_threads(), 1);
  ::unsetenv("OMP_NUM_THREADS");
  torch::set_num_threads(before);
}

}  // namespace
}  // namespace s2s
