#include "eval/report_svg.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "eval/report.h"

namespace s2s::eval {
namespace {

constexpr int kCell = 18;  // heatmap cell size, px
const char* const kColors[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd",
                               "#ff7f0e", "#8c564b", "#e377c2", "#17becf"};

// White to dark blue ("Blues"), for w in [0, 1].
std::string color(double w) {
  w = std::clamp(w, 0.0, 1.0);
  const auto mix = [&](int a, int b) { return static_cast<int>(std::lround(a + (b - a) * w)); };
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, "#%02x%02x%02x", mix(247, 8), mix(251, 48), mix(255, 107));
  return buffer;
}

// Six decimals, or scientific notation for a weight six decimals would show as 0.
std::string weight_text(double w) {
  if (w == 0.0 || w >= 5e-7) return fmt_number(w, 6);
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1e", w);
  return buffer;
}

// One cell at (x, y) of weight w from `source` to `target`. An exact zero (off a sparse
// normalizer's support) is white with a grey dot, apart from the palest blue of a small weight.
void svg_cell(std::ostringstream& out, int x, int y, double w, bool gold, const std::string& target,
              const std::string& source) {
  const bool zero = w == 0.0;
  out << "<rect class=\"cell" << (zero ? " zero" : "") << "\" x=\"" << x << "\" y=\"" << y
      << "\" width=\"" << kCell << "\" height=\"" << kCell << "\" fill=\""
      << (zero ? "#ffffff" : color(w)) << '"'
      << (gold ? " stroke=\"#e6550d\" stroke-width=\"2\"" : "") << " data-weight=\""
      << weight_text(w) << "\"><title>" << html_escape(target) << " \u2190 " << html_escape(source)
      << ": " << (zero ? "exactly 0" : weight_text(w)) << "</title></rect>";
  if (zero) {
    out << "<circle cx=\"" << x + kCell / 2 << "\" cy=\"" << y + kCell / 2
        << "\" r=\"1.5\" fill=\"#969696\" pointer-events=\"none\"/>";
  }
}

// The colour scale at (x, y): 1 at the top, 0 at the bottom, and the exact-zero mark below it
// where a cell has one.
void svg_scale(std::ostringstream& out, int x, int y, bool any_zero) {
  const int steps = 10;
  for (int i = 0; i < steps; ++i) {
    out << "<rect x=\"" << x << "\" y=\"" << y + i * 8 << "\" width=\"10\" height=\"8\" fill=\""
        << color(1.0 - (i + 0.5) / steps) << "\"/>";
  }
  out << "<text x=\"" << x + 14 << "\" y=\"" << y + 8 << "\">1</text><text x=\"" << x + 14
      << "\" y=\"" << y + steps * 8 << "\">0</text>";
  if (any_zero) {
    const int zy = y + steps * 8 + 6;
    out << "<rect x=\"" << x << "\" y=\"" << zy << "\" width=\"10\" height=\"10\" fill=\"#ffffff\" "
        << "stroke=\"#ccc\"/><circle cx=\"" << x + 5 << "\" cy=\"" << zy + 5
        << "\" r=\"1.5\" fill=\"#969696\"/><text x=\"" << x + 14 << "\" y=\"" << zy + 9
        << "\">=0</text>";
  }
}

std::string tick(double v) {
  const double a = std::fabs(v);
  if (a != 0 && (a < 1e-2 || a >= 1e5)) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.1e", v);
    return buffer;
  }
  return fmt_number(v, a < 10 ? 2 : (a < 100 ? 1 : 0));
}

}  // namespace

const char* run_color(std::size_t run) { return kColors[run % 8]; }

std::string svg_heatmap(const Heatmap& h) {
  const auto label_width = [](const std::vector<std::string>& labels) {
    std::size_t n = 4;
    for (const auto& l : labels) n = std::max(n, l.size());
    return static_cast<int>(std::min<std::size_t>(n, 24) * 7 + 8);
  };
  const int left = label_width(h.rows), top = label_width(h.cols);
  const int cols = static_cast<int>(h.cols.size()), rows = static_cast<int>(h.rows.size());
  // Tall enough for the colour scale and its exact-zero mark (svg_scale) under short matrices.
  const int width = left + cols * kCell + 60, height = top + std::max(rows * kCell, 100) + 8;
  std::ostringstream out;
  out << "<svg class=\"heatmap\" xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width
      << "\" height=\"" << height << "\" role=\"img\">";
  for (int c = 0; c < cols; ++c) {  // source tokens, written upwards above their column
    const int x = left + c * kCell + kCell / 2 + 4, y = top - 4;
    out << "<text x=\"" << x << "\" y=\"" << y << "\" transform=\"rotate(-90 " << x << ' ' << y
        << ")\">" << html_escape(h.cols[static_cast<std::size_t>(c)]) << "</text>";
  }
  bool any_zero = false;
  for (int r = 0; r < rows; ++r) {
    const auto& row = h.rows[static_cast<std::size_t>(r)];
    out << "<text x=\"" << left - 4 << "\" y=\"" << top + r * kCell + kCell - 5
        << "\" text-anchor=\"end\">" << html_escape(row) << "</text>";
    for (int c = 0; c < cols; ++c) {
      const auto rc = std::make_pair(static_cast<std::size_t>(r), static_cast<std::size_t>(c));
      const double w = h.weights[rc.first][rc.second];
      svg_cell(out, left + c * kCell, top + r * kCell, w, h.gold.count(rc) > 0, row,
               h.cols[rc.second]);
      any_zero = any_zero || w == 0.0;
    }
  }
  svg_scale(out, left + cols * kCell + 12, top, any_zero);
  out << "</svg>";
  return out.str();
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

}  // namespace s2s::eval
