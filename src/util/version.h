#pragma once
// Which program this is: its version and, when built from a git checkout, the commit.

#include <string>

namespace s2s::util {

std::string program_version();  // "0.1.0"
std::string git_commit();       // "1a2b3c4d5e6f" (+ "-dirty" for uncommitted changes), or ""

}  // namespace s2s::util
