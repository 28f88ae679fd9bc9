#include "platform/cpu_load.h"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>

namespace s2s::platform {
namespace {

// "cpu  user nice system idle iowait irq softirq steal guest guest_nice": guest time is already
// inside user and nice.
bool read_machine(CpuTimes& times) {
  std::ifstream stat("/proc/stat");
  std::string label;
  double user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0;
  if (!(stat >> label >> user >> nice >> system >> idle >> iowait >> irq >> softirq) ||
      label != "cpu") {
    return false;
  }
  if (!(stat >> steal)) steal = 0;
  times.busy = user + nice + system + irq + softirq + steal;
  times.total = times.busy + idle + iowait;
  return true;
}

// /proc/self/stat: "pid (comm) state ppid ..." with utime and stime the 14th and 15th fields;
// comm may hold spaces and parentheses, so fields are counted after the last ')'.
bool read_self(CpuTimes& times) {
  std::ifstream stat("/proc/self/stat");
  std::string line;
  if (!std::getline(stat, line)) return false;
  const auto close = line.rfind(')');
  if (close == std::string::npos) return false;
  std::istringstream fields(line.substr(close + 1));
  std::string field;
  for (int i = 3; i <= 13; ++i) fields >> field;  // state .. cmajflt
  double utime = 0, stime = 0;
  if (!(fields >> utime >> stime)) return false;
  times.self = utime + stime;
  return true;
}

}  // namespace

std::optional<CpuTimes> read_cpu_times() {
  CpuTimes times;
  if (!read_machine(times) || !read_self(times)) return std::nullopt;
  return times;
}

double busy_cores_of_others(const CpuTimes& before, const CpuTimes& after, int cores) {
  const double total = after.total - before.total;
  if (total <= 0.0 || cores <= 0) return 0.0;
  const double others = (after.busy - before.busy) - (after.self - before.self);
  return std::clamp(others / total * cores, 0.0, static_cast<double>(cores));
}

}  // namespace s2s::platform
