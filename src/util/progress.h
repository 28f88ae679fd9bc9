#pragma once
// Training progress: a one-line bar redrawn in place on a terminal, nothing otherwise (the
// trainer's periodic log lines then carry the same figures).

#include <chrono>
#include <cstdint>
#include <string>

namespace s2s::util {

class ProgressBar {
 public:
  // total_steps <= 0 means unknown (no ETA).
  explicit ProgressBar(int64_t total_steps);
  ~ProgressBar();

  // Redraws at most ~10 times a second.
  void update(int64_t step, int64_t epoch, double loss, double tokens_per_second);
  // Clears the bar so a log line can be printed cleanly.
  void clear();
  bool enabled() const { return enabled_; }

 private:
  int64_t total_steps_;
  bool enabled_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point start_, last_draw_;
  int64_t first_step_ = -1;
};

// "1:02:03" / "4:05"
std::string format_duration(double seconds);

}  // namespace s2s::util
