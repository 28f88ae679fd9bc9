#include "eval/report.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "eval/alignment.h"
#include "util/error.h"
#include "util/fs.h"

namespace s2s::eval {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr int kCell = 18;  // heatmap cell size, px
const char* const kColors[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd",
                               "#ff7f0e", "#8c564b", "#e377c2", "#17becf"};

// One heatmap CSV (eval/heatmap.h) with its index.jsonl line.
struct Heatmap {
  json index;                     // file, matrix, id, head, source, hypothesis, reference, ...
  std::vector<std::string> cols;  // source tokens (and </s>)
  std::vector<std::string> rows;  // target tokens (and </s>), or source tokens (self-attention)
  std::vector<std::vector<double>> weights;
  std::set<std::pair<std::size_t, std::size_t>> gold;  // (row, col) cells of gold links
};

struct RunData {
  std::string dir, name;
  json config, scores;  // scores: null without <split>.scores.json
  std::vector<json> events;
  std::vector<Heatmap> heatmaps;
  std::string heatmap_note;  // why there are none, or why gold links are missing
};

std::string fmt_number(double v, int digits) {
  if (!std::isfinite(v)) return std::isnan(v) ? "nan" : (v > 0 ? "inf" : "-inf");
  std::ostringstream out;
  out.setf(std::ios::fixed);
  out.precision(digits);
  out << v;
  return out.str();
}

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
  if (data.value("tokenizer", "") == "sentencepiece") return "";
  const auto path = data.value(split == "valid" ? "valid_alignments" : "test_alignments", "");
  return !path.empty() && fs::is_regular_file(path) ? path : "";
}

RunData load_run(const std::string& dir, const ReportOptions& o) {
  RunData r;
  r.dir = dir;
  if (!fs::is_regular_file(dir + "/config.json")) {
    throw InputError(dir + ": not a run directory (no config.json)");
  }
  r.config = read_json_file(dir + "/config.json");
  r.name = r.config.value("name", fs::path(dir).filename().string());
  const auto scores = dir + "/" + o.split + ".scores.json";
  if (fs::is_regular_file(scores)) r.scores = read_json_file(scores);
  if (fs::is_regular_file(dir + "/metrics.jsonl")) {
    std::istringstream in(util::read_file(dir + "/metrics.jsonl"));
    for (std::string line; std::getline(in, line);) {
      const auto e = json::parse(line, nullptr, false);
      if (e.is_object() && e.contains("step")) r.events.push_back(e);
    }
  }
  const auto heatmaps = dir + "/heatmaps";
  if (!fs::is_regular_file(heatmaps + "/index.jsonl")) {
    r.heatmap_note =
        "no heatmaps: write them with s2s attention --run " + dir + " --out " + heatmaps;
    return r;
  }
  std::vector<Alignment> gold;
  const auto gold_path = gold_file(r.config, o.split);
  if (!gold_path.empty()) gold = read_alignments(gold_path);
  std::set<int64_t> sentences;
  std::istringstream in(util::read_file(heatmaps + "/index.jsonl"));
  for (std::string line; std::getline(in, line);) {
    const auto index = json::parse(line, nullptr, false);
    if (!index.is_object()) continue;
    const auto id = index.value("id", int64_t{0});
    if (!sentences.count(id) && static_cast<int64_t>(sentences.size()) >= o.limit) continue;
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

// White to dark blue ("Blues"), for w in [0, 1].
std::string color(double w) {
  w = std::clamp(w, 0.0, 1.0);
  const auto mix = [&](int a, int b) { return static_cast<int>(std::lround(a + (b - a) * w)); };
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, "#%02x%02x%02x", mix(247, 8), mix(251, 48), mix(255, 107));
  return buffer;
}

std::string svg_heatmap(const Heatmap& h) {
  const auto label_width = [](const std::vector<std::string>& labels) {
    std::size_t n = 4;
    for (const auto& l : labels) n = std::max(n, l.size());
    return static_cast<int>(std::min<std::size_t>(n, 24) * 7 + 8);
  };
  const int left = label_width(h.rows), top = label_width(h.cols);
  const int cols = static_cast<int>(h.cols.size()), rows = static_cast<int>(h.rows.size());
  const int width = left + cols * kCell + 60, height = top + rows * kCell + 8;
  std::ostringstream out;
  out << "<svg class=\"heatmap\" xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width
      << "\" height=\"" << height << "\" role=\"img\">";
  for (int c = 0; c < cols; ++c) {  // source tokens, written upwards above their column
    const int x = left + c * kCell + kCell / 2 + 4, y = top - 4;
    out << "<text x=\"" << x << "\" y=\"" << y << "\" transform=\"rotate(-90 " << x << ' ' << y
        << ")\">" << html_escape(h.cols[static_cast<std::size_t>(c)]) << "</text>";
  }
  for (int r = 0; r < rows; ++r) {
    const auto& row = h.rows[static_cast<std::size_t>(r)];
    out << "<text x=\"" << left - 4 << "\" y=\"" << top + r * kCell + kCell - 5
        << "\" text-anchor=\"end\">" << html_escape(row) << "</text>";
    for (int c = 0; c < cols; ++c) {
      const double w = h.weights[static_cast<std::size_t>(r)][static_cast<std::size_t>(c)];
      const bool gold =
          h.gold.count({static_cast<std::size_t>(r), static_cast<std::size_t>(c)}) > 0;
      out << "<rect class=\"cell\" x=\"" << left + c * kCell << "\" y=\"" << top + r * kCell
          << "\" width=\"" << kCell << "\" height=\"" << kCell << "\" fill=\"" << color(w) << '"'
          << (gold ? " stroke=\"#e6550d\" stroke-width=\"2\"" : "") << " data-weight=\""
          << fmt_number(w, 6) << "\"><title>" << html_escape(row) << " \u2190 "
          << html_escape(h.cols[static_cast<std::size_t>(c)]) << ": " << fmt_number(w, 6)
          << "</title></rect>";
    }
  }
  // The colour scale: 0 at the bottom, 1 at the top.
  const int sx = left + cols * kCell + 12, steps = 10;
  for (int i = 0; i < steps; ++i) {
    out << "<rect x=\"" << sx << "\" y=\"" << top + i * 8 << "\" width=\"10\" height=\"8\" fill=\""
        << color(1.0 - (i + 0.5) / steps) << "\"/>";
  }
  out << "<text x=\"" << sx + 14 << "\" y=\"" << top + 8 << "\">1</text><text x=\"" << sx + 14
      << "\" y=\"" << top + steps * 8 << "\">0</text></svg>";
  return out.str();
}

// ---- curves -------------------------------------------------------------------------------

struct Series {
  std::string label, color;
  std::vector<std::pair<double, double>> points;  // (step, value)
  std::vector<double> epochs;                     // steps where an epoch begins
};

std::string tick(double v) {
  const double a = std::fabs(v);
  if (a != 0 && (a < 1e-2 || a >= 1e5)) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.1e", v);
    return buffer;
  }
  return fmt_number(v, a < 10 ? 2 : (a < 100 ? 1 : 0));
}

