#include "util/version.h"

#include "git_commit.h"  // generated at build time by cmake/GitCommit.cmake

namespace s2s::util {

std::string program_version() { return S2S_VERSION; }
std::string git_commit() { return S2S_GIT_COMMIT; }

}  // namespace s2s::util
