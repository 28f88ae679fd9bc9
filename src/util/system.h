#pragma once
// What this machine offers: memory, processors.

#include <cstdint>
#include <initializer_list>
#include <string>

namespace s2s::util {

// MemAvailable of /proc/meminfo in bytes (what can be allocated without swapping); 0 when it
// cannot be read.
double available_memory_bytes();

// "model name" of /proc/cpuinfo, "" if unknown.
std::string cpu_model();

// "flags" of /proc/cpuinfo's first processor, space-separated ("fpu vme ... avx512_bf16 ..."),
// "" if unknown.
std::string cpu_flags();

// True when every one of `wanted` is a whole word of `flags` (as cpu_flags() gives them).
bool has_cpu_flags(const std::string& flags, std::initializer_list<const char*> wanted);

// The path of the first shared library this process has loaded whose file name contains
// `part` ("blas": which BLAS LibTorch calls), "" if none.
std::string loaded_library(const std::string& part);

// "12.3 GiB", "512.0 MiB", "1.2e+06 GiB": a byte count for people.
std::string format_bytes(double bytes);

}  // namespace s2s::util
