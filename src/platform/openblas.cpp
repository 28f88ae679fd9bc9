#include "platform/openblas.h"

#include <dlfcn.h>

#include <array>
#include <cstdlib>
#include <string_view>
#include <utility>

#include "util/system.h"

namespace s2s::platform {
namespace {

constexpr const char* kChosenBy = "S2S_OPENBLAS_CHOSEN";  // what OpenBLAS took the CPU for

// OpenBLAS's kernel families (driver/others/dynamic.c) by the widest vectors they use:
// 0 SSE, 1 AVX, 2 AVX2 + FMA, 3 AVX-512.
int vector_level(std::string_view core) {
  constexpr std::array<std::pair<std::string_view, int>, 26> kLevels{{
      {"Unknown", 0},     {"Katmai", 0},         {"Coppermine", 0}, {"Northwood", 0},
      {"Prescott", 0},    {"Banias", 0},         {"Atom", 0},       {"Core2", 0},
      {"Penryn", 0},      {"Dunnington", 0},     {"Nehalem", 0},    {"Athlon", 0},
      {"Opteron", 0},     {"Opteron_SSE3", 0},   {"Barcelona", 0},  {"Nano", 0},
      {"Sandybridge", 1}, {"Bulldozer", 1},      {"Piledriver", 1}, {"Steamroller", 1},
      {"Haswell", 2},     {"Excavator", 2},      {"Zen", 2},        {"SkylakeX", 3},
      {"Cooperlake", 3},  {"SapphireRapids", 3},
  }};
  for (const auto& [name, level] : kLevels) {
    if (name == core) return level;
  }
  return -1;
}

// openblas_get_corename() of the OpenBLAS this process has loaded (LibTorch's BLAS), "" if none.
std::string loaded_openblas_core() {
  using CoreName = char* (*)();
  auto* get = reinterpret_cast<CoreName>(::dlsym(RTLD_DEFAULT, "openblas_get_corename"));
  const char* name = get != nullptr ? get() : nullptr;
  return name != nullptr ? name : "";
}

}  // namespace

std::string openblas_core_for_flags(const std::string& flags) {
  if (util::has_cpu_flags(flags, {"avx512f", "avx512bw", "avx512vl", "avx512dq", "avx512cd"})) {
    return "SkylakeX";
  }
  if (util::has_cpu_flags(flags, {"avx2", "fma"})) return "Haswell";
  return "";
}

bool openblas_core_is_older(const std::string& detected, const std::string& wanted) {
  const int have = vector_level(detected), want = vector_level(wanted);
  return have >= 0 && want >= 0 && have < want;
}

std::string openblas_core_to_set() {
  if (std::getenv("OPENBLAS_CORETYPE") != nullptr) return "";
  const std::string detected = loaded_openblas_core();
  const std::string wanted = openblas_core_for_flags(util::cpu_flags());
  return !detected.empty() && openblas_core_is_older(detected, wanted) ? wanted : "";
}

void set_openblas_core(const std::string& core) {
  ::setenv(kChosenBy, loaded_openblas_core().c_str(), 1);
  ::setenv("OPENBLAS_CORETYPE", core.c_str(), 1);
}

void unset_openblas_core() {
  ::unsetenv(kChosenBy);
  ::unsetenv("OPENBLAS_CORETYPE");
}

std::string openblas_kernels() {
  const std::string core = loaded_openblas_core();
  if (core.empty()) return "";
  const char* chosen = std::getenv(kChosenBy);
  const char* user = std::getenv("OPENBLAS_CORETYPE");
  if (chosen != nullptr && user != nullptr) {
    return "OpenBLAS " + core + " kernels (set by s2s: OpenBLAS took this CPU for " + chosen + ")";
  }
  return "OpenBLAS " + core + " kernels" + (user != nullptr ? " (OPENBLAS_CORETYPE)" : "");
}

}  // namespace s2s::platform
