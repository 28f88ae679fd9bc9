#include "cli/config.h"

#include <iostream>
#include <memory>

#include "config/json_io.h"
#include "config/template.h"
#include "util/error.h"

namespace s2s::cli {

void setup_config(CLI::App& app) {
  auto args = std::make_shared<ConfigArgs>();
  auto* sub = app.add_subcommand("config", "Print a config template, or check a config file");
  auto* tmpl = sub->add_flag("--template", args->print_template,
                             "Print every key with its default and meaning (a valid config)");
  auto* check = sub->add_option("--check", args->check, "Validate this config without training");
  sub->add_option("--set", args->overrides, "Override a value: section.key=value (with --check)")
      ->take_all()
      ->needs(check);
  sub->add_flag("--show", args->show, "With --check: print the resolved config")->needs(check);
  tmpl->excludes(check);
  sub->callback([args] { run_config(*args); });
}

void run_config(const ConfigArgs& args) {
  if (args.print_template) {
    std::cout << config::config_template();
    return;
  }
  if (args.check.empty())
    throw UserError("give --template or --check FILE (see s2s config --help)");
  const auto config = config::load_config(args.check, args.overrides);
  config::validate_files(config);
  if (args.show) {
    std::cout << config::config_to_json(config).dump(2) << "\n";
  } else {
    std::cout << args.check << ": ok\n";
  }
}

}  // namespace s2s::cli
