#pragma once
// manifest.json: the mark that makes a directory a run of this program, and what the program
// wrote in it. A new training writes the mark before any other file ({"program": "s2s",
// "run_id": ...}); `train --overwrite` removes exactly the files the manifest lists (never the
// lock, never a file the user put there, never anything outside the directory); every verb
// that writes into a run directory records its files here.

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace s2s::run {

// What a run directory holds, as far as a new training is concerned.
enum class RunDirKind {
  kMissing,       // nothing there yet
  kEmpty,         // an empty directory
  kRun,           // marked by this program (has_run_mark)
  kForeign,       // a non-empty directory this program did not write
  kNotDirectory,  // a file (or something else) where the directory should be
};

RunDirKind inspect_run_dir(const std::string& dir);

// Whether `manifest` is this program's: "program": "s2s", or (manifests of versions before the
// mark) a list of files and a provenance. A config.json and a checkpoints/ folder are not a
// mark: another tool may write those.
bool has_run_mark(const nlohmann::json& manifest);

// Marks `dir` (which exists) as a run of this program: a run id (a new one unless the manifest
// has one), and the manifest and the lock listed as its files. Other fields are kept.
void mark_run_dir(const std::string& dir);

// The files (paths relative to `dir`, e.g. "checkpoints/last.pt") this program wrote in `dir`;
// none when `dir` has no mark.
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

// Removes every file this program wrote in `dir` except the lock and the manifest, and the
// directories that leaves empty, then marks `dir` anew (mark_run_dir, with no other files).
// Files of anyone else stay, and so does whatever a listed path reaches outside `dir` (through
// "..", an absolute path or a symbolic link). Returns how many files were removed.
int remove_owned_files(const std::string& dir);

// Whether `relative` (a path relative to the run directory) is the temporary file of one of
// `owned`: "<owned file>.tmp.<pid>" (util::temp_path). Only those are swept as the leftovers
// of a killed process; a user's "notes.tmp.999999" is not.
bool is_owned_temp(const std::vector<std::string>& owned, const std::string& relative);

}  // namespace s2s::run
