#pragma once
// `s2s config --template`: every config key with its default and its meaning, as a config file.
// `s2s config --check FILE [--set key=value]... [--show]`: validates a config as `train` would
// (keys, types, ranges, choices, the data files it names) without training; --show prints the
// resolved config (overrides applied, paths absolute).

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace s2s::cli {

struct ConfigArgs {
  bool print_template = false;
  std::string check;                   // config file to validate
  std::vector<std::string> overrides;  // --set section.key=value
  bool show = false;                   // print the resolved config
};

void setup_config(CLI::App& app);
void run_config(const ConfigArgs& args);

}  // namespace s2s::cli
