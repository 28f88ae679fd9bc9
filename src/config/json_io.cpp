#include "config/json_io.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <filesystem>

#include "config/json_text.h"
#include "config/paths.h"
#include "util/error.h"
#include "util/fs.h"
#include "util/unicode.h"

namespace s2s::config {
namespace {

using nlohmann::json;

std::string join_key(const std::string& prefix, const std::string& key) {
  return prefix.empty() ? key : prefix + "." + key;
}

std::string describe(const json& value) {
  if (value.is_number_float()) return "number " + value.dump();
  if (value.is_number()) return "integer " + value.dump();
  if (value.is_string()) return "string " + value.dump();
  return value.type_name();
}

[[noreturn]] void type_error(const std::string& origin, const std::string& key,
                             const char* expected, const json& found) {
  throw ConfigError(origin + ": " + key + ": expected " + expected + ", found " + describe(found));
}

void read_value(const json& j, std::string& out, const std::string& origin,
                const std::string& key) {
  if (!j.is_string()) type_error(origin, key, "a string", j);
  out = j.get<std::string>();
}

void read_value(const json& j, bool& out, const std::string& origin, const std::string& key) {
  if (!j.is_boolean()) type_error(origin, key, "true or false", j);
  out = j.get<bool>();
}

void read_value(const json& j, int64_t& out, const std::string& origin, const std::string& key) {
  if (!j.is_number_integer()) type_error(origin, key, "an integer", j);
  if (j.is_number_unsigned() && j.get<uint64_t>() > uint64_t{INT64_MAX}) {
    type_error(origin, key, "an integer below 2^63", j);
  }
  out = j.get<int64_t>();
}

void read_value(const json& j, double& out, const std::string& origin, const std::string& key) {
  if (!j.is_number()) type_error(origin, key, "a number", j);
  out = j.get<double>();
}

// Walks the field list of a struct, reading the keys present in a JSON object, then rejects
// any key that the struct does not have.
class Reader {
 public:
  Reader(const json& object, std::string prefix, const std::string& origin)
      : object_(object), prefix_(std::move(prefix)), origin_(origin) {}

  template <class T>
  void operator()(const char* key, T& out, const std::string& /*doc*/) {
    known_.emplace_back(key);
    const auto it = object_.find(key);
    if (it != object_.end()) read_value(*it, out, origin_, join_key(prefix_, key));
  }

  template <class S>
  void section(const char* key, S& out) {
    known_.emplace_back(key);
    const auto it = object_.find(key);
    if (it == object_.end()) return;
    const std::string path = join_key(prefix_, key);
    if (!it->is_object()) type_error(origin_, path, "an object", *it);
    Reader sub(*it, path, origin_);
    visit_fields(sub, out);
    sub.finish();
  }

  void finish() const {
    for (const auto& item : object_.items()) {
      if (std::find(known_.begin(), known_.end(), item.key()) != known_.end()) continue;
      std::string message = origin_ + ": unknown key '" + join_key(prefix_, item.key()) + "'";
      const std::string hint = closest_key(item.key(), known_);
      if (!hint.empty()) message += " (did you mean '" + join_key(prefix_, hint) + "'?)";
      throw ConfigError(message);
    }
  }

 private:
  const json& object_;
  std::string prefix_;
  const std::string& origin_;
  std::vector<std::string> known_;
};

class Writer {
 public:
  explicit Writer(json& out) : out_(out) {}

  template <class T>
  void operator()(const char* key, T& value, const std::string& /*doc*/) {
    out_[key] = value;
  }

  template <class S>
  void section(const char* key, S& value) {
    json sub = json::object();
    Writer writer(sub);
    visit_fields(writer, value);
    out_[key] = std::move(sub);
  }

 private:
  json& out_;
};

// Collects every full key path ("model.attention.scorer"), for override hints.
class KeyLister {
 public:
  explicit KeyLister(std::string prefix = "") : prefix_(std::move(prefix)) {}

  template <class T>
  void operator()(const char* key, T&, const std::string& /*doc*/) {
    keys.push_back(join_key(prefix_, key));
  }

  template <class S>
  void section(const char* key, S& value) {
    KeyLister sub(join_key(prefix_, key));
    visit_fields(sub, value);
    keys.insert(keys.end(), sub.keys.begin(), sub.keys.end());
  }

  std::vector<std::string> keys;

 private:
  std::string prefix_;
};

void parse_override(const std::string& text, std::string& out, const std::string&) { out = text; }

void parse_override(const std::string& text, bool& out, const std::string& key) {
  if (text == "true") {
    out = true;
  } else if (text == "false") {
    out = false;
  } else {
    throw ConfigError("--set " + key + ": expected true or false, found '" + text + "'");
  }
}

void parse_override(const std::string& text, int64_t& out, const std::string& key) {
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, out);
  if (text.empty() || ec != std::errc() || ptr != end) {
    throw ConfigError("--set " + key + ": expected an integer, found '" + text + "'");
  }
}

void parse_override(const std::string& text, double& out, const std::string& key) {
  char* end = nullptr;
  out = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(out)) {
    throw ConfigError("--set " + key + ": expected a number, found '" + text + "'");
  }
}

// Finds the field named by a dotted path and parses the override text into it.
class Setter {
 public:
  Setter(const std::vector<std::string>& parts, std::size_t depth, const std::string& value)
      : parts_(parts), depth_(depth), value_(value) {}

