#include "platform/tcmalloc.h"

#include <dlfcn.h>

#include <cstdlib>

namespace s2s::platform {
namespace {

constexpr const char* kRate = "TCMALLOC_RELEASE_RATE";
constexpr const char* kChosenBy = "S2S_TCMALLOC_CHOSEN";  // marks the second start

}  // namespace

bool tcmalloc_linked() {
  return ::dlsym(RTLD_DEFAULT, "MallocExtension_ReleaseFreeMemory") != nullptr;
}

bool choose_tcmalloc_release(bool linked) {
  if (!linked || std::getenv(kRate) != nullptr) return false;
  ::setenv(kRate, "0", 1);
  ::setenv(kChosenBy, "1", 1);
  return true;
}

void unset_tcmalloc_release() {
  ::unsetenv(kRate);
  ::unsetenv(kChosenBy);
}

std::string tcmalloc_release(bool linked) {
  if (!linked) return "malloc other than tcmalloc (a sanitizer build)";
  const char* rate = std::getenv(kRate);
  if (rate == nullptr) return "freed memory returned to the system (tcmalloc's default)";
  const std::string setting = std::string(kRate) + "=" + rate;
  if (std::getenv(kChosenBy) != nullptr) return "freed memory kept (" + setting + ", set by s2s)";
  return "freed memory as the environment says (" + setting + ")";
}

}  // namespace s2s::platform
