// s2s: attention-based sequence-to-sequence translation trainer.
// One subcommand per file in src/cli/; this file wires them and maps errors to exit codes:
// 0 success, 2 usage/config/input error (one line naming the key or file), 1 runtime failure.

#include <CLI/CLI.hpp>

#include <exception>
#include <iostream>

#include "cli/verbs.h"
#include "util/error.h"
#include "util/logging.h"

int main(int argc, char** argv) {
  CLI::App app{"s2s: train and inspect attention-based GRU translation models"};
  app.set_version_flag("--version", std::string("s2s ") + S2S_VERSION);
  app.require_subcommand(1);
  s2s::util::setup_logging();
  app.add_flag_callback("-v,--verbose", [] { s2s::util::setup_logging(/*verbose=*/true); },
                        "Log debug messages");
  s2s::cli::setup_verbs(app);

  try {
    app.parse(argc, argv);  // runs the chosen verb's callback
    return 0;
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : 2;
  } catch (const s2s::UserError& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "error: " << s2s::cli::first_line(e.what()) << "\n";
    return 1;
  }
}