  template <class T>
  void operator()(const char* key, T& out, const std::string& /*doc*/) {
    if (depth_ + 1 != parts_.size() || parts_[depth_] != key) return;
    parse_override(value_, out, full_key());
    found = true;
  }

  template <class S>
  void section(const char* key, S& out) {
    if (depth_ + 1 >= parts_.size() || parts_[depth_] != key) return;
    Setter sub(parts_, depth_ + 1, value_);
    visit_fields(sub, out);
    found = sub.found;
  }

  bool found = false;

 private:
  std::string full_key() const {
    std::string key;
    for (const auto& part : parts_) key = join_key(key, part);
    return key;
  }

  const std::vector<std::string>& parts_;
  std::size_t depth_;
  const std::string& value_;
};

std::vector<std::string> split_dots(const std::string& key) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    const auto dot = key.find('.', start);
    parts.push_back(key.substr(start, dot - start));
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  return parts;
}

std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t substitute = diagonal + (a[i - 1] == b[j - 1] ? 0 : 1);
      diagonal = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, substitute});
    }
  }
  return row[b.size()];
}

// "line L, column C" of a byte offset, for JSON syntax errors.
std::string line_and_column(const std::string& text, std::size_t offset) {
  std::size_t line = 1, column = 1;
  for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

}  // namespace

std::string closest_key(const std::string& key, const std::vector<std::string>& candidates) {
  std::string best;
  std::size_t best_distance = std::max<std::size_t>(3, key.size() / 3) + 1;
  for (const auto& candidate : candidates) {
    const std::size_t d = edit_distance(key, candidate);
    if (d < best_distance) {
      best_distance = d;
      best = candidate;
    }
  }
  return best;
}

Config config_from_json(const json& j, const std::string& origin) {
  if (!j.is_object()) throw ConfigError(origin + ": expected a JSON object at the top level");
  Config config;
  Reader reader(j, "", origin);
  visit_fields(reader, config);
  reader.finish();
  return config;
}

json config_to_json(const Config& config) {
  json out = json::object();
  Writer writer(out);
  visit_fields(writer, const_cast<Config&>(config));  // Writer only reads the fields.
  return out;
}

void apply_override(Config& config, const std::string& assignment) {
  const auto eq = assignment.find('=');
  // Checked before anything is written: a config is saved as JSON, which holds only UTF-8.
  if (std::size_t bad = 0; !util::is_valid_utf8(assignment, &bad)) {
    const std::string key = eq == std::string::npos ? "" : assignment.substr(0, eq);
    const bool key_ok = !key.empty() && util::is_valid_utf8(key);
    const std::size_t byte = key_ok ? bad - eq : bad + 1;  // 1-based, in the value if key_ok
    throw ConfigError("--set " + (key_ok ? key + ": the value" : std::string("argument")) +
                      " is not valid UTF-8 (byte " + std::to_string(byte) + ")");
  }
  if (eq == std::string::npos || eq == 0) {
    throw ConfigError("--set '" + assignment + "': expected section.key=value");
  }
  const std::string key = assignment.substr(0, eq);
  const std::vector<std::string> parts = split_dots(key);
  const std::string value = assignment.substr(eq + 1);
  Setter setter(parts, 0, value);
  visit_fields(setter, config);
  if (setter.found) return;
  KeyLister lister;
  visit_fields(lister, config);
  std::string message = "--set: unknown key '" + key + "'";
  const std::string hint = closest_key(key, lister.keys);
  if (!hint.empty()) message += " (did you mean '" + hint + "'?)";
  throw ConfigError(message);
}

Config load_config(const std::string& path, const std::vector<std::string>& overrides) {
  if (std::filesystem::is_directory(path)) {
    throw ConfigError(path + ": is a directory, not a config file");
  }
  if (!std::filesystem::is_regular_file(path)) {
    throw ConfigError(path + ": config file not found");
  }
  const std::string text = util::read_file(path);
  check_nesting(text, path);
  json j;
  try {
    j = json::parse(text, /*cb=*/nullptr, /*allow_exceptions=*/true, /*ignore_comments=*/true);
  } catch (const json::parse_error& e) {
    throw ConfigError(path + ": invalid JSON at " +
                      line_and_column(text, e.byte > 0 ? e.byte - 1 : 0));
  } catch (const json::exception&) {
    // nlohmann reports a number beyond double (1e999) without saying where: find it.
    for (const auto& k : scan_keys(text)) {
      if (k.overflows) {
        throw ConfigError(path + ":" + std::to_string(k.line) + ": " + k.path +
                          ": number out of range (" + k.number + ")");
      }
    }
    throw ConfigError(path + ": a number is out of range");
  }
  reject_duplicate_keys(scan_keys(text), path);
  Config config = config_from_json(j, path);
  std::vector<std::string> overridden;
  for (const auto& assignment : overrides) {
    apply_override(config, assignment);
    overridden.push_back(assignment.substr(0, assignment.find('=')));
  }
  resolve_paths(config, std::filesystem::path(path).parent_path().string(), overridden);
  validate(config);
  return config;
}

void save_config(const Config& config, const std::string& path) {
  util::write_file_atomic(path, config_to_json(config).dump(2) + "\n");
}

}  // namespace s2s::config
