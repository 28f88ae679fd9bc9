#pragma once
// Interrupts that let the current work finish: while an InterruptGuard lives, the first SIGINT
// or SIGTERM is only recorded (the training loop finishes its step, saves and exits); a second
// SIGINT ends the process at once, as Ctrl-C twice does in fairseq and Joey NMT.

#include <stdexcept>
#include <string>

#include "util/error.h"

namespace s2s::util {

class InterruptGuard {
 public:
  InterruptGuard();   // installs the handlers
  ~InterruptGuard();  // restores the previous ones
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;

  // The signal received (SIGINT or SIGTERM), or 0.
  static int pending();
};

// Work stopped by a signal after saving what it had: main exits with 128 + signal (130 for
// SIGINT, 143 for SIGTERM), as a shell reports a process ended by that signal.
struct Interrupted : std::runtime_error {
  Interrupted(int by, const std::string& message) : std::runtime_error(message), signal(by) {}
  int signal;
};

// "SIGINT", "SIGTERM", ...
std::string signal_name(int signal);

// Work that can stop between two of its pieces (batches of a decoding): throws
// Interrupted(signal, "SIGINT " + what) once an InterruptGuard has recorded a signal; does
// nothing otherwise (and without a guard, where a signal ends the process as usual).
void stop_if_interrupted(const std::string& what);

}  // namespace s2s::util
