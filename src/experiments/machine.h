#pragma once
// Yardsticks of the machine a benchmark runs on: a matrix-product probe of its practical peak,
// the process's memory and its age.

#include <torch/torch.h>

#include <cstdint>

namespace s2s::experiments {

// Practical peak: the best of up to `repeats` products of two n x n matrices of `dtype` (fp32 or
// bf16) on `device` (fewer when they are slow: at least 3, then stop after ~2 s), as
// 2 n^3 / seconds, in GFLOP/s.
double matmul_probe_gflops(torch::Device device, torch::ScalarType dtype = torch::kFloat,
                           int64_t n = 1024, int64_t repeats = 20);

// Peak resident memory of the process (VmHWM of /proc/self/status) in MiB; 0 if unreadable.
double peak_rss_mib();
// Lowers the peak to the current resident size (writes 5 to /proc/self/clear_refs, Linux), so
// that the next peak_rss_mib() covers only what follows; silently does nothing elsewhere.
void reset_peak_rss();
// Seconds since this process started (from /proc), the time LibTorch takes to load included.
double process_uptime_s();

// CUDA runs asynchronously: a timer must wait for the queued kernels.
void synchronize(torch::Device device);

}  // namespace s2s::experiments
