#include "util/signals.h"

#include <unistd.h>

#include <atomic>
#include <csignal>

namespace s2s::util {
namespace {

std::atomic<int> g_pending{0};
struct sigaction g_old_int, g_old_term;
int g_depth = 0;  // guards alive (one thread creates them)

void on_signal(int signal) {
  if (signal == SIGINT && g_pending.load() != 0) {
    // Second Ctrl-C: stop now, with the status a shell expects of a process killed by SIGINT.
    std::signal(SIGINT, SIG_DFL);
    std::raise(SIGINT);
    _exit(128 + SIGINT);
  }
  g_pending.store(signal);
}

}  // namespace

// Guards nest (a training's inside the train verb's, a decoding's inside a training's test):
// only the outermost one installs and restores the handlers and clears the signal, so that a
// signal recorded under an outer guard is not lost when an inner one begins.
InterruptGuard::InterruptGuard() {
  if (g_depth++ > 0) return;
  g_pending.store(0);
  struct sigaction action {};
  action.sa_handler = on_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;  // reads and writes in progress carry on
  sigaction(SIGINT, &action, &g_old_int);
  sigaction(SIGTERM, &action, &g_old_term);
}

InterruptGuard::~InterruptGuard() {
  if (--g_depth > 0) return;
  sigaction(SIGINT, &g_old_int, nullptr);
  sigaction(SIGTERM, &g_old_term, nullptr);
}

int InterruptGuard::pending() { return g_pending.load(); }

std::string signal_name(int signal) {
  if (signal == SIGINT) return "SIGINT";
  if (signal == SIGTERM) return "SIGTERM";
  return "signal " + std::to_string(signal);
}

void stop_if_interrupted(const std::string& what) {
  if (const int signal = g_pending.load())
    throw Interrupted(signal, signal_name(signal) + " " + what);
}

}  // namespace s2s::util
