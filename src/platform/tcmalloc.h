#pragma once
// Whether LibTorch's allocator (tcmalloc, which Debian's LibTorch links) gives freed memory back
// to the system. By default it returns free spans gradually (TCMALLOC_RELEASE_RATE=1), and the
// next step's large tensors (the logits, the output layer's weight gradient, ~10-20 MB each on
// the reference model) are then fresh pages that fault in on first write: in a VM a fault costs
// microseconds, and bf16 training lost about 8% of its speed to them (docs/performance.md).
// s2s sets TCMALLOC_RELEASE_RATE=0: freed memory stays with the process for its next step, so
// the peak memory is what it was, and it is held until the process ends.
//
// tcmalloc reads the rate when it loads, before main(), so the program sets it by starting
// itself again with it in its environment (platform/math_libraries.h). A user's own
// TCMALLOC_RELEASE_RATE always wins.

#include <string>

namespace s2s::platform {

// When TCMALLOC_RELEASE_RATE is unset, sets it to 0 for the next start and returns true;
// unset_tcmalloc_release() takes it back.
bool choose_tcmalloc_release();
void unset_tcmalloc_release();

// For the log: "freed memory kept (TCMALLOC_RELEASE_RATE=0, set by s2s)", or what the
// environment chose.
std::string tcmalloc_release();

}  // namespace s2s::platform
