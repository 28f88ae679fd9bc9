#include "train/training_run_dir.h"

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "config/json_io.h"
#include "run/manifest.h"
#include "util/error.h"
#include "util/fs.h"
#include "util/logging.h"
#include "util/strings.h"

namespace s2s::train {
namespace {

namespace fs = std::filesystem;

}  // namespace

TrainingRunDir::TrainingRunDir(const config::Config& config, const TrainOptions& options)
    : paths_(config.run_dir), options_(options) {
  if (options.resume && options.overwrite) {
    throw UserError("--resume and --overwrite exclude each other: continue the run, or start over");
  }
  if (run::inspect_run_dir(paths_.dir) == run::RunDirKind::kNotDirectory) {
    throw UserError("run_dir " + paths_.dir + ": exists and is not a directory");
  }
  if (options.resume) {
    check_resume(config);
  } else {
    check_new_run();
  }
}

void TrainingRunDir::check_new_run() const {
  const auto kind = run::inspect_run_dir(paths_.dir);
  if (kind == run::RunDirKind::kMissing || kind == run::RunDirKind::kEmpty) return;
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
  lock_ = std::make_unique<util::FileLock>(paths_.lock(), "run_dir " + paths_.dir);
  // Under the lock: a training that started meanwhile may have written here.
  if (!options_.resume) check_new_run();
  auto log = util::logger("train");
  if (options_.overwrite) {
    const int removed = run::remove_owned_files(paths_.dir);
    log->info("--overwrite: removed {} files of the previous run in {}", removed, paths_.dir);
  }
  fs::create_directories(paths_.checkpoints());
  for (const auto& dir : {paths_.dir, paths_.checkpoints()}) {
    if (const int stale = util::remove_stale_temp_files(dir)) {
      log->info("removed {} temporary files left by a killed process in {}", stale, dir);
    }
  }
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
