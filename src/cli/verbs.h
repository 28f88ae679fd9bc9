#pragma once
// The verbs of the `s2s` binary. Each verb lives in its own file as an options struct, a
// `setup_<verb>(CLI::App&)` that registers the subcommand, and a `run_<verb>(options)`.

#include <CLI/CLI.hpp>
#include <string>

namespace s2s::cli {

// Registers every verb on `app`.
void setup_verbs(CLI::App& app);

// The first line of an error message: users get one line, never a LibTorch backtrace.
std::string first_line(const std::string& message);

}  // namespace s2s::cli
