// s2s: attention-based sequence-to-sequence translation trainer.
// One subcommand per file in src/cli/; this file wires them and maps errors to exit codes:
// 0 success, 2 usage/config/input error (one line naming the key or file), 1 runtime failure.

#include <CLI/CLI.hpp>
#include <exception>
#include <iostream>

#include "cli/verbs.h"
#include "util/error.h"
#include "util/logging.h"
#include "util/strings.h"

namespace {

// CLI11 reports an unknown verb as "a subcommand is required"; name it and the valid ones.
void reject_unknown_verb(const CLI::App& app, int argc, char** argv) {
  if (argc < 2 || argv[1][0] == '-') return;
  std::string valid;
  for (const auto* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    if (sub->get_name() == argv[1]) return;
    valid += (valid.empty() ? "" : ", ") + sub->get_name();
  }
  throw s2s::UserError(std::string("unknown command '") + argv[1] + "' (valid: " + valid + ")");
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"s2s: train and inspect attention-based GRU translation models"};
  app.set_version_flag("--version", std::string("s2s ") + S2S_VERSION);
  app.require_subcommand(1);
  s2s::util::setup_logging();
  app.add_flag_callback(
      "-v,--verbose", [] { s2s::util::setup_logging(/*verbose=*/true); }, "Log debug messages");
  s2s::cli::setup_verbs(app);

  try {
    reject_unknown_verb(app, argc, argv);
    app.parse(argc, argv);  // runs the chosen verb's callback
    return 0;
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    std::cerr << "error: " << s2s::util::first_line(e.what()) << " (see s2s --help)\n";
    return 2;
  } catch (const s2s::UserError& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "error: " << s2s::util::first_line(e.what()) << "\n";
    return 1;
  }
}
