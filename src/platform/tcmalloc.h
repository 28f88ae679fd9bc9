#pragma once
// Whether the program's allocator (tcmalloc, which s2s links; not under the sanitizers) gives
// freed memory back to the system. By default it returns free spans gradually
// (TCMALLOC_RELEASE_RATE=1), and the next step's large tensors (the logits, the output layer's
// weight gradient, ~10-20 MB each on the reference model) are then fresh pages that fault in on
// first write: in a VM a fault costs microseconds, and bf16 training lost about 8% of its speed to
// them (docs/performance.md). s2s sets TCMALLOC_RELEASE_RATE=0: freed memory stays with the process
// for its next step, so the peak memory is what it was, and it is held until the process ends.
//
// tcmalloc reads the rate when it loads, before main(), so the program sets it by starting
// itself again with it in its environment (platform/math_libraries.h). A user's own
// TCMALLOC_RELEASE_RATE always wins.

#include <string>

namespace s2s::platform {

// Whether tcmalloc is this process's malloc (found by one of its own symbols).
bool tcmalloc_linked();

// When tcmalloc is `linked` and TCMALLOC_RELEASE_RATE is unset, sets it to 0 for the next start
// and returns true; unset_tcmalloc_release() takes it back.
bool choose_tcmalloc_release(bool linked = tcmalloc_linked());
void unset_tcmalloc_release();

// For the log: "freed memory kept (TCMALLOC_RELEASE_RATE=0, set by s2s)", what the environment
// chose, or that another malloc runs.
std::string tcmalloc_release(bool linked = tcmalloc_linked());

}  // namespace s2s::platform
