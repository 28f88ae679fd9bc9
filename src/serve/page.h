#pragma once
// The page `s2s serve` answers at "/": one self-contained HTML file (no script, font or
// stylesheet fetched from elsewhere) with a text box, the translation and n-best list of each
// line typed, and its attention heatmap. The heatmap is the SVG the server draws with the
// report's code (eval/report_svg.h), so hovering a cell shows its weight as the report does.

#include <string>

namespace s2s::serve {

const std::string& page_html();

}  // namespace s2s::serve
