#include "cli/report.h"

#include <memory>

#include "cli/verbs.h"
#include "eval/report.h"
#include "run/manifest.h"
#include "util/fs.h"
#include "util/logging.h"
#include "util/system.h"

namespace s2s::cli {

void setup_report(CLI::App& app) {
  auto args = std::make_shared<ReportArgs>();
  auto* sub = app.add_subcommand(
      "report", "Write a self-contained HTML report of runs: scores, curves, heatmaps");
  sub->add_option("--run", args->runs, "Run directory (repeat to compare runs side by side)")
      ->required();
  sub->add_option("--out", args->out, "HTML file to write (default: <first run>/report.html)");
  sub->add_option("--limit", args->limit, "Heatmaps of the first N sentences")
      ->check(integer_in(0))
      ->capture_default_str();
  add_split_option(sub, args->split);
  sub->callback([args] { run_report(*args); });
}

std::string run_report(const ReportArgs& args) {
  eval::ReportOptions options;
  options.runs = args.runs;
  options.split = args.split;
  options.limit = args.limit;
  const auto out = args.out.empty() ? args.runs.front() + "/report.html" : args.out;
  util::check_output_file("--out", out, "report.html");
  const auto html = eval::render_report(options);
  util::write_file_atomic(out, html);
  run::record_files_inside(args.runs.front(), {out});
  util::logger("report")->info("wrote {} ({})", out,
                               util::format_bytes(static_cast<double>(html.size())));
  return out;
}

}  // namespace s2s::cli
