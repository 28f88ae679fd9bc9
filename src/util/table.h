#pragma once
// Tables of results: aligned text for people, CSV (RFC 4180) for programs. Used by the study
// verbs and the heatmap export.

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace s2s::util {

using Cell = std::variant<std::string, int64_t, double>;

struct Table {
  std::vector<std::string> header;
  std::vector<std::vector<Cell>> rows;
};

// One CSV field, quoted when it holds a comma, a quote or a line break (quotes doubled).
std::string csv_field(std::string_view field);

// A cell as text: numbers with `digits` significant digits.
std::string cell_text(const Cell& cell, int digits);

// Strings left-aligned, numbers right-aligned, two spaces between columns, `digits`
// significant digits.
std::string format_table(const Table& table, int digits = 4);

// Header line, then one line per row; numbers with `digits` significant digits.
std::string format_csv(const Table& table, int digits = 10);

}  // namespace s2s::util
