#pragma once
// Logging is configured once, at program start; every message is tagged by component
// ("[data] vocab size 5898") through the logger's name.

#include <spdlog/spdlog.h>

#include <memory>
#include <string>

namespace s2s::util {

// Sets the pattern and level of the default logger; `verbose` adds debug messages.
void setup_logging(bool verbose = false);

// Also writes every message to `path` (the run directory's train.log).
void add_log_file(const std::string& path);

// Appends `line` to the log file, if one is open, without printing it again on stderr: the
// one-line errors main prints reach train.log too.
void write_to_log_file(const std::string& line);

// Only warnings and errors from here on (the ranks other than 0 of a distributed training).
void set_log_level_warn();

// A logger for one component ("data", "model", "train", ...), created on first use.
std::shared_ptr<spdlog::logger> logger(const std::string& component);

}  // namespace s2s::util
