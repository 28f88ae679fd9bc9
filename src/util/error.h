#pragma once
// Error types and how they reach the user: a UserError (bad config, bad input file, bad
// command line) prints one line and exits 2; anything else exits 1.

#include <stdexcept>
#include <string>

namespace s2s {

// A mistake the user can fix: the message names the file, line or config key.
struct UserError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A config key that is unknown, of the wrong type, or out of range.
struct ConfigError : UserError {
  using UserError::UserError;
};

// An input file that is missing or malformed (invalid UTF-8, mismatched line counts, ...).
struct InputError : UserError {
  using UserError::UserError;
};

// A process ends with `code` after its failure was already reported (the workers of
// `train --nproc` printed their own errors): main prints nothing more.
struct ExitStatus : std::runtime_error {
  explicit ExitStatus(int exit_code)
      : std::runtime_error("exit " + std::to_string(exit_code)), code(exit_code) {}
  int code;
};

}  // namespace s2s
