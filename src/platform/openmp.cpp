#include "platform/openmp.h"

#include <cstdlib>

namespace s2s::platform {
namespace {

constexpr const char* kChosenBy = "S2S_OPENMP_CHOSEN";  // marks the second start

}  // namespace

bool choose_openmp_spin() {
  if (std::getenv("OMP_WAIT_POLICY") != nullptr || std::getenv("GOMP_SPINCOUNT") != nullptr) {
    return false;
  }
  ::setenv("GOMP_SPINCOUNT", kOpenMpSpinCount, 1);
  ::setenv(kChosenBy, "1", 1);
  return true;
}

void unset_openmp_spin() {
  ::unsetenv("GOMP_SPINCOUNT");
  ::unsetenv(kChosenBy);
}

std::string openmp_waiting() {
  const char* spin = std::getenv("GOMP_SPINCOUNT");
  const char* policy = std::getenv("OMP_WAIT_POLICY");
  if (spin != nullptr && std::getenv(kChosenBy) != nullptr) {
    return std::string("spin ") + spin + " iterations, then sleep (GOMP_SPINCOUNT, set by s2s)";
  }
  if (policy != nullptr || spin != nullptr) {
    return std::string("wait as the environment says (") +
           (policy != nullptr ? std::string("OMP_WAIT_POLICY=") + policy : "") +
           (policy != nullptr && spin != nullptr ? ", " : "") +
           (spin != nullptr ? std::string("GOMP_SPINCOUNT=") + spin : "") + ")";
  }
  return "wait as libgomp does by default";
}

}  // namespace s2s::platform
