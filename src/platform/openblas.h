#pragma once
// Which OpenBLAS kernels the fp32 matrix products run on. OpenBLAS picks them from the CPU's
// family and model at load; a CPU newer than the OpenBLAS release is taken for an old generic
// one (Debian 12's 0.3.21 takes Intel's Sapphire and Emerald Rapids for "Prescott", SSE3 only),
// and its fp32 products run at ~60% of the speed the CPU's own instructions give (64 against
// 106 GFLOP/s on one core of such a machine). Where that happens, s2s names the kernels the
// CPU's flags support in OPENBLAS_CORETYPE, which OpenBLAS reads when it loads (so the program
// sets it by starting itself again: platform/openmp.h). A user's own OPENBLAS_CORETYPE wins.

#include <string>

namespace s2s::platform {

// The best OpenBLAS kernel family these /proc/cpuinfo flags (space-separated) can run:
// "SkylakeX" (AVX-512 F, BW, VL, DQ, CD), "Haswell" (AVX2 and FMA), or "" (leave OpenBLAS be).
std::string openblas_core_for_flags(const std::string& flags);

// True when `detected` (OpenBLAS's own choice, openblas_get_corename()) is a generic or older
// family than `wanted`; false for names it does not know (a newer OpenBLAS's cores).
bool openblas_core_is_older(const std::string& detected, const std::string& wanted);

// The OPENBLAS_CORETYPE to set in this process: the kernels of the CPU's flags where the loaded
// OpenBLAS chose older ones, "" when OpenBLAS is not loaded, chose well, or the user set one.
std::string openblas_core_to_set();

// Puts `core` in OPENBLAS_CORETYPE for the next start, noting what OpenBLAS chose itself; the
// second takes both back.
void set_openblas_core(const std::string& core);
void unset_openblas_core();

// For the log: "OpenBLAS SkylakeX kernels (set by s2s: OpenBLAS took this CPU for Prescott)",
// "OpenBLAS Haswell kernels", or "" when the BLAS is not OpenBLAS.
std::string openblas_kernels();

}  // namespace s2s::platform
