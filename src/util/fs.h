#pragma once
// Small file helpers shared by every module.

#include <functional>
#include <string>

namespace s2s::util {

// Reads a whole file; InputError naming the path if it cannot be opened.
std::string read_file(const std::string& path);

// Writes `contents` to `path` atomically: a temporary file beside it (temp_path), flushed and
// synced, then renamed over `path`, so a crash mid-write never leaves a truncated file. A write
// error (full disk, ...) is a std::runtime_error naming `path` and the OS error; the temporary
// file is removed and `path` keeps its previous contents.
void write_file_atomic(const std::string& path, const std::string& contents);

// The temporary file write_file_atomic uses for `path`: path + ".tmp." + this process's PID.
std::string temp_path(const std::string& path);

// Removes the temporary files or folders (`*.tmp.<pid>`) in `dir` whose process no longer runs
// and whose name `ours` accepts: the leftovers of a process of this program killed mid-write.
// Returns how many were removed.
int remove_stale_temp_files(const std::string& dir,
                            const std::function<bool(const std::string& name)>& ours);

// Output paths a user names with a flag (`--out`), checked before any work. The wrong kind of
// path is the user's mistake, a UserError naming the flag (exit 2): a directory where a file is
// to be written, a file where a directory is, a parent directory that does not exist. A refusal
// by the system (a read-only disk, permissions, a full disk) is a write failure, a
// std::runtime_error naming the path and the OS error (exit 1), like every other write's.
// `example_name` ("report.html") is suggested when `path` is a directory.
void check_output_file(const std::string& flag, const std::string& path,
                       const std::string& example_name = "");
// Creates `path` (and its parents) unless it is a directory already.
void make_output_dir(const std::string& flag, const std::string& path);

}  // namespace s2s::util
