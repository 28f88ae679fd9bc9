#include "config/paths.h"

#include <algorithm>
#include <filesystem>

namespace s2s::config {
namespace {

namespace fs = std::filesystem;

// The file `path` names, or for a parallel corpus prefix its source file.
bool names_input(const fs::path& path, const DataConfig& d, bool corpus) {
  std::error_code ec;
  if (fs::exists(path, ec)) return true;
  return corpus && d.format == "parallel" && fs::exists(path.string() + "." + d.src_ext, ec);
}

std::string resolve(const std::string& value, const fs::path& base, bool from_cwd,
                    const DataConfig& d, bool corpus) {
  if (value.empty() || fs::path(value).is_absolute()) return value;
  const fs::path cwd = fs::current_path();
  if (from_cwd) return (cwd / value).lexically_normal().string();
  const fs::path beside_config = (base / value).lexically_normal();
  if (!names_input(beside_config, d, corpus) && names_input(cwd / value, d, corpus)) {
    return (cwd / value).lexically_normal().string();
  }
  return beside_config.string();
}

}  // namespace

void resolve_paths(Config& config, const std::string& config_dir,
                   const std::vector<std::string>& from_cwd) {
  const fs::path base = fs::absolute(config_dir.empty() ? "." : config_dir);
  auto& d = config.data;
  const auto set = [&](const char* key, std::string& value, bool corpus) {
    const bool cwd = std::find(from_cwd.begin(), from_cwd.end(), key) != from_cwd.end();
    value = resolve(value, base, cwd, d, corpus);
  };
  set("data.train", d.train, true);
  set("data.valid", d.valid, true);
  set("data.test", d.test, true);
  set("data.train_alignments", d.train_alignments, false);
  set("data.valid_alignments", d.valid_alignments, false);
  set("data.test_alignments", d.test_alignments, false);
  set("data.sentencepiece.model", d.sentencepiece.model, false);
  set("data.prepared_dir", d.prepared_dir, false);
  if (!config.run_dir.empty()) {
    auto dir = fs::absolute(config.run_dir).lexically_normal();
    if (!dir.has_filename() && dir.has_parent_path()) dir = dir.parent_path();  // "x/" -> "x"
    config.run_dir = dir.string();
  }
}

}  // namespace s2s::config
