#include "cli/average.h"

#include <iostream>
#include <memory>

#include "checkpoint/average.h"
#include "cli/verbs.h"
#include "util/error.h"
#include "util/strings.h"

namespace s2s::cli {
namespace {

// The checkpoints to average: those named, or the newest `last` step checkpoints.
std::vector<std::string> chosen(const AverageArgs& args) {
  if (!args.checkpoints.empty()) return args.checkpoints;
  const auto steps = checkpoint::step_checkpoints(args.run);
  if (static_cast<int64_t>(steps.size()) < args.last) {
    throw InputError(args.run + "/checkpoints: " + std::to_string(steps.size()) +
                     " step checkpoints, --last asks for " + std::to_string(args.last) +
                     " (train with training.keep_step_checkpoints=true and validate_every)");
  }
  return {steps.end() - args.last, steps.end()};
}

}  // namespace

void setup_average(CLI::App& app) {
  auto args = std::make_shared<AverageArgs>();
  CLI::App* sub = app.add_subcommand(
      "average", "Average the weights of a run's last checkpoints into one checkpoint");
  sub->add_option("--run", args->run, "Run directory")->required();
  auto* last = sub->add_option("--last", args->last,
                               "Average the newest N step checkpoints "
                               "(training.keep_step_checkpoints)")
                   ->check(integer_in(2))
                   ->capture_default_str();
  sub->add_option("--checkpoints", args->checkpoints,
                  "Average these checkpoints instead (names, e.g. step_800,step_900)")
      ->delimiter(',')
      ->excludes(last);
  sub->add_option("--out", args->out, "Name of the checkpoint to write (checkpoints/NAME.pt)")
      ->capture_default_str();
  sub->add_flag("--overwrite", args->overwrite, "Replace checkpoints/NAME.pt if it exists");
  sub->callback([args] { run_average(*args); });
}

std::string run_average(const AverageArgs& args) {
  checkpoint::average_output(args.run, args.out,
                             args.overwrite);  // a bad --out before anything else
  const auto names = chosen(args);
  const auto result = checkpoint::average_checkpoints(args.run, names, args.out, args.overwrite);
  std::cout << "averaged " << util::join(names, ", ") << " into " << result.path << "\n"
            << "decode with: s2s evaluate --run " << args.run << " --checkpoint " << args.out
            << "\n";
  return result.path;
}

}  // namespace s2s::cli
