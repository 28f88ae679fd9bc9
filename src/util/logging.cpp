#include "util/logging.h"

#include <spdlog/sinks/basic_file_sink.h>
#include <spdlog/sinks/ringbuffer_sink.h>
#include <spdlog/sinks/stdout_color_sinks.h>

#include <algorithm>
#include <mutex>
#include <vector>

namespace s2s::util {
namespace {

constexpr const char* kPattern = "%Y-%m-%d %H:%M:%S [%n] %v";
// Messages kept in memory until a log file opens, so that train.log also has what was logged
// before the run directory could be written (the inputs are checked first).
constexpr std::size_t kEarlyMessages = 2000;

struct LogState {
  std::mutex mutex;
  std::vector<spdlog::sink_ptr> sinks;
  spdlog::sink_ptr file_sink;  // the current run's train.log, replaced by the next run
  std::shared_ptr<spdlog::sinks::ringbuffer_sink_mt> early =
      std::make_shared<spdlog::sinks::ringbuffer_sink_mt>(kEarlyMessages);
  spdlog::level::level_enum level = spdlog::level::info;
};

LogState& state() {
  static LogState s;
  return s;
}

// Callers hold the mutex.
void ensure_sinks(LogState& s) {
  if (!s.sinks.empty()) return;
  // Logs go to stderr so that `s2s translate` and `s2s bleu --json` keep stdout clean.
  s.sinks.push_back(std::make_shared<spdlog::sinks::stderr_color_sink_mt>());
  s.early->set_pattern(kPattern);
  s.sinks.push_back(s.early);
}

}  // namespace

void setup_logging(bool verbose) {
  auto& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  ensure_sinks(s);
  s.level = verbose ? spdlog::level::debug : spdlog::level::info;
  spdlog::apply_all([&](const std::shared_ptr<spdlog::logger>& l) { l->set_level(s.level); });
}

void add_log_file(const std::string& path) {
  auto& s = state();
  auto sink = std::make_shared<spdlog::sinks::basic_file_sink_mt>(path, /*truncate=*/false);
  sink->set_pattern(kPattern);
  std::lock_guard<std::mutex> lock(s.mutex);
  if (s.early) {
    // What was logged before the first log file could be opened, then every message as it is
    // logged: a `tail -f train.log` sees the training live, and a crash loses nothing logged.
    std::FILE* f = std::fopen(path.c_str(), "ab");
    if (f != nullptr) {
      for (const auto& line : s.early->last_formatted()) std::fputs(line.c_str(), f);
      std::fclose(f);
    }
  }
  sink->set_level(spdlog::level::trace);
  const auto replace = [&](std::vector<spdlog::sink_ptr>& sinks) {
    sinks.erase(std::remove(sinks.begin(), sinks.end(), s.file_sink), sinks.end());
    if (s.early) {
      sinks.erase(std::remove(sinks.begin(), sinks.end(), spdlog::sink_ptr(s.early)), sinks.end());
    }
    sinks.push_back(sink);
  };
  replace(s.sinks);
  spdlog::apply_all([&](const std::shared_ptr<spdlog::logger>& l) { replace(l->sinks()); });
  s.file_sink = sink;
  s.early.reset();  // from now on the file has everything
}

void set_log_level_warn() {
  auto& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  s.level = spdlog::level::warn;
  spdlog::apply_all([&](const std::shared_ptr<spdlog::logger>& l) { l->set_level(s.level); });
}

void write_to_log_file(const std::string& line) {
  auto& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (!s.file_sink) return;
  spdlog::details::log_msg msg("s2s", spdlog::level::err, line);
  s.file_sink->log(msg);
  s.file_sink->flush();
}

std::shared_ptr<spdlog::logger> logger(const std::string& component) {
  auto& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (auto existing = spdlog::get(component)) return existing;
  ensure_sinks(s);
  auto l = std::make_shared<spdlog::logger>(component, s.sinks.begin(), s.sinks.end());
  l->set_pattern(kPattern);
  l->set_level(s.level);
  l->flush_on(spdlog::level::trace);  // every message reaches train.log at once
  spdlog::register_logger(l);
  return l;
}

}  // namespace s2s::util
