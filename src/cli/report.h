#pragma once
// `s2s report --run DIR [--run DIR2]... [--out FILE] [--limit 5] [--split test]`: one
// self-contained HTML page of the runs (eval/report.h), by default DIR/report.html.

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>
#include <vector>

namespace s2s::cli {

struct ReportArgs {
  std::vector<std::string> runs;
  std::string out;  // "" = <first run>/report.html
  int64_t limit = 5;
  std::string split = "test";
};

void setup_report(CLI::App& app);

// Writes the page; returns its path.
std::string run_report(const ReportArgs& args);

}  // namespace s2s::cli
