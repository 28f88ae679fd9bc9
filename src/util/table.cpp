#include "util/table.h"

#include <algorithm>
#include <iomanip>
#include <sstream>

namespace s2s::util {

std::string csv_field(std::string_view field) {
  if (field.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(field);
  std::string out = "\"";
  for (const char c : field) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string cell_text(const Cell& cell, int digits) {
  if (const auto* s = std::get_if<std::string>(&cell)) return *s;
  if (const auto* i = std::get_if<int64_t>(&cell)) return std::to_string(*i);
  std::ostringstream out;
  out << std::setprecision(digits) << std::get<double>(cell);
  return out.str();
}

namespace {

std::vector<std::string> row_texts(const std::vector<Cell>& row, int digits) {
  std::vector<std::string> cells;
  cells.reserve(row.size());
  for (const auto& cell : row) cells.push_back(cell_text(cell, digits));
  return cells;
}

}  // namespace

std::string format_table(const Table& table, int digits) {
  std::vector<std::size_t> width(table.header.size());
  for (std::size_t c = 0; c < width.size(); ++c) width[c] = table.header[c].size();
  for (const auto& row : table.rows) {
    for (std::size_t c = 0; c < row.size(); ++c) {
      width[c] = std::max(width[c], cell_text(row[c], digits).size());
    }
  }
  std::vector<bool> left(width.size(), false);  // a column of strings is left-aligned
  if (!table.rows.empty()) {
    for (std::size_t c = 0; c < left.size(); ++c) {
      left[c] = std::holds_alternative<std::string>(table.rows.front()[c]);
    }
  }
  const auto line = [&](const std::vector<std::string>& cells) {
    std::ostringstream out;
    for (std::size_t c = 0; c < cells.size(); ++c) {
      out << (c ? "  " : "") << (left[c] ? std::left : std::right)
          << std::setw(static_cast<int>(width[c])) << cells[c];
    }
    std::string text = out.str();
    text.erase(text.find_last_not_of(' ') + 1);
    return text + "\n";
  };
  std::string out = line(table.header);
  for (const auto& row : table.rows) out += line(row_texts(row, digits));
  return out;
}

std::string format_csv(const Table& table, int digits) {
  const auto line = [](const std::vector<std::string>& cells) {
    std::string text;
    for (std::size_t c = 0; c < cells.size(); ++c) text += (c ? "," : "") + csv_field(cells[c]);
    return text + "\n";
  };
  std::string out = line(table.header);
  for (const auto& row : table.rows) out += line(row_texts(row, digits));
  return out;
}

}  // namespace s2s::util
