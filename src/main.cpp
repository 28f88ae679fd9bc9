// s2s: attention-based sequence-to-sequence translation trainer.
// One subcommand per file in src/cli/; this file wires them and maps errors to exit codes:
// 0 success, 2 usage/config/input error (one line naming the key or file), 1 runtime failure,
// 128 + signal after an interrupt that saved its work (130 for Ctrl-C, 143 for SIGTERM).

#include <CLI/CLI.hpp>
#include <exception>
#include <iostream>

#include "cli/verbs.h"
#include "platform/math_libraries.h"
#include "util/error.h"
#include "util/logging.h"
#include "util/signals.h"
#include "util/strings.h"
#include "util/version.h"

namespace {

// CLI11 reports an unknown subcommand as "a subcommand is required" or as an unexpected
// argument; name it and the valid ones instead, at any level (`s2s frobnicate`,
// `s2s study foo`).
void reject_unknown_subcommand(const CLI::App& app, int argc, char** argv) {
  const CLI::App* current = &app;
  std::string path = "";
  for (int i = 1; i < argc && argv[i][0] != '-'; ++i) {
    const auto subs = current->get_subcommands([](const CLI::App*) { return true; });
    if (subs.empty()) return;  // positional arguments from here on
    const CLI::App* next = nullptr;
    std::vector<std::string> names;
    for (const auto* sub : subs) {
      if (sub->get_name() == argv[i]) next = sub;
      names.push_back(sub->get_name());
    }
    if (next == nullptr) {
      throw s2s::UserError(std::string("unknown ") + (path.empty() ? "command" : path + "command") +
                           " '" + argv[i] + "' (valid: " + s2s::util::join(names, ", ") + ")");
    }
    path += next->get_name() + " ";
    current = next;
  }
}

// The subcommand a parse error belongs to, for "see s2s <verb> --help".
std::string help_of(const CLI::App& app) {
  std::string command = "s2s";
  const CLI::App* current = &app;
  while (true) {
    const auto used = current->get_subcommands();
    if (used.empty()) break;
    current = used.front();
    command += " " + current->get_name();
  }
  return command + " --help";
}

// CLI11 words a failed check as "--beam: must be ..."; users read "--beam must be ...".
std::string usage_message(const CLI::ParseError& e) {
  std::string message = s2s::util::first_line(e.what());
  const auto colon = message.find(": ");
  if (message.rfind("--", 0) == 0 && colon != std::string::npos && message.find(' ') > colon) {
    message.erase(colon, 1);
  }
  return message;
}

// The one line a failure prints, also appended to train.log when a run has one open.
int report(const std::string& line, int code) {
  std::cerr << line << "\n";
  s2s::util::write_to_log_file(line);
  return code;
}

}  // namespace

int main(int argc, char** argv) {
  s2s::platform::choose_math_library_settings(argv);  // may start the program again, first
  CLI::App app{"s2s: train and inspect attention-based GRU translation models"};
  const auto commit = s2s::util::git_commit();
  app.set_version_flag("--version", "s2s " + s2s::util::program_version() +
                                        (commit.empty() ? "" : " (" + commit + ")"));
  app.require_subcommand(1);
  s2s::util::setup_logging();
  app.add_flag_callback(
      "-v,--verbose", [] { s2s::util::setup_logging(/*verbose=*/true); }, "Log debug messages");
  s2s::cli::setup_verbs(app);

  try {
    reject_unknown_subcommand(app, argc, argv);
    app.parse(argc, argv);  // runs the chosen verb's callback
    return 0;
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    std::cerr << "error: " << usage_message(e) << " (see " << help_of(app) << ")\n";
    return 2;
  } catch (const s2s::ExitStatus& e) {
    return e.code;
  } catch (const s2s::util::Interrupted& e) {
    return report("interrupted by " + std::string(e.what()), 128 + e.signal);
  } catch (const s2s::UserError& e) {
    return report("error: " + std::string(e.what()), 2);
  } catch (const std::exception& e) {
    return report("error: " + s2s::util::first_line(e.what()), 1);
  }
}
