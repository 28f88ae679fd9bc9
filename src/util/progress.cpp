#include "util/progress.h"

#include <unistd.h>

#include <cmath>
#include <cstdio>

#include "util/logging.h"

namespace s2s::util {

std::string format_duration(double seconds) {
  const auto total = static_cast<int64_t>(seconds + 0.5);
  const int64_t h = total / 3600, m = (total % 3600) / 60, s = total % 60;
  char buffer[32];
  if (h > 0) {
    std::snprintf(buffer, sizeof buffer, "%lld:%02lld:%02lld", static_cast<long long>(h),
                  static_cast<long long>(m), static_cast<long long>(s));
  } else {
    std::snprintf(buffer, sizeof buffer, "%lld:%02lld", static_cast<long long>(m),
                  static_cast<long long>(s));
  }
  return buffer;
}

std::string format_metric(double value) {
  char buffer[32];
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  if (std::isnan(value)) return "nan";
  std::snprintf(buffer, sizeof buffer, std::fabs(value) < 1e5 ? "%.2f" : "%.3g", value);
  return buffer;
}

ProgressLog::ProgressLog(std::string component, std::string what, double every_seconds)
    : component_(std::move(component)),
      what_(std::move(what)),
      every_(every_seconds),
      start_(std::chrono::steady_clock::now()),
      last_(start_) {}

void ProgressLog::update(std::size_t done, std::size_t total) {
  const auto now = std::chrono::steady_clock::now();
  if (std::chrono::duration<double>(now - last_).count() < every_ || done >= total || done == 0) {
    return;
  }
  last_ = now;
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  const double left = elapsed / static_cast<double>(done) * static_cast<double>(total - done);
  logger(component_)
      ->info("{}: {}/{} sentences, {} left", what_, done, total, format_duration(left));
}

ProgressBar::ProgressBar(int64_t total_steps)
    : total_steps_(total_steps),
      enabled_(::isatty(STDERR_FILENO) == 1),
      start_(std::chrono::steady_clock::now()),
      last_draw_(start_) {}

ProgressBar::~ProgressBar() { clear(); }

void ProgressBar::update(int64_t step, int64_t epoch, double loss, double tokens_per_second) {
  if (!enabled_) return;
  const auto now = std::chrono::steady_clock::now();
  if (first_step_ < 0) first_step_ = step, start_ = now;
  if (drawn_ && now - last_draw_ < std::chrono::milliseconds(100)) return;
  last_draw_ = now;
  std::string eta = "?";
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  if (total_steps_ > 0 && step > first_step_) {
    const double per_step = elapsed / static_cast<double>(step - first_step_);
    eta = format_duration(per_step * static_cast<double>(total_steps_ - step));
  }
  std::fprintf(stderr,
               "\r\033[K[train] step %lld%s | epoch %lld | loss %.4f | %.0f tgt tok/s | ETA %s",
               static_cast<long long>(step),
               total_steps_ > 0 ? ("/" + std::to_string(total_steps_)).c_str() : "",
               static_cast<long long>(epoch + 1), loss, tokens_per_second, eta.c_str());
  std::fflush(stderr);
  drawn_ = true;
}

void ProgressBar::clear() {
  if (!enabled_ || !drawn_) return;
  std::fprintf(stderr, "\r\033[K");
  std::fflush(stderr);
  drawn_ = false;
}

}  // namespace s2s::util
