#include "util/system.h"

#include <cstdio>
#include <fstream>
#include <sstream>

namespace s2s::util {

double available_memory_bytes() {
  std::ifstream meminfo("/proc/meminfo");
  std::string line;
  while (std::getline(meminfo, line)) {
    if (line.rfind("MemAvailable:", 0) != 0) continue;
    std::istringstream fields(line.substr(13));
    double kib = 0.0;
    fields >> kib;  // "MemAvailable:   12345678 kB"
    return kib * 1024.0;
  }
  return 0.0;
}

namespace {

// The value of the first /proc/cpuinfo line that starts with `key`, "" if none.
std::string cpuinfo_value(const std::string& key) {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    if (line.rfind(key, 0) != 0) continue;
    const auto colon = line.find(':');
    const auto start = colon == std::string::npos ? colon : line.find_first_not_of(' ', colon + 1);
    return start == std::string::npos ? "" : line.substr(start);
  }
  return "";
}

}  // namespace

std::string cpu_model() { return cpuinfo_value("model name"); }

std::string cpu_flags() { return cpuinfo_value("flags"); }

bool has_cpu_flags(const std::string& flags, std::initializer_list<const char*> wanted) {
  const std::string padded = " " + flags + " ";
  for (const char* flag : wanted) {
    if (padded.find(std::string(" ") + flag + " ") == std::string::npos) return false;
  }
  return true;
}

std::string loaded_library(const std::string& part) {
  std::ifstream maps("/proc/self/maps");
  std::string line;
  while (std::getline(maps, line)) {
    const auto slash = line.find('/');
    if (slash == std::string::npos) continue;
    const auto path = line.substr(slash);
    const auto name = path.substr(path.rfind('/') + 1);
    if (name.find(part) != std::string::npos && name.find(".so") != std::string::npos) return path;
  }
  return "";
}

std::string format_bytes(double bytes) {
  constexpr double kMiB = 1024.0 * 1024.0, kGiB = 1024.0 * kMiB;
  char buffer[64];
  if (bytes < kGiB) {
    std::snprintf(buffer, sizeof buffer, "%.1f MiB", bytes / kMiB);
  } else if (bytes < 1e6 * kGiB) {
    std::snprintf(buffer, sizeof buffer, "%.1f GiB", bytes / kGiB);
  } else {
    std::snprintf(buffer, sizeof buffer, "%.2g GiB", bytes / kGiB);
  }
  return buffer;
}

}  // namespace s2s::util
