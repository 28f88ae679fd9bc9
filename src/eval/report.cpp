#include "eval/report.h"

#include <algorithm>
#include <functional>
#include <nlohmann/json.hpp>
#include <sstream>

#include "eval/report_data.h"
#include "eval/report_svg.h"

namespace s2s::eval {
namespace {

using nlohmann::json;

// The series of `metric` from events named `event`, one per run.
std::vector<Series> series_of(const std::vector<RunData>& runs, const std::string& event,
                              const std::string& metric) {
  std::vector<Series> out;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    Series s{runs[i].name, run_color(i), {}, {}};
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
  row("attention weights exactly 0",
      [&](const json& s) { return score_cell(s, "attention_zeros", 3); });
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
  for (const auto& dir : o.runs) runs.push_back(load_run(dir, o.split, o.limit));
  std::ostringstream out;
  std::string title;
  for (const auto& r : runs) title += (title.empty() ? "" : " vs ") + r.name;
  out << "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>"
      << html_escape(title) << "</title><style>" << kStyle << "</style></head><body>";
  out << "<h1>" << html_escape(title) << "</h1><p class=\"legend\">";
  for (std::size_t i = 0; i < runs.size(); ++i) {
    out << "<span style=\"color:" << run_color(i) << "\">&#9632; " << html_escape(runs[i].name)
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
