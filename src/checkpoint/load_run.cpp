#include "checkpoint/load_run.h"

#include <filesystem>

#include "checkpoint/checkpoint.h"
#include "config/json_io.h"
#include "device/device.h"
#include "model/build_model.h"
#include "run/run_dir.h"
#include "run/tokenizers.h"
#include "util/error.h"
#include "util/fs.h"
#include "util/logging.h"

namespace s2s::checkpoint {
namespace {

// Config, vocabularies, tokenizers and device of a run directory: all but a model and the
// precision (load_ensemble's, for the first run only).
LoadedRun load_run_files(const std::string& run_dir) {
  const run::RunPaths paths(run_dir);
  if (!std::filesystem::is_directory(run_dir)) {
    throw InputError(run_dir + ": run directory not found");
  }
  if (!std::filesystem::is_regular_file(paths.config())) {
    throw InputError(run_dir + ": not a run directory (no config.json)");
  }
  LoadedRun run;
  run.config = config::load_config(paths.config());
  run.src_vocab = data::Vocab::load(paths.src_vocab());
  run.tgt_vocab = data::Vocab::load(paths.tgt_vocab());
  auto tokenizers = run::run_tokenizers(run.config.data, paths);
  run.src_tokenizer = std::move(tokenizers.src);
  run.tgt_tokenizer = std::move(tokenizers.tgt);
  run.device = device::resolve_device(run.config.device);
  return run;
}

// A model of `run`'s architecture (in `run_dir`) with the weights of checkpoints/<checkpoint>.pt,
// in eval mode on the device of `ensemble`; appended to ensemble.members.
void add_member(const LoadedRun& run, const std::string& run_dir, const std::string& checkpoint,
                LoadedRun& ensemble) {
  const run::RunPaths paths(run_dir);
  const auto& reinforce = run.config.training.reinforce;
  auto model =
      model::build_model(run.config.model, run.src_vocab.size(), run.tgt_vocab.size(), reinforce);
  const Vocabularies vocabularies{run.src_vocab, run.tgt_vocab, paths.src_vocab(),
                                  paths.tgt_vocab()};
  load_checkpoint(paths.checkpoint(checkpoint), *model, /*optimizer=*/nullptr, run_signature(run),
                  &vocabularies);
  model->to(ensemble.device);
  model->eval();
  ensemble.members.push_back(model);
  ensemble.member_names.push_back(paths.checkpoint(checkpoint));
}

// "" when the vocabularies saved at `a_path` and `b_path` are the same, else what differs.
std::string vocab_difference(const data::Vocab& a, const data::Vocab& b, const std::string& a_path,
                             const std::string& b_path) {
  if (a.size() != b.size()) {
    return a_path + " has " + std::to_string(a.size()) + " tokens, " + b_path + " " +
           std::to_string(b.size());
  }
  for (int64_t i = 0; i < a.size(); ++i) {
    if (a.token(i) != b.token(i)) {
      return "line " + std::to_string(i + 1) + " of " + a_path + " is '" + a.token(i) + "', of " +
             b_path + " '" + b.token(i) + "'";
    }
  }
  return "";
}

// What makes `b` (in `b_dir`) decode other tokens than `a` (in `a_dir`); "" when nothing does.
std::string tokenization_difference(const LoadedRun& a, const std::string& a_dir,
                                    const LoadedRun& b, const std::string& b_dir) {
  const auto &da = a.config.data, &db = b.config.data;
  if (da.tokenizer != db.tokenizer) {
    return "data.tokenizer is " + da.tokenizer + " in " + a_dir + ", " + db.tokenizer + " in " +
           b_dir;
  }
  if (da.lowercase != db.lowercase) {
    return std::string("data.lowercase is ") + (da.lowercase ? "true" : "false") + " in " + a_dir +
           ", " + (db.lowercase ? "true" : "false") + " in " + b_dir;
  }
  if (da.tokenizer == "sentencepiece") {
    for (const std::string side : {"src", "tgt"}) {
      const auto pa = run::sentencepiece_model_path(da, run::RunPaths(a_dir), side);
      const auto pb = run::sentencepiece_model_path(db, run::RunPaths(b_dir), side);
      if (util::read_file(pa) != util::read_file(pb)) {
        return "SentencePiece models differ: " + pa + " and " + pb;
      }
    }
  }
  const run::RunPaths pa(a_dir), pb(b_dir);
  for (const auto& d :
       {vocab_difference(a.src_vocab, b.src_vocab, pa.src_vocab(), pb.src_vocab()),
        vocab_difference(a.tgt_vocab, b.tgt_vocab, pa.tgt_vocab(), pb.tgt_vocab())}) {
    if (!d.empty()) return d;
  }
  return "";
}

}  // namespace

std::string run_signature(const LoadedRun& run) {
  return run::model_signature(
      run.config.model, run.src_vocab.size(), run.tgt_vocab.size(),
      model::has_learned_baseline(run.config.model, run.config.training.reinforce));
}

LoadedRun load_run(const std::string& run_dir, const std::string& checkpoint,
                   const std::string& precision) {
  return load_ensemble({run_dir}, {checkpoint}, precision);
}

std::string ensemble_difference(const std::string& a_dir, const std::string& b_dir) {
  return tokenization_difference(load_run_files(a_dir), a_dir, load_run_files(b_dir), b_dir);
}

LoadedRun load_ensemble(const std::vector<std::string>& run_dirs,
                        const std::vector<std::string>& checkpoints, const std::string& precision) {
  if (run_dirs.empty() || checkpoints.empty()) {
    throw InputError("an ensemble needs at least one run and one checkpoint");
  }
  LoadedRun run = load_run_files(run_dirs.front());
  const bool asked = !precision.empty();  // --precision, else the config's
  run.precision = device::choose_precision(asked ? precision : run.config.evaluation.precision,
                                           device::detect_capabilities(run.device),
                                           asked ? "--precision" : "evaluation.precision");
  util::logger("eval")->debug("decoding in {}", run.precision.description);
  device::set_threads(run.config.training.threads);
  for (const auto& checkpoint : checkpoints) add_member(run, run_dirs.front(), checkpoint, run);
  for (std::size_t r = 1; r < run_dirs.size(); ++r) {
    auto other = load_run_files(run_dirs[r]);
    const auto difference = tokenization_difference(run, run_dirs.front(), other, run_dirs[r]);
    if (!difference.empty()) {
      throw InputError("cannot ensemble " + run_dirs[r] + " with " + run_dirs.front() + ": " +
                       difference);
    }
    for (const auto& checkpoint : checkpoints) add_member(other, run_dirs[r], checkpoint, run);
  }
  run.model = run.members.front();
  if (run.members.size() > 1) {
    util::logger("eval")->info("ensemble of {} models", run.members.size());
  }
  return run;
}

}  // namespace s2s::checkpoint
