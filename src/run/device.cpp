#include "run/device.h"

#include <algorithm>
#include <chrono>
#include <limits>
#include <thread>

#include "util/error.h"
#include "util/logging.h"
#include "util/openmp.h"

namespace s2s::run {

torch::Device resolve_device(const std::string& name) {
  if (name == "auto") return torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  if (name == "cpu") return torch::kCPU;
  if (!torch::cuda::is_available()) {
    throw ConfigError("device: '" + name +
                      "' asked for, but this LibTorch build sees no CUDA device");
  }
  return torch::Device(name);
}

void seed_everything(int64_t seed) { torch::manual_seed(static_cast<uint64_t>(seed)); }

std::string set_threads(int64_t threads) {
  // 0 = every core: Debian's LibTorch otherwise starts with one thread on small machines.
  const auto cores = static_cast<int64_t>(std::thread::hardware_concurrency());
  const int n = static_cast<int>(threads > 0 ? threads : std::max<int64_t>(cores, 1));
  torch::set_num_threads(n);
  return std::to_string(n) + (threads > 0 ? " threads" : " threads (every core)") +
         "; OpenMP threads " + util::openmp_waiting();
}

double check_blas_speed() {
  constexpr int64_t kSize = 256, kMaxRepeats = 20, kMinRepeats = 3;
  constexpr double kBudgetSeconds = 0.25;  // the reference BLAS needs ~20 ms a product
  constexpr double kSlowGflops = 5.0;      // reference BLAS: ~1-2; OpenBLAS: tens on one core
  // One thread: on a busy machine a product split over threads waits for the slowest one, which
  // measures the load rather than the library. A product of ~1 ms fits in one time slice.
  const int threads = torch::get_num_threads();
  torch::set_num_threads(1);
  torch::NoGradGuard no_grad;
  const auto a = torch::full({kSize, kSize}, 0.5), b = torch::full({kSize, kSize}, 0.25);
  auto c = torch::mm(a, b);  // warm-up
  double best = std::numeric_limits<double>::infinity();
  const auto start = std::chrono::steady_clock::now();
  const auto since = [](std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
  };
  for (int64_t i = 0; i < kMaxRepeats; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    torch::mm_out(c, a, b);
    best = std::min(best, since(t0));
    if (i + 1 >= kMinRepeats && since(start) > kBudgetSeconds) break;
  }
  torch::set_num_threads(threads);
  const double n = static_cast<double>(kSize);
  const double gflops = 2.0 * n * n * n / best / 1e9;  // n^3 multiply-adds, 2 FLOPs each
  if (gflops < kSlowGflops) {
    util::logger("device")->warn(
        "matrix products are slow ({:.1f} GFLOP/s): the system BLAS looks like Debian's "
        "reference BLAS; install libopenblas0-openmp (scripts/setup.sh does)",
        gflops);
  }
  return gflops;
}

}  // namespace s2s::run
