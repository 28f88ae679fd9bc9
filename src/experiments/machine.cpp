#include "experiments/machine.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>

namespace s2s::experiments {
namespace {

using Clock = std::chrono::steady_clock;

// Fallback origin of process_uptime_s() where /proc cannot be read: static initialization.
const Clock::time_point kStaticInit = Clock::now();

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

}  // namespace

void synchronize(torch::Device device) {
  if (device.is_cuda()) torch::cuda::synchronize(device.index());
}

double matmul_probe_gflops(torch::Device device, torch::ScalarType dtype, int64_t n,
                           int64_t repeats) {
  constexpr int64_t kMinRepeats = 3;
  constexpr double kBudgetSeconds = 2.0;
  torch::NoGradGuard no_grad;
  const auto options = torch::TensorOptions().dtype(dtype).device(device);
  const auto a = torch::full({n, n}, 0.5, options), b = torch::full({n, n}, 0.25, options);
  auto c = torch::mm(a, b);  // warm-up: threads, caches
  synchronize(device);
  double best = std::numeric_limits<double>::infinity();
  const auto start = Clock::now();
  for (int64_t i = 0; i < repeats; ++i) {
    const auto t0 = Clock::now();
    torch::mm_out(c, a, b);
    synchronize(device);
    best = std::min(best, seconds_since(t0));
    if (i + 1 >= kMinRepeats && seconds_since(start) > kBudgetSeconds) break;
  }
  const auto size = static_cast<double>(n);
  return 2.0 * size * size * size / best / 1e9;  // n^3 multiply-adds, 2 FLOPs each
}

double peak_rss_mib() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmHWM:", 0) != 0) continue;
    std::istringstream fields(line.substr(6));
    double kib = 0.0;
    fields >> kib;  // "VmHWM:    123456 kB"
    return kib / 1024.0;
  }
  return 0.0;
}

void reset_peak_rss() {
  std::ofstream clear_refs("/proc/self/clear_refs");
  if (clear_refs) clear_refs << "5";  // 5: reset the peak resident set size (Linux >= 4.0)
}

double process_uptime_s() {
  // /proc/self/stat field 22 is the start time in clock ticks after boot; the command name
  // (field 2, in parentheses) may hold spaces, so count fields after its closing ')'.
  std::ifstream stat_file("/proc/self/stat"), uptime_file("/proc/uptime");
  std::string stat;
  double uptime = 0.0;
  const long ticks_per_second = sysconf(_SC_CLK_TCK);
  if (std::getline(stat_file, stat) && (uptime_file >> uptime) && ticks_per_second > 0) {
    std::istringstream fields(stat.substr(stat.rfind(')') + 1));
    std::string field;
    for (int i = 3; i <= 22 && fields >> field; ++i) {
      if (i == 22) return uptime - std::stod(field) / static_cast<double>(ticks_per_second);
    }
  }
  return seconds_since(kStaticInit);
}

}  // namespace s2s::experiments
