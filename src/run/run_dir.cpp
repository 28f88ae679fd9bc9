#include "run/run_dir.h"

#include <filesystem>

#include "config/json_io.h"
#include "model/build_model.h"
#include "run/checkpoint.h"
#include "run/device.h"
#include "run/tokenizers.h"
#include "util/error.h"
#include "util/logging.h"

namespace s2s::run {

std::string model_signature(const config::ModelConfig& model, int64_t src_vocab_size,
                            int64_t tgt_vocab_size, bool learned_baseline) {
  config::Config c;
  c.model = model;
  nlohmann::json j = config::config_to_json(c)["model"];
  // Named only when on, so that checkpoints from before the key still fit.
  if (!model.decoder.tie_embeddings) j["decoder"].erase("tie_embeddings");
  j["src_vocab_size"] = src_vocab_size;
  j["tgt_vocab_size"] = tgt_vocab_size;
  if (learned_baseline) j["learned_baseline"] = true;
  return j.dump();
}

data::CorpusSpec corpus_spec(const config::DataConfig& d, const std::string& path) {
  data::CorpusSpec spec;
  spec.format = d.format;
  spec.path = path;
  spec.src_ext = d.src_ext;
  spec.tgt_ext = d.tgt_ext;
  return spec;
}

std::string run_signature(const LoadedRun& run) {
  return model_signature(
      run.config.model, run.src_vocab.size(), run.tgt_vocab.size(),
      model::has_learned_baseline(run.config.model, run.config.training.reinforce));
}

LoadedRun load_run(const std::string& run_dir, const std::string& checkpoint) {
  const RunPaths paths(run_dir);
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
  auto tokenizers = run_tokenizers(run.config.data, paths);
  run.src_tokenizer = std::move(tokenizers.src);
  run.tgt_tokenizer = std::move(tokenizers.tgt);
  run.device = resolve_device(run.config.device);
  run.precision =
      choose_precision(run.config.evaluation.precision, detect_capabilities(run.device));
  util::logger("eval")->debug("decoding in {}", run.precision.description);
  set_threads(run.config.training.threads);
  const auto& reinforce = run.config.training.reinforce;
  run.model =
      model::build_model(run.config.model, run.src_vocab.size(), run.tgt_vocab.size(), reinforce);
  load_checkpoint(paths.checkpoint(checkpoint), *run.model, /*optimizer=*/nullptr,
                  run_signature(run), paths.src_vocab() + ", " + paths.tgt_vocab());
  run.model->to(run.device);
  run.model->eval();
  return run;
}

}  // namespace s2s::run
