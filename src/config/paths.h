#pragma once
// Where the paths of a config point. Data paths in a config file are relative to the file
// (as Joey NMT and Marian read theirs), so a config works from any working directory; paths
// given with --set, and run_dir, are relative to the working directory, as shell users expect.
// Every path is stored absolute in the run's config.json, so a run directory works from
// anywhere.

#include <string>
#include <vector>

#include "config/config.h"

namespace s2s::config {

// Makes every path of `config` absolute: data paths relative to `config_dir` unless their key
// is among `from_cwd` (set on the command line), run_dir relative to the working directory.
// A relative data path that exists only relative to the working directory (configs written
// before paths were relative to their file) is taken from there.
void resolve_paths(Config& config, const std::string& config_dir,
                   const std::vector<std::string>& from_cwd);

}  // namespace s2s::config
