#pragma once
// manifest.json: what this program wrote in a run directory. `train --overwrite` removes
// exactly those files (and never a file the user put there); every verb that writes into a
// run directory records its files here.

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace s2s::run {

// What a run directory holds, as far as a new training is concerned.
enum class RunDirKind {
  kMissing,       // nothing there yet
  kEmpty,         // an empty directory
  kRun,           // written by this program (manifest.json, or a run of an earlier version)
  kForeign,       // a non-empty directory this program did not write
  kNotDirectory,  // a file (or something else) where the directory should be
};

RunDirKind inspect_run_dir(const std::string& dir);

// The files (paths relative to `dir`, e.g. "checkpoints/last.pt") this program wrote in `dir`.
// Runs of earlier versions have no manifest: their files are recognized by name.
std::vector<std::string> owned_files(const std::string& dir);

// The manifest of `dir` (an empty object if there is none).
nlohmann::json read_manifest(const std::string& dir);

// Runs `edit` on the manifest of `dir` and writes it back, under a short lock on the
// directory so that a training and an evaluation writing at once both get recorded.
void update_manifest(const std::string& dir, const std::function<void(nlohmann::json&)>& edit);

// Adds `files` (relative to `dir`) to the manifest, under a short lock on the directory so
// that a training and an evaluation writing at once both get recorded.
void record_files(const std::string& dir, const std::vector<std::string>& files);

// Records those of `paths` (as a user gave them: relative to the working directory or absolute)
// that lie inside `dir`; the others are ignored.
void record_files_inside(const std::string& dir, const std::vector<std::string>& paths);

// Removes every file this program wrote in `dir`, the directories that leaves empty, and the
// manifest itself; files of anyone else stay. Returns how many files were removed.
int remove_owned_files(const std::string& dir);

}  // namespace s2s::run
