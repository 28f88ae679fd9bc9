#pragma once
// How OpenMP's worker threads wait between parallel regions. LibTorch and OpenBLAS run their
// matrix products on libgomp, whose idle threads spin (busy-wait) for a while before they
// sleep: on an idle machine that saves the wake-up of every region, but when another process
// holds a core, a region waits for a thread that is not running, and training slows many
// times over. s2s caps the spinning so that it keeps most of its speed beside other work and
// loses little alone (docs/performance.md "On a busy machine", measured there).
//
// libgomp reads its settings when it is loaded, before main(), so the program sets them by
// starting itself again with them in its environment (platform/math_libraries.h). A user's own
// OMP_WAIT_POLICY or GOMP_SPINCOUNT always wins.

#include <string>

namespace s2s::platform {

// The spin count s2s chooses (GOMP_SPINCOUNT: iterations before an idle thread sleeps).
constexpr const char* kOpenMpSpinCount = "10000";

// When neither OMP_WAIT_POLICY nor GOMP_SPINCOUNT is set, sets GOMP_SPINCOUNT to
// kOpenMpSpinCount for the next start and returns true; unset_openmp_spin() takes it back.
bool choose_openmp_spin();
void unset_openmp_spin();

// For the log: "spin 10000 iterations, then sleep (GOMP_SPINCOUNT, set by s2s)", or what the
// environment chose.
std::string openmp_waiting();

}  // namespace s2s::platform
