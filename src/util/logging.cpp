#include "util/logging.h"

#include <spdlog/sinks/basic_file_sink.h>
#include <spdlog/sinks/stdout_color_sinks.h>

#include <algorithm>
#include <mutex>
#include <vector>

namespace s2s::util {
namespace {

constexpr const char* kPattern = "%Y-%m-%d %H:%M:%S [%n] %v";

struct LogState {
  std::mutex mutex;
  std::vector<spdlog::sink_ptr> sinks;
  spdlog::sink_ptr file_sink;  // the current run's train.log, replaced by the next run
  spdlog::level::level_enum level = spdlog::level::info;
};

LogState& state() {
  static LogState s;
  return s;
}

}  // namespace

void setup_logging(bool verbose) {
  auto& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (s.sinks.empty()) {
    // Logs go to stderr so that `s2s translate` and `s2s bleu --json` keep stdout clean.
    s.sinks.push_back(std::make_shared<spdlog::sinks::stderr_color_sink_mt>());
  }
  s.level = verbose ? spdlog::level::debug : spdlog::level::info;
  spdlog::apply_all([&](const std::shared_ptr<spdlog::logger>& l) { l->set_level(s.level); });
}

void add_log_file(const std::string& path) {
  auto& s = state();
  auto sink = std::make_shared<spdlog::sinks::basic_file_sink_mt>(path, /*truncate=*/false);
  sink->set_pattern(kPattern);
  std::lock_guard<std::mutex> lock(s.mutex);
  const auto replace = [&](std::vector<spdlog::sink_ptr>& sinks) {
    sinks.erase(std::remove(sinks.begin(), sinks.end(), s.file_sink), sinks.end());
    sinks.push_back(sink);
  };
  replace(s.sinks);
  spdlog::apply_all([&](const std::shared_ptr<spdlog::logger>& l) { replace(l->sinks()); });
  s.file_sink = sink;
}

std::shared_ptr<spdlog::logger> logger(const std::string& component) {
  auto& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (auto existing = spdlog::get(component)) return existing;
  if (s.sinks.empty()) {
    s.sinks.push_back(std::make_shared<spdlog::sinks::stderr_color_sink_mt>());
  }
  auto l = std::make_shared<spdlog::logger>(component, s.sinks.begin(), s.sinks.end());
  l->set_pattern(kPattern);
  l->set_level(s.level);
  spdlog::register_logger(l);
  return l;
}

}  // namespace s2s::util
