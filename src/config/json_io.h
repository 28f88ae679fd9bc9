#pragma once
// Strict JSON reading and writing of Config, and `--set section.key=value` overrides.

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "config/config.h"

namespace s2s::config {

// Reads `path` (JSON; // and /* */ comments allowed), applies `overrides`
// ("section.key=value"), makes its paths absolute (config/paths.h) and validates; ConfigError
// on any fault.
Config load_config(const std::string& path, const std::vector<std::string>& overrides = {});

// Strict conversion: unknown keys (with a "did you mean" hint) and wrong types are errors.
// `origin` prefixes messages (the file name).
Config config_from_json(const nlohmann::json& json, const std::string& origin = "config");

nlohmann::json config_to_json(const Config& config);

// Applies one "section.key=value" assignment, with the same type checks as the file.
void apply_override(Config& config, const std::string& assignment);

// Writes the resolved config as indented JSON (atomically: temp file, then rename).
void save_config(const Config& config, const std::string& path);

// The candidate closest to `key` by edit distance, or "" if none is reasonably close.
std::string closest_key(const std::string& key, const std::vector<std::string>& candidates);

}  // namespace s2s::config
