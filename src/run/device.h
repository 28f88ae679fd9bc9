#pragma once
// "auto" | "cpu" | "cuda" | "cuda:N" -> torch::Device. Nothing else in the code assumes CPU.

#include <torch/torch.h>

#include <string>

namespace s2s::run {

// "auto" picks CUDA when available. Asking for CUDA on a machine without it is a ConfigError.
torch::Device resolve_device(const std::string& name);

// Seeds LibTorch's generators (CPU and CUDA) from the config seed.
void seed_everything(int64_t seed);

// Sets LibTorch's intra-op threads; 0 = every core. Returns a line for the log: the threads and
// how OpenMP's threads wait (util/openmp.h).
std::string set_threads(int64_t threads);

// Times a 256 x 256 float matrix product on one CPU thread (best of a few) and logs a warning
// naming the fix when it runs below 5 GFLOP/s, the sign of Debian's reference BLAS (OpenBLAS
// reaches tens of GFLOP/s on one core). Returns the measured GFLOP/s. Draws no random numbers;
// leaves the thread count as it found it.
double check_blas_speed();

}  // namespace s2s::run
