#include "device/device.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <thread>

#include "config/choices.h"
#include "platform/openblas.h"
#include "platform/openmp.h"
#include "platform/tcmalloc.h"
#include "util/error.h"
#include "util/logging.h"

namespace s2s::device {

torch::Device resolve_device(const std::string& name) {
  const auto kind = config::device_kind(name);
  if (kind == config::DeviceKind::kAuto) {
    return torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  }
  if (kind == config::DeviceKind::kCpu) return torch::kCPU;
  if (!torch::cuda::is_available()) {
    throw ConfigError("device: '" + name +
                      "' asked for, but this LibTorch build sees no CUDA device");
  }
  return torch::Device(name);
}

void seed_everything(int64_t seed) { torch::manual_seed(static_cast<uint64_t>(seed)); }

namespace {

int machine_cores() { return std::max(1, static_cast<int>(std::thread::hardware_concurrency())); }

// OMP_NUM_THREADS as a user set it (a positive integer), else 0.
int64_t environment_threads() {
  const char* value = std::getenv("OMP_NUM_THREADS");
  if (value == nullptr) return 0;
  char* end = nullptr;
  const long n = std::strtol(value, &end, 10);
  return end != value && *end == '\0' && n > 0 ? n : 0;
}

// Cores other processes keep busy, measured over `seconds` (0 where /proc cannot be read).
double busy_cores_now(double seconds, int cores) {
  const auto before = platform::read_cpu_times();
  std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
  const auto after = platform::read_cpu_times();
  return before && after ? platform::busy_cores_of_others(*before, *after, cores) : 0.0;
}

std::string plural_threads(int n) { return std::to_string(n) + (n == 1 ? " thread" : " threads"); }

}  // namespace

int threads_for_free_cores(int cores, double busy_of_others) {
  const auto free = static_cast<int>(std::lround(static_cast<double>(cores) - busy_of_others));
  return std::clamp(free, 1, std::max(cores, 1));
}

bool threads_follow_load(int64_t threads) { return threads <= 0 && environment_threads() == 0; }

std::string set_threads(int64_t threads) {
  const std::string kernels = platform::openblas_kernels();
  const std::string waiting = "; OpenMP threads " + platform::openmp_waiting() +
                              (kernels.empty() ? "" : "; " + kernels) + "; " +
                              platform::tcmalloc_release();
  const int64_t environment = environment_threads();
  if (threads > 0 || environment > 0) {
    const auto asked = threads > 0 ? threads : environment;
    const std::string source = threads > 0 ? "the threads key" : "OMP_NUM_THREADS";
    // More threads than the machine has only wait on each other (and a huge count would take
    // minutes to start): at most one per hardware thread.
    const int cores = std::max(machine_cores(), 1);
    const auto n = static_cast<int>(std::min<int64_t>(asked, cores));
    torch::set_num_threads(n);
    if (n < asked) {
      return fmt::format("{} ({} asked for {}; this machine has {} hardware threads)",
                         plural_threads(n), source, asked, cores) +
             waiting;
    }
    return plural_threads(n) + " (" + source + ")" + waiting;
  }
  const int cores = machine_cores();
  const double busy = busy_cores_now(0.1, cores);
  const int n = threads_for_free_cores(cores, busy);
  torch::set_num_threads(n);
  return fmt::format("{} (one per free core: other processes use {:.1f} of {}; follows the load)",
                     plural_threads(n), busy, cores) +
         waiting;
}

LoadFollowingThreads::LoadFollowingThreads(int64_t threads)
    : cores_(machine_cores()),
      last_(std::chrono::steady_clock::now()),
      last_times_(platform::read_cpu_times()) {
  active_ = threads_follow_load(threads) && last_times_.has_value() && cores_ > 1;
}

void LoadFollowingThreads::update() {
  if (!active_) return;
  const auto now = std::chrono::steady_clock::now();
  if (std::chrono::duration<double>(now - last_).count() < kRecheckSeconds) return;
  const auto times = platform::read_cpu_times();
  if (!times) return;
  const double busy = platform::busy_cores_of_others(*last_times_, *times, cores_);
  last_ = now;
  last_times_ = times;
  const int n = threads_for_free_cores(cores_, busy);
  if (n == torch::get_num_threads()) return;
  torch::set_num_threads(n);
  constexpr int kMaxLogged = 20;  // a load that comes and goes must not flood the log
  if (++changes_logged_ <= kMaxLogged) {
    util::logger("device")->info(
        "other processes use {:.1f} of {} cores: {} now{}", busy, cores_, plural_threads(n),
        changes_logged_ == kMaxLogged ? " (further changes unlogged)" : "");
  }
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

}  // namespace s2s::device
