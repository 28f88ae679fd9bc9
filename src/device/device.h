#pragma once
// "auto" | "cpu" | "cuda" | "cuda:N" -> torch::Device. Nothing else in the code assumes CPU.

#include <torch/torch.h>

#include <chrono>
#include <optional>
#include <string>

#include "platform/cpu_load.h"

namespace s2s::device {

// "auto" picks CUDA when available. Asking for CUDA on a machine without it is a ConfigError.
torch::Device resolve_device(const std::string& name);

// Seeds LibTorch's generators (CPU and CUDA) from the config seed.
void seed_everything(int64_t seed);

// Sets LibTorch's intra-op threads. `threads` > 0 is kept as given; 0 (the default) means one
// thread per core that other processes leave free (at least one), measured over 0.1 s, unless
// OMP_NUM_THREADS in the environment says how many. Returns a line for the log: the threads,
// why, how OpenMP's threads wait (platform/openmp.h) and which OpenBLAS kernels run
// (platform/openblas.h).
std::string set_threads(int64_t threads);

// True when set_threads(threads) lets the count follow the load (`threads` 0, no
// OMP_NUM_THREADS).
bool threads_follow_load(int64_t threads);

// Keeps LibTorch's thread count at one per free core while training runs: OpenMP's threads wait
// for each other at every parallel region, so one thread on a core that another process holds
// slows them all (a 2-thread step beside one busy process ran at 0.25-0.3 of its idle speed,
// one thread at about 0.6). update() is called once a step and costs nothing between checks;
// every kRecheckSeconds it reads /proc (platform/cpu_load.h) and, when the free cores changed, sets
// the new count and logs it. Changes how fast steps run, never what they compute.
class LoadFollowingThreads {
 public:
  static constexpr double kRecheckSeconds = 2.0;

  // Follows the load only when threads_follow_load(threads); otherwise update() does nothing.
  explicit LoadFollowingThreads(int64_t threads);
  void update();

 private:
  bool active_ = false;
  int cores_ = 1;
  int changes_logged_ = 0;
  std::chrono::steady_clock::time_point last_;
  std::optional<platform::CpuTimes> last_times_;
};

// Threads for `cores` cores of which other processes keep `busy_of_others` busy:
// round(cores - busy_of_others), at least 1.
int threads_for_free_cores(int cores, double busy_of_others);

// Times a 256 x 256 float matrix product on one CPU thread (best of a few) and logs a warning
// naming the fix when it runs below 5 GFLOP/s, the sign of Debian's reference BLAS (OpenBLAS
// reaches tens of GFLOP/s on one core). Returns the measured GFLOP/s. Draws no random numbers;
// leaves the thread count as it found it.
double check_blas_speed();

}  // namespace s2s::device
