#include "config/template.h"

#include <nlohmann/json.hpp>
#include <vector>

#include "config/config.h"

namespace s2s::config {
namespace {

// One object's entries, rendered with its nested sections once the walk is done.
class TemplateWriter {
 public:
  explicit TemplateWriter(int depth) : depth_(depth) {}

  template <class T>
  void operator()(const char* key, T& value, const std::string& doc) {
    entries_.push_back({key, nlohmann::json(value).dump(), doc});
  }

  template <class S>
  void section(const char* key, S& value) {
    TemplateWriter sub(depth_ + 1);
    visit_fields(sub, value);
    entries_.push_back({key, sub.render(), ""});
  }

  std::string render() const {
    const std::string indent(static_cast<std::size_t>(2 * (depth_ + 1)), ' ');
    std::string out = "{\n";
    for (std::size_t i = 0; i < entries_.size(); ++i) {
      const auto& e = entries_[i];
      out += indent + "\"" + e.key + "\": " + e.value + (i + 1 < entries_.size() ? "," : "");
      if (!e.doc.empty()) out += "  // " + e.doc;
      out += "\n";
    }
    return out + std::string(static_cast<std::size_t>(2 * depth_), ' ') + "}";
  }

 private:
  struct Entry {
    std::string key, value, doc;
  };
  int depth_;
  std::vector<Entry> entries_;
};

}  // namespace

std::string config_template() {
  Config defaults;
  TemplateWriter writer(0);
  visit_fields(writer, defaults);
  return "// s2s config: every key with its default. Data paths are relative to this file.\n" +
         writer.render() + "\n";
}

}  // namespace s2s::config
