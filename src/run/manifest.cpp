#include "run/manifest.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <random>
#include <set>

#include "util/error.h"
#include "util/fs.h"
#include "util/lock.h"

namespace s2s::run {
namespace {

namespace fs = std::filesystem;
constexpr const char* kManifest = "manifest.json";
constexpr const char* kLock = "train.lock";
constexpr const char* kProgram = "s2s";

// A new run id: 16 hex digits.
std::string new_run_id() {
  std::random_device device;
  std::mt19937_64 generator((static_cast<uint64_t>(device()) << 32) ^ device());
  char id[17];
  std::snprintf(id, sizeof id, "%016llx", static_cast<unsigned long long>(generator()));
  return id;
}

// Whether `path` lies inside `root` (both as they resolve on disk, symbolic links followed).
bool resolves_inside(const fs::path& path, const fs::path& root) {
  std::error_code ec;
  const auto rel =
      fs::weakly_canonical(path, ec).lexically_relative(fs::weakly_canonical(root, ec));
  return !ec && !rel.empty() && *rel.begin() != ".." && *rel.begin() != ".";
}

}  // namespace

nlohmann::json read_manifest(const std::string& dir) {
  const auto path = dir + "/" + kManifest;
  if (!fs::is_regular_file(path)) return nlohmann::json::object();
  auto j = nlohmann::json::parse(util::read_file(path), nullptr, /*allow_exceptions=*/false);
  if (!j.is_object()) throw InputError(path + ": not a valid manifest (invalid JSON)");
  return j;
}

void update_manifest(const std::string& dir, const std::function<void(nlohmann::json&)>& edit) {
  util::with_directory_lock(dir, [&] {
    auto manifest = read_manifest(dir);
    edit(manifest);
    util::write_file_atomic(dir + "/" + kManifest, manifest.dump(1) + "\n");
  });
}

bool has_run_mark(const nlohmann::json& manifest) {
  if (!manifest.is_object()) return false;
  if (manifest.contains("program")) return manifest["program"] == kProgram;
  return manifest.contains("files") && manifest["files"].is_array() &&
         manifest.contains("provenance") && manifest["provenance"].is_object();
}

void mark_run_dir(const std::string& dir) {
  update_manifest(dir, [](nlohmann::json& manifest) {
    manifest["program"] = kProgram;
    if (!manifest.contains("run_id")) manifest["run_id"] = new_run_id();  // kept on resume
    std::set<std::string> files{kManifest, kLock};
    if (manifest.contains("files") && manifest["files"].is_array()) {
      for (const auto& f : manifest["files"]) {
        if (f.is_string()) files.insert(f.get<std::string>());
      }
    }
    manifest["files"] = std::vector<std::string>(files.begin(), files.end());
  });
}

RunDirKind inspect_run_dir(const std::string& dir) {
  std::error_code ec;
  const auto status = fs::status(dir, ec);
  if (!fs::exists(status)) return RunDirKind::kMissing;
  if (!fs::is_directory(status)) return RunDirKind::kNotDirectory;
  // The lock file alone is what a training that failed before writing anything leaves.
  bool empty = true;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    if (entry.path().filename() != kLock) empty = false;
  }
  if (empty) return RunDirKind::kEmpty;
  // Another tool's manifest.json, even one that is not JSON, only makes the directory foreign.
  const auto manifest_path = dir + "/" + kManifest;
  if (fs::is_regular_file(manifest_path) &&
      has_run_mark(nlohmann::json::parse(util::read_file(manifest_path), nullptr, false))) {
    return RunDirKind::kRun;
  }
  return RunDirKind::kForeign;
}

std::vector<std::string> owned_files(const std::string& dir) {
  const auto manifest = read_manifest(dir);
  if (!has_run_mark(manifest) || !manifest.contains("files")) return {};
  std::vector<std::string> out;
  for (const auto& f : manifest["files"]) {
    if (f.is_string()) out.push_back(f.get<std::string>());
  }
  return out;
}

void record_files(const std::string& dir, const std::vector<std::string>& files) {
  update_manifest(dir, [&](nlohmann::json& manifest) {
    std::set<std::string> all;
    if (manifest.contains("files")) {
      for (const auto& f : manifest["files"]) {
        if (f.is_string()) all.insert(f.get<std::string>());
      }
    }
    all.insert(files.begin(), files.end());
    all.insert(kManifest);
    manifest["files"] = std::vector<std::string>(all.begin(), all.end());
  });
}

void record_files_inside(const std::string& dir, const std::vector<std::string>& paths) {
  std::error_code ec;
  const auto root = fs::weakly_canonical(dir, ec);
  std::vector<std::string> inside;
  for (const auto& p : paths) {
    const auto rel = fs::weakly_canonical(p, ec).lexically_relative(root);
    if (!rel.empty() && *rel.begin() != "..") inside.push_back(rel.string());
  }
  if (!inside.empty()) record_files(dir, inside);
}

int remove_owned_files(const std::string& dir) {
  int removed = 0;
  std::set<fs::path> parents;
  std::error_code ec;
  for (const auto& rel : owned_files(dir)) {
    if (rel == kManifest || rel == kLock) continue;  // the mark, and the lock this run holds
    const fs::path path = fs::path(dir) / rel;
    // Never outside the run directory, whatever a manifest says.
    if (rel.empty() || fs::path(rel).is_absolute() || !resolves_inside(path, dir)) continue;
    if (fs::is_regular_file(fs::symlink_status(path, ec)) && fs::remove(path, ec)) ++removed;
    for (auto p = path.parent_path(); p != fs::path(dir) && !p.empty(); p = p.parent_path()) {
      parents.insert(p);
    }
  }
  // Deepest first, so that a folder emptied of its subfolders goes too.
  for (auto it = parents.rbegin(); it != parents.rend(); ++it) {
    if (fs::is_directory(*it, ec) && fs::is_empty(*it, ec)) fs::remove(*it, ec);
  }
  update_manifest(dir, [](nlohmann::json& manifest) { manifest = nlohmann::json::object(); });
  mark_run_dir(dir);
  return removed;
}

bool is_owned_temp(const std::vector<std::string>& owned, const std::string& relative) {
  const auto at = relative.rfind(".tmp.");
  if (at == std::string::npos) return false;
  const auto base = relative.substr(0, at);
  return std::find(owned.begin(), owned.end(), base) != owned.end();
}

}  // namespace s2s::run
