#include "run/run_dir.h"

#include "config/json_io.h"

namespace s2s::run {

std::string model_signature(const config::ModelConfig& model, int64_t src_vocab_size,
                            int64_t tgt_vocab_size, bool learned_baseline) {
  config::Config c;
  c.model = model;
  nlohmann::json j = config::config_to_json(c)["model"];
  // Named only when not the default, so that checkpoints from before the keys still fit.
  if (!model.decoder.tie_embeddings) j["decoder"].erase("tie_embeddings");
  auto& attention = j["attention"];
  if (model.attention.normalizer == "softmax") attention.erase("normalizer");
  if (!model.attention.coverage) attention.erase("coverage");
  if (model.attention.local == "none") {
    attention.erase("local");
    attention.erase("window");  // read by local attention only
  }
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
  spec.max_line_bytes = static_cast<std::size_t>(d.max_line_bytes);
  return spec;
}

}  // namespace s2s::run