std::string svg_chart(const std::string& title, const std::vector<Series>& series) {
  double x_max = 1, y_min = INFINITY, y_max = -INFINITY;
  for (const auto& s : series) {
    for (const auto& [x, y] : s.points) {
      if (!std::isfinite(y)) continue;
      x_max = std::max(x_max, x);
      y_min = std::min(y_min, y);
      y_max = std::max(y_max, y);
    }
  }
  std::ostringstream out;
  out << "<figure class=\"chart\"><figcaption>" << html_escape(title) << "</figcaption>";
  if (!std::isfinite(y_min)) return out.str() + "<p class=\"note\">no data</p></figure>";
  if (y_max - y_min < 1e-12) y_max = y_min + 1;
  const double pad = 0.05 * (y_max - y_min);
  y_min -= pad;
  y_max += pad;
  constexpr int kW = 360, kH = 200, kL = 52, kR = 10, kT = 10, kB = 30;
  const auto px = [&](double x) { return kL + (kW - kL - kR) * x / x_max; };
  const auto py = [&](double y) { return kT + (kH - kT - kB) * (y_max - y) / (y_max - y_min); };
  out << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << kW << "\" height=\"" << kH
      << "\">";
  out << "<rect x=\"" << kL << "\" y=\"" << kT << "\" width=\"" << kW - kL - kR << "\" height=\""
      << kH - kT - kB << "\" fill=\"none\" stroke=\"#999\"/>";
  for (int i = 0; i <= 4; ++i) {
    const double y = y_min + (y_max - y_min) * i / 4, x = x_max * i / 4;
    out << "<text x=\"" << kL - 4 << "\" y=\"" << py(y) + 4 << "\" text-anchor=\"end\">" << tick(y)
        << "</text><text x=\"" << px(x) << "\" y=\"" << kH - kB + 14 << "\" text-anchor=\"middle\">"
        << tick(x) << "</text>";
  }
  out << "<text x=\"" << (kW + kL) / 2 << "\" y=\"" << kH - 2 << "\" text-anchor=\"middle\">step"
      << "</text>";
  for (const auto& s : series) {
    for (const double e : s.epochs) {
      out << "<line x1=\"" << px(e) << "\" x2=\"" << px(e) << "\" y1=\"" << kT << "\" y2=\""
          << kH - kB << "\" stroke=\"" << s.color << "\" stroke-opacity=\"0.25\" "
          << "stroke-dasharray=\"3,3\"><title>epoch starts</title></line>";
    }
    std::ostringstream points;
    for (const auto& [x, y] : s.points) {
      if (std::isfinite(y)) points << fmt_number(px(x), 1) << ',' << fmt_number(py(y), 1) << ' ';
    }
    out << "<polyline fill=\"none\" stroke=\"" << s.color << "\" stroke-width=\"1.5\" points=\""
        << points.str() << "\"><title>" << html_escape(s.label) << "</title></polyline>";
  }
  out << "</svg></figure>";
  return out.str();
}

