#include "eval/report_data.h"

#include <cmath>
#include <filesystem>
#include <sstream>

#include "data/tokenizer.h"
#include "eval/alignment.h"
#include "util/error.h"
#include "util/fs.h"
#include "util/logging.h"

namespace s2s::eval {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

json read_json_file(const std::string& path) {
  const auto j = json::parse(util::read_file(path), nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) throw InputError(path + ": invalid JSON");
  return j;
}

// One CSV record (RFC 4180: quoted fields, doubled quotes); no embedded line breaks here.
std::vector<std::string> csv_fields(const std::string& line) {
  std::vector<std::string> out(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        out.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        out.back() += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      out.emplace_back();
    } else {
      out.back() += c;
    }
  }
  return out;
}

Heatmap read_heatmap(const std::string& dir, const json& index) {
  Heatmap h;
  h.index = index;
  const auto path = dir + "/" + index.value("file", "");
  std::istringstream in(util::read_file(path));
  std::string line;
  if (!std::getline(in, line)) throw InputError(path + ": empty heatmap");
  auto header = csv_fields(line);
  h.cols.assign(header.begin() + 1, header.end());
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    auto fields = csv_fields(line);
    h.rows.push_back(fields.front());
    std::vector<double> row;
    for (std::size_t i = 1; i < fields.size(); ++i)
      row.push_back(std::strtod(fields[i].c_str(), nullptr));
    if (row.size() != h.cols.size()) {
      throw InputError(path + ":" + std::to_string(h.rows.size() + 1) + ": " +
                       std::to_string(row.size()) + " weights for " +
                       std::to_string(h.cols.size()) + " columns");
    }
    h.weights.push_back(std::move(row));
  }
  return h;
}

// The gold alignment file of `split` named by the run's config, "" if none. Gold links are
// word positions: they do not apply to SentencePiece pieces.
std::string gold_file(const json& config, const std::string& split) {
  const auto& data = config.value("data", json::object());
  if (data::tokenizer_has_pieces(data.value("tokenizer", ""))) return "";
  const auto path = data.value(split == "valid" ? "valid_alignments" : "test_alignments", "");
  return !path.empty() && fs::is_regular_file(path) ? path : "";
}

// The JSON objects of a .jsonl file. Lines that are not one are skipped, with one warning for
// the file naming the first of them and how many there were.
std::vector<json> read_jsonl_objects(const std::string& path) {
  std::vector<json> objects;
  std::istringstream in(util::read_file(path));
  int64_t number = 0, skipped = 0, first = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    auto j = json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (j.is_object()) {
      objects.push_back(std::move(j));
    } else if (skipped++ == 0) {
      first = number;
    }
  }
  if (skipped > 0) {
    util::logger("report")->warn("{}:{}: skipped {} line{} that {} not a JSON object", path, first,
                                 skipped, skipped == 1 ? "" : "s", skipped == 1 ? "is" : "are");
  }
  return objects;
}

}  // namespace

RunData load_run(const std::string& dir, const std::string& split, int64_t limit) {
  RunData r;
  r.dir = dir;
  if (!fs::is_regular_file(dir + "/config.json")) {
    throw InputError(dir + ": not a run directory (no config.json)");
  }
  r.config = read_json_file(dir + "/config.json");
  r.name = r.config.value("name", fs::path(dir).filename().string());
  const auto scores = dir + "/" + split + ".scores.json";
  if (fs::is_regular_file(scores)) r.scores = read_json_file(scores);
  if (fs::is_regular_file(dir + "/metrics.jsonl")) {
    for (auto& e : read_jsonl_objects(dir + "/metrics.jsonl")) {
      if (e.contains("step")) r.events.push_back(std::move(e));
    }
  }
  const auto heatmaps = dir + "/heatmaps";
  if (!fs::is_regular_file(heatmaps + "/index.jsonl")) {
    r.heatmap_note =
        "no heatmaps: write them with s2s attention --run " + dir + " --out " + heatmaps;
    return r;
  }
  std::vector<Alignment> gold;
  const auto gold_path = gold_file(r.config, split);
  if (!gold_path.empty()) gold = read_alignments(gold_path);
  std::set<int64_t> sentences;
  for (const auto& index : read_jsonl_objects(heatmaps + "/index.jsonl")) {
    const auto id = index.value("id", int64_t{0});
    if (!sentences.count(id) && static_cast<int64_t>(sentences.size()) >= limit) continue;
    sentences.insert(id);
    auto h = read_heatmap(heatmaps, index);
    // Gold links describe the reference: draw them where the hypothesis is the reference.
    const bool decoder = index.value("matrix", "") == "decoder_attention";
    if (decoder && id >= 1 && static_cast<std::size_t>(id) <= gold.size() &&
        index.value("hypothesis", "") == index.value("reference", "")) {
      for (const auto& [i, j] : gold[static_cast<std::size_t>(id - 1)]) {
        h.gold.insert({static_cast<std::size_t>(j), static_cast<std::size_t>(i)});
      }
    }
    r.heatmaps.push_back(std::move(h));
  }
  if (!gold_path.empty()) {
    r.heatmap_note = "outlined cells: gold alignment links (" + gold_path +
                     "), drawn where the hypothesis is the reference";
  }
  return r;
}

std::string fmt_number(double v, int digits) {
  if (!std::isfinite(v)) return std::isnan(v) ? "nan" : (v > 0 ? "inf" : "-inf");
  std::ostringstream out;
  out.setf(std::ios::fixed);
  out.precision(digits);
  out << v;
  return out.str();
}

}  // namespace s2s::eval
