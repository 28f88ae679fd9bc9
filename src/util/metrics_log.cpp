#include "util/metrics_log.h"

#include "util/error.h"

namespace s2s::util {

MetricsLog::MetricsLog(const std::string& path) : out_(path, std::ios::app) {
  if (!out_) throw std::runtime_error(path + ": cannot open for writing");
}

void MetricsLog::write(const nlohmann::json& event) {
  if (!out_.is_open()) return;
  out_ << event.dump() << '\n';
  out_.flush();
}

}  // namespace s2s::util
