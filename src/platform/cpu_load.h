#pragma once
// How much of the machine other processes use, from /proc: the load the program's thread count
// follows (device/device.h). OpenMP threads wait for each other at every parallel region, so a
// thread on a core that another process holds slows all of them; one thread per free core
// does not.

#include <optional>

namespace s2s::platform {

// CPU time in clock ticks, of the whole machine and of this process.
struct CpuTimes {
  double busy = 0.0;   // /proc/stat "cpu": user, nice, system, irq, softirq, steal
  double total = 0.0;  // busy + idle + iowait
  double self = 0.0;   // /proc/self/stat: utime + stime of every thread of this process
};

// Reads the counters; nullopt where /proc cannot be read (not Linux).
std::optional<CpuTimes> read_cpu_times();

// Cores kept busy by other processes between two readings:
//   (Δbusy − Δself) / Δtotal × cores, clamped to [0, cores].
// Δtotal counts the ticks of every core, so the ratio is the busy fraction of the machine.
// 0 when no time passed.
double busy_cores_of_others(const CpuTimes& before, const CpuTimes& after, int cores);

}  // namespace s2s::platform
