#pragma once
// What this machine offers: memory, processors.

#include <cstdint>
#include <string>

namespace s2s::util {

// MemAvailable of /proc/meminfo in bytes (what can be allocated without swapping); 0 when it
// cannot be read.
double available_memory_bytes();

// "12.3 GiB", "512.0 MiB", "1.2e+06 GiB": a byte count for people.
std::string format_bytes(double bytes);

}  // namespace s2s::util
