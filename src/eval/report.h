#pragma once
// `s2s report`: one self-contained HTML page of one or more runs — config and signatures, test
// scores, training curves from metrics.jsonl, and the attention heatmaps the run exported
// (heatmaps/index.jsonl and its CSVs), with gold alignment links drawn over a heatmap whose
// hypothesis is the reference. No script, font or stylesheet is fetched: the curves and
// heatmaps are inline SVG, and every cell carries its exact weight in a <title>, which browsers
// show on hover. Several runs go side by side: one column each, curves on shared axes, the same
// sentences' heatmaps. It reads only the run's documented files, never the model.

#include <cstdint>
#include <string>
#include <vector>

namespace s2s::eval {

struct ReportOptions {
  std::vector<std::string> runs;  // run directories, in column order
  std::string split = "test";     // whose scores (<split>.scores.json) to show
  int64_t limit = 5;              // heatmaps of the first N sentences of index.jsonl
};

// The page. InputError naming the file for a run without config.json or with a broken file.
std::string render_report(const ReportOptions& options);

// Text made safe for HTML element content and attribute values (& < > " ').
std::string html_escape(const std::string& text);

}  // namespace s2s::eval