// The series of `metric` from events named `event`, one per run.
std::vector<Series> series_of(const std::vector<RunData>& runs, const std::string& event,
                              const std::string& metric) {
  std::vector<Series> out;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    Series s{runs[i].name, kColors[i % 8], {}, {}};
    int64_t epoch = 1;
    for (const auto& e : runs[i].events) {
      const double step = e.value("step", 0.0);
      if (e.value("epoch", int64_t{1}) > epoch && e.value("event", "") == "train") {
        epoch = e.value("epoch", int64_t{1});
        s.epochs.push_back(step);
      }
      if (e.value("event", "") != event || !e.contains(metric) || !e[metric].is_number()) {
        continue;
      }
      s.points.emplace_back(step, e[metric].get<double>());
    }
    out.push_back(std::move(s));
  }
  return out;
}

// ---- page -------------------------------------------------------------------------------

std::string score_cell(const json& scores, const std::string& key, int digits) {
  if (scores.is_null() || !scores.contains(key) || !scores[key].is_number()) return "–";
  return fmt_number(scores[key].get<double>(), digits);
}

std::string scores_table(const std::vector<RunData>& runs, const std::string& split) {
  std::ostringstream out;
  out << "<table class=\"scores\"><tr><th>" << html_escape(split) << "</th>";
  for (const auto& r : runs) out << "<th>" << html_escape(r.name) << "</th>";
  out << "</tr>";
  const auto row = [&](const std::string& label, const std::function<std::string(const json&)>& f) {
    out << "<tr><th>" << label << "</th>";
    for (const auto& r : runs) out << "<td>" << html_escape(f(r.scores)) << "</td>";
    out << "</tr>";
  };
  const auto nested = [](const json& s, const char* a, const char* b) -> std::string {
    if (s.is_null() || !s.contains(a) || !s[a].contains(b)) return "–";
    return s[a][b].is_number() ? fmt_number(s[a][b].get<double>(), 2) : s[a][b].get<std::string>();
  };
  row("BLEU", [&](const json& s) { return nested(s, "bleu", "score"); });
  row("BLEU signature", [&](const json& s) { return nested(s, "bleu", "signature"); });
  row("chrF", [&](const json& s) { return nested(s, "chrf", "score"); });
  row("chrF signature", [&](const json& s) { return nested(s, "chrf", "signature"); });
  row("loss", [&](const json& s) { return score_cell(s, "loss", 4); });
  row("perplexity", [&](const json& s) { return score_cell(s, "ppl", 2); });
  row("AER", [&](const json& s) { return score_cell(s, "aer", 3); });
  row("attention entropy (nats)",
      [&](const json& s) { return score_cell(s, "attention_entropy", 3); });
  row("decoding", [&](const json& s) { return s.is_null() ? "–" : s.value("decode", "–"); });
  row("sentences", [&](const json& s) { return score_cell(s, "sentences", 0); });
  out << "</table>";
  return out.str();
}

