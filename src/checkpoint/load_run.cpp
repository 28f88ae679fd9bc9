#include "checkpoint/load_run.h"

#include <filesystem>

#include "checkpoint/checkpoint.h"
#include "config/json_io.h"
#include "device/device.h"
#include "model/build_model.h"
#include "run/run_dir.h"
#include "run/tokenizers.h"
#include "util/error.h"
#include "util/logging.h"

namespace s2s::checkpoint {

std::string run_signature(const LoadedRun& run) {
  return run::model_signature(
      run.config.model, run.src_vocab.size(), run.tgt_vocab.size(),
      model::has_learned_baseline(run.config.model, run.config.training.reinforce));
}

LoadedRun load_run(const std::string& run_dir, const std::string& checkpoint) {
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
  run.precision = device::choose_precision(run.config.evaluation.precision,
                                           device::detect_capabilities(run.device));
  util::logger("eval")->debug("decoding in {}", run.precision.description);
  device::set_threads(run.config.training.threads);
  const auto& reinforce = run.config.training.reinforce;
  run.model =
      model::build_model(run.config.model, run.src_vocab.size(), run.tgt_vocab.size(), reinforce);
  const Vocabularies vocabularies{run.src_vocab, run.tgt_vocab, paths.src_vocab(),
                                  paths.tgt_vocab()};
  load_checkpoint(paths.checkpoint(checkpoint), *run.model, /*optimizer=*/nullptr,
                  run_signature(run), &vocabularies);
  run.model->to(run.device);
  run.model->eval();
  return run;
}

}  // namespace s2s::checkpoint
