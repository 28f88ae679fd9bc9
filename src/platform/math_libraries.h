#pragma once
// Settings of LibTorch's math libraries that they read only when they load, before main():
// how OpenMP's idle threads wait (platform/openmp.h), which OpenBLAS kernels run the fp32
// matrix products (platform/openblas.h), and whether the allocator keeps freed memory
// (platform/tcmalloc.h). The program chooses them and starts itself again with
// them in its environment; what the user's environment already says wins.

namespace s2s::platform {

// Called first in main(): sets what the environment leaves open and executes the program
// again with the same arguments. Returns (and changes nothing) when there is nothing to set,
// or if starting again fails.
void choose_math_library_settings(char** argv);

}  // namespace s2s::platform
