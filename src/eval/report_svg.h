#pragma once
// The inline SVG of `s2s report` (eval/report.h): an attention heatmap with its colour scale and
// gold links, and a line chart of training curves. No script or font is fetched; every heatmap
// cell carries its exact weight in a <title>, which browsers show on hover.

#include <string>
#include <utility>
#include <vector>

#include "eval/report_data.h"

namespace s2s::eval {

// One run's colour, by column (cycles after eight runs).
const char* run_color(std::size_t run);

// The heatmap of one matrix: rows the queries, columns the keys, gold cells outlined, exact zeros
// (a sparse normalizer's) white with a grey dot, apart from small weights.
std::string svg_heatmap(const Heatmap& h);

// One run's curve of one metric.
struct Series {
  std::string label, color;
  std::vector<std::pair<double, double>> points;  // (step, value)
  std::vector<double> epochs;                     // steps where an epoch begins
};

// A chart of `series` on shared axes; dashed lines where epochs begin.
std::string svg_chart(const std::string& title, const std::vector<Series>& series);

}  // namespace s2s::eval
