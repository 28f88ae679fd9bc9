#pragma once
// Training progress: a one-line bar redrawn in place on a terminal, nothing otherwise (the
// trainer's periodic log lines then carry the same figures).

#include <chrono>
#include <cstddef>
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

 private:
  int64_t total_steps_;
  bool enabled_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point start_, last_draw_;
  int64_t first_step_ = -1;
};

// Progress lines for work without a step log of its own, such as decoding a split:
// "[eval] decoding test: 512/1000 sentences, 0:12 left", at most every `every_seconds`, the
// first after `every_seconds`, so that short work prints nothing.
class ProgressLog {
 public:
  ProgressLog(std::string component, std::string what, double every_seconds = 10.0);
  void update(std::size_t done, std::size_t total);

 private:
  std::string component_, what_;
  double every_;
  std::chrono::steady_clock::time_point start_, last_;
};

// "1:02:03" / "4:05"
std::string format_duration(double seconds);

// A perplexity or loss for a log line: "12.34", "1.23e+05" when large, "inf" when infinite.
std::string format_metric(double value);

}  // namespace s2s::util
