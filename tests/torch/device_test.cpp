// The thread count: kept where the user chose it, else one thread per free core.

#include "device/device.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <torch/torch.h>

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
  EXPECT_FALSE(device::threads_follow_load(3));
  EXPECT_NE(device::set_threads(3).find("3 threads (the threads key)"), std::string::npos);
  EXPECT_EQ(torch::get_num_threads(), 3);
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