std::string heatmap_section(const std::vector<RunData>& runs) {
  std::ostringstream out;
  // The sentences of the first run that has heatmaps, in its order.
  std::vector<int64_t> ids;
  for (const auto& r : runs) {
    for (const auto& h : r.heatmaps) {
      const auto id = h.index.value("id", int64_t{0});
      if (std::find(ids.begin(), ids.end(), id) == ids.end()) ids.push_back(id);
    }
    if (!ids.empty()) break;
  }
  for (const auto& r : runs) {
    if (!r.heatmap_note.empty()) {
      out << "<p class=\"note\">" << html_escape(r.name) << ": " << html_escape(r.heatmap_note)
          << "</p>";
    }
  }
  for (const auto id : ids) {
    out << "<div class=\"sentence\"><h3>sentence " << id << "</h3><div class=\"row\">";
    for (const auto& r : runs) {
      out << "<div class=\"col\">";
      bool first = true;
      for (const auto& h : r.heatmaps) {
        if (h.index.value("id", int64_t{0}) != id) continue;
        if (first) {
          out << "<p class=\"pair\"><b>" << html_escape(r.name)
              << "</b><br>source: " << html_escape(h.index.value("source", ""))
              << "<br>hypothesis: " << html_escape(h.index.value("hypothesis", ""))
              << "<br>reference: " << html_escape(h.index.value("reference", "")) << "</p>";
          first = false;
        }
        const bool self = h.index.value("matrix", "") == "encoder_self_attention";
        out << "<div class=\"map\"><p class=\"caption\">"
            << (self ? "encoder self-attention" : "decoder attention") << ", head "
            << h.index.value("head", 0) << " (" << html_escape(h.index.value("decode", ""))
            << ")</p>" << svg_heatmap(h) << "</div>";
      }
      out << "</div>";
    }
    out << "</div></div>";
  }
  return out.str();
}

constexpr const char* kStyle = R"(
body { font: 14px/1.4 sans-serif; margin: 1.5em; color: #222; }
h1 { font-size: 1.4em; } h2 { font-size: 1.15em; margin-top: 1.6em; } h3 { font-size: 1em; }
table.scores { border-collapse: collapse; } table.scores td, table.scores th {
  border: 1px solid #ccc; padding: 3px 8px; text-align: left; font-weight: normal; }
table.scores tr:first-child th { font-weight: bold; }
.row { display: flex; flex-wrap: wrap; gap: 1.5em; } .col { min-width: 200px; }
figure.chart { display: inline-block; margin: 0 1em 1em 0; } figcaption { font-weight: bold; }
svg text { font: 11px sans-serif; fill: #333; } .note { color: #666; }
.legend span { margin-right: 1em; } .map { margin-bottom: 0.8em; } .caption { margin: 0; }
pre { background: #f6f6f6; padding: 0.5em; overflow-x: auto; font-size: 12px; }
)";

}  // namespace

std::string html_escape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string render_report(const ReportOptions& o) {
  std::vector<RunData> runs;
  for (const auto& dir : o.runs) runs.push_back(load_run(dir, o));
  std::ostringstream out;
  std::string title;
  for (const auto& r : runs) title += (title.empty() ? "" : " vs ") + r.name;
  out << "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>"
      << html_escape(title) << "</title><style>" << kStyle << "</style></head><body>";
  out << "<h1>" << html_escape(title) << "</h1><p class=\"legend\">";
  for (std::size_t i = 0; i < runs.size(); ++i) {
    out << "<span style=\"color:" << kColors[i % 8] << "\">&#9632; " << html_escape(runs[i].name)
        << "</span>(" << html_escape(runs[i].dir) << ") ";
  }
  out << "</p><h2>Scores</h2>" << scores_table(runs, o.split);
  out << "<h2>Training</h2><div>";
  out << svg_chart("training loss", series_of(runs, "train", "loss"));
  out << svg_chart("validation loss", series_of(runs, "valid", "loss"));
  out << svg_chart("validation perplexity", series_of(runs, "valid", "ppl"));
  out << svg_chart("validation BLEU", series_of(runs, "valid", "bleu"));
  out << svg_chart("learning rate", series_of(runs, "train", "lr"));
  out << "</div><p class=\"note\">Dashed lines: the first logged step of each epoch.</p>";
  out << "<h2>Attention</h2><p class=\"note\">Rows: target tokens (the query), columns: source "
         "tokens; darker is more weight; hover over a cell for its exact weight.</p>"
      << heatmap_section(runs);
  out << "<h2>Configs</h2><div class=\"row\">";
  for (const auto& r : runs) {
    out << "<div class=\"col\"><details><summary>" << html_escape(r.name)
        << ": config.json</summary><pre>" << html_escape(r.config.dump(2))
        << "</pre></details></div>";
  }
  out << "</div></body></html>\n";
  return out.str();
}

}  // namespace s2s::eval
