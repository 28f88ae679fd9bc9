#include "platform/math_libraries.h"

#include <unistd.h>

#include <string>

#include "platform/openblas.h"
#include "platform/openmp.h"
#include "platform/tcmalloc.h"

namespace s2s::platform {

void choose_math_library_settings(char** argv) {
  // After the new start both are set in the environment, so this returns there.
  const bool spin = choose_openmp_spin();
  const bool release = choose_tcmalloc_release();
  const std::string core = openblas_core_to_set();
  if (!core.empty()) set_openblas_core(core);
  if (!spin && !release && core.empty()) return;
  ::execv("/proc/self/exe", argv);
  // Not started again (no /proc): carry on with the libraries' own settings.
  if (spin) unset_openmp_spin();
  if (release) unset_tcmalloc_release();
  if (!core.empty()) unset_openblas_core();
}

}  // namespace s2s::platform
