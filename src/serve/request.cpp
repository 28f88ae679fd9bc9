#include "serve/request.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <set>

#include "config/config.h"
#include "config/json_text.h"
#include "util/error.h"

namespace s2s::serve {
namespace {

using nlohmann::json;

[[noreturn]] void bad(const std::string& reason) { throw ApiError(400, reason); }

// "a string", "an integer", ...: what a JSON value is, for "expected X, found Y".
std::string kind(const json& v) {
  if (v.is_null()) return "null";
  if (v.is_boolean()) return "a boolean";
  if (v.is_number_integer() || v.is_number_unsigned()) return "an integer";
  if (v.is_number()) return "a number";
  if (v.is_string()) return "a string";
  if (v.is_array()) return "an array";
  return "an object";
}

// The body as JSON: nlohmann's message without its "[json.exception...] " prefix, and neither
// duplicate keys (nlohmann would keep the last silently) nor absurd nesting.
json parse_body(const std::string& body) {
  if (body.empty()) bad("empty body: expected a JSON object such as {\"text\": \"...\"}");
  try {
    config::check_nesting(body, "request");
    config::reject_duplicate_keys(config::scan_keys(body), "request");
  } catch (const UserError& e) {
    bad(e.what());
  }
  try {
    return json::parse(body);
  } catch (const json::parse_error& e) {
    std::string what = e.what();
    const auto end = what.find("] ");
    bad("invalid JSON: " + (end == std::string::npos ? what : what.substr(end + 2)));
  }
}

int64_t integer_field(const json& body, const char* name, int64_t min, int64_t max) {
  const auto& v = body.at(name);
  if (!v.is_number_integer() && !v.is_number_unsigned()) {
    bad(std::string(name) + ": expected an integer, found " + kind(v));
  }
  // nlohmann reads a non-negative integer as unsigned: compare it as one (2^64 - 1 too).
  const bool out = v.is_number_unsigned()
                       ? v.get<uint64_t>() < static_cast<uint64_t>(std::max<int64_t>(min, 0)) ||
                             v.get<uint64_t>() > static_cast<uint64_t>(max)
                       : v.get<int64_t>() < min || v.get<int64_t>() > max;
  if (out) {
    bad(std::string(name) + ": must be in " + std::to_string(min) + ".." + std::to_string(max) +
        ", got " + v.dump());
  }
  return v.get<int64_t>();
}

bool bool_field(const json& body, const char* name) {
  const auto& v = body.at(name);
  if (!v.is_boolean()) bad(std::string(name) + ": expected a boolean, found " + kind(v));
  return v.get<bool>();
}

std::string text_value(const json& v, const std::string& name) {
  if (!v.is_string()) bad(name + ": expected a string, found " + kind(v));
  return v.get<std::string>();
}

std::vector<std::string> texts_field(const json& body) {
  const auto& v = body.at("texts");
  if (!v.is_array()) bad("texts: expected an array of strings, found " + kind(v));
  if (v.empty()) bad("texts: empty; give at least one sentence");
  if (v.size() > kMaxTexts) {
    bad("texts: " + std::to_string(v.size()) + " sentences, at most " + std::to_string(kMaxTexts) +
        " per request");
  }
  std::vector<std::string> texts;
  for (std::size_t i = 0; i < v.size(); ++i) {
    texts.push_back(text_value(v[i], "texts[" + std::to_string(i) + "]"));
  }
  return texts;
}

}  // namespace

TranslateRequest parse_translate_request(const std::string& body, int64_t default_beam) {
  const json j = parse_body(body);
  if (!j.is_object()) bad("expected a JSON object such as {\"text\": \"...\"}, found " + kind(j));
  static const std::set<std::string> known = {"text",           "texts",     "beam",   "n_best",
                                              "length_penalty", "attention", "heatmap"};
  for (const auto& [key, value] : j.items()) {
    if (known.count(key) == 0) {
      bad("unknown field '" + key +
          "' (valid: text, texts, beam, n_best, length_penalty, attention, heatmap)");
    }
  }
  TranslateRequest r;
  if (j.contains("text") == j.contains("texts")) {
    bad(j.contains("text") ? "give text or texts, not both" : "missing field: text or texts");
  }
  r.single = j.contains("text");
  r.texts = r.single ? std::vector<std::string>{text_value(j.at("text"), "text")} : texts_field(j);
  if (j.contains("beam")) r.beam = integer_field(j, "beam", 1, config::kMaxBeamSize);
  const int64_t beam = r.beam.value_or(default_beam);
  if (j.contains("n_best")) {
    r.n_best = integer_field(j, "n_best", 1, config::kMaxBeamSize);
    if (r.n_best > beam) {
      bad("n_best: " + std::to_string(r.n_best) + " hypotheses need a beam of at least " +
          std::to_string(r.n_best) + " (beam is " + std::to_string(beam) + ")");
    }
  }
  if (j.contains("length_penalty")) {
    const auto& v = j.at("length_penalty");
    if (!v.is_number()) bad("length_penalty: expected a number, found " + kind(v));
    const double a = v.get<double>();
    if (!std::isfinite(a) || a < 0) bad("length_penalty: must be a number >= 0, got " + v.dump());
    r.length_penalty = a;
  }
  if (j.contains("attention")) r.attention = bool_field(j, "attention");
  if (j.contains("heatmap")) r.heatmap = bool_field(j, "heatmap");
  return r;
}

}  // namespace s2s::serve
