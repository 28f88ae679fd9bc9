#include "train/training_run_dir.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "config/json_io.h"
#include "run/manifest.h"
#include "run/provenance.h"
#include "util/error.h"
#include "util/fs.h"
#include "util/logging.h"
#include "util/strings.h"

namespace s2s::train {
namespace {

namespace fs = std::filesystem;

// Whether `path` is `root` or lies below it (both canonical).
bool is_within(const fs::path& path, const fs::path& root) {
  const auto rel = path.lexically_relative(root);
  return !rel.empty() && *rel.begin() != "..";
}

fs::path canonical_path(const std::string& path) {
  std::error_code ec;
  const auto p = fs::weakly_canonical(fs::absolute(path, ec), ec);
  return ec ? fs::absolute(path).lexically_normal() : p;
}

}  // namespace

void check_resume_flags(bool resume, bool overwrite) {
  if (resume && overwrite) {
    throw UserError("--resume and --overwrite exclude each other: continue the run, or start over");
  }
}

TrainingRunDir::TrainingRunDir(const config::Config& config, const TrainOptions& options)
    : paths_(config.run_dir), options_(options) {
  check_resume_flags(options.resume, options.overwrite);
  check_location(config, options.config_file);
  if (run::inspect_run_dir(paths_.dir) == run::RunDirKind::kNotDirectory) {
    throw UserError("run_dir " + paths_.dir + ": exists and is not a directory");
  }
  if (options.resume) {
    check_resume(config);
  } else {
    check_new_run();
  }
}

// --overwrite removes files in run_dir, and every run writes there: never a directory that
// holds anything but the run.
void TrainingRunDir::check_location(const config::Config& config,
                                    const std::string& config_file) const {
  const auto dir = canonical_path(paths_.dir);
  const auto refuse = [&](const std::string& why) {
    throw UserError("run_dir " + paths_.dir + ": " + why + "; give the run a directory of its own");
  };
  if (dir == dir.root_path()) refuse("is the root directory");
  const char* home = std::getenv("HOME");
  if (home != nullptr && *home != '\0' && dir == canonical_path(home)) {
    refuse("is the home directory");
  }
  const auto cwd = canonical_path(".");
  if (cwd == dir) refuse("is the working directory");
  if (is_within(cwd, dir)) refuse("is an ancestor of the working directory");
  auto files = run::data_files(config);
  if (!config_file.empty() && canonical_path(config_file) != canonical_path(paths_.config())) {
    files.push_back(config_file);
  }
  for (const auto& file : files) {
    if (is_within(canonical_path(file), dir))
      refuse("holds " + file + ", which the training reads");
  }
}

void TrainingRunDir::check_new_run() const {
  const auto kind = run::inspect_run_dir(paths_.dir);
  if (kind == run::RunDirKind::kMissing || kind == run::RunDirKind::kEmpty) return;
  if (kind == run::RunDirKind::kForeign && fs::exists(paths_.dir + "/manifest.json")) {
    throw UserError("run_dir " + paths_.dir +
                    " holds a manifest.json that this program did not write; choose another "
                    "run_dir");
  }
  if (kind == run::RunDirKind::kForeign && options_.overwrite) {
    // Training beside another program's files is safe only if the run would write none of them.
    std::vector<std::string> taken;
    for (const std::string name :
         {"config.json", "src_vocab.txt", "tgt_vocab.txt", "metrics.jsonl", "train.log",
          "checkpoints", "heatmaps", "test.hyp", "test.scores.json", "valid.hyp",
          "valid.scores.json", "report.html"}) {
      if (fs::exists(fs::symlink_status(paths_.dir + "/" + name))) taken.push_back(name);
    }
    if (!taken.empty()) {
      throw UserError("run_dir " + paths_.dir + " holds " + util::join(taken, ", ") +
                      " of another program, which a run would overwrite; choose another run_dir");
    }
  }
  if (kind == run::RunDirKind::kForeign && !options_.overwrite) {
    throw UserError("run_dir " + paths_.dir +
                    " is not empty and holds no run of this program; choose another run_dir, "
                    "or --overwrite to train beside its files (they are kept)");
  }
  if (!options_.overwrite) {
    const bool trained = fs::exists(paths_.checkpoint("last"));
    throw UserError("run_dir " + paths_.dir +
                    (trained ? " already holds a trained run" : " holds a run") +
                    "; use --resume to continue it, --overwrite to start over, or another "
                    "run_dir");
  }
}

void TrainingRunDir::check_resume(const config::Config& config) {
  if (!fs::exists(paths_.checkpoint("last"))) {
    throw UserError("--resume: no checkpoint to resume from at " + paths_.checkpoint("last"));
  }
  const auto saved = config::load_config(paths_.config());
  std::vector<std::string> refused;
  for (auto& change : config::config_changes(saved, config)) {
    if (change.resumable) {
      changes_.push_back(change);
    } else {
      refused.push_back(change.key + " " + change.before + " -> " + change.after);
    }
  }
  if (!refused.empty()) {
    throw UserError(
        "--resume: the run was trained with other settings that a resumed run "
        "cannot change: " +
        util::join(refused, "; ") + " (start a new run instead)");
  }
}

void TrainingRunDir::claim(const config::Config& config, const data::Vocab& src_vocab,
                           const data::Vocab& tgt_vocab,
                           const std::vector<std::pair<std::string, std::string>>& model_files,
                           int64_t resume_step) {
  fs::create_directories(paths_.dir);
  // The lock is held from here to the end; no sweep below ever removes it.
  lock_ = std::make_unique<util::FileLock>(paths_.lock(), "run_dir " + paths_.dir);
  // Under the lock: a training that started meanwhile may have written here.
  if (!options_.resume) check_new_run();
  auto log = util::logger("train");
  sweep_temporaries();  // while the manifest still lists the files they belong to
  if (options_.overwrite && run::inspect_run_dir(paths_.dir) == run::RunDirKind::kRun) {
    const int removed = run::remove_owned_files(paths_.dir);
    log->info("--overwrite: removed {} files of the previous run in {}", removed, paths_.dir);
  } else {
    run::mark_run_dir(paths_.dir);  // the mark first, before any other file of the run
  }
  fs::create_directories(paths_.checkpoints());
  if (options_.resume) {
    fs::remove(paths_.checkpoint("pending"));  // never confirmed by a later step
    truncate_metrics(paths_.metrics(), resume_step);
  } else {
    src_vocab.save(paths_.src_vocab());
    tgt_vocab.save(paths_.tgt_vocab());
    for (const auto& [path, bytes] : model_files) {
      util::write_file_atomic(path, bytes);
      record({path});
    }
  }
  config::save_config(config, paths_.config());
  record({paths_.config(), paths_.src_vocab(), paths_.tgt_vocab(), paths_.lock(), paths_.metrics(),
          paths_.log()});
  util::add_log_file(paths_.log());
}

void TrainingRunDir::sweep_temporaries() const {
  const auto owned = run::owned_files(paths_.dir);
  for (const std::string sub : {"", "checkpoints/"}) {
    const auto dir = sub.empty() ? paths_.dir : paths_.checkpoints();
    const int stale = util::remove_stale_temp_files(
        dir, [&](const std::string& name) { return run::is_owned_temp(owned, sub + name); });
    if (stale > 0) {
      util::logger("train")->info("removed {} temporary files left by a killed process in {}",
                                  stale, dir);
    }
  }
}

void TrainingRunDir::record(const std::vector<std::string>& files) const {
  std::vector<std::string> relative;
  for (const auto& f : files) relative.push_back(paths_.relative(f));
  run::record_files(paths_.dir, relative);
}

void truncate_metrics(const std::string& path, int64_t step) {
  if (!fs::exists(path)) return;
  std::ifstream in(path);
  std::string kept, line;
  while (std::getline(in, line)) {
    const auto event = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
    const bool later = event.is_object() && event.contains("step") && event["step"].is_number() &&
                       event["step"].get<int64_t>() > step;
    if (!later) kept += line + "\n";
  }
  util::write_file_atomic(path, kept);
}

}  // namespace s2s::train
