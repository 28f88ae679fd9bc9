#include "run/tokenizers.h"

#include <chrono>

#include "data/sentencepiece.h"
#include "run/run_dir.h"
#include "util/logging.h"
#include "util/unicode.h"

namespace s2s::run {
namespace {

bool uses_sentencepiece(const config::DataConfig& data) {
  return data::tokenizer_has_pieces(data.tokenizer);
}

std::unique_ptr<data::Tokenizer> make(const config::DataConfig& data, std::string model = "",
                                      std::string origin = "") {
  data::TokenizerOptions options;
  options.lowercase = data.lowercase;
  options.model = std::move(model);
  options.model_origin = std::move(origin);
  return data::make_tokenizer(data.tokenizer, options);
}

// A model trained on one side's (or both sides') raw training sentences, in memory.
std::string train_model(const config::DataConfig& data,
                        const std::vector<data::SentencePair>& train, bool src, bool tgt,
                        int64_t seed, const std::string& what) {
  const auto start = std::chrono::steady_clock::now();
  std::vector<std::string> sentences;
  sentences.reserve(train.size() * 2);
  for (const auto& pair : train) {
    if (src) sentences.push_back(pair.src);
    if (tgt) sentences.push_back(pair.tgt);
  }
  const auto& sp = data.sentencepiece;
  data::SentencePieceOptions options;
  options.vocab_size = sp.vocab_size;
  options.model_type = sp.model_type;
  options.character_coverage = sp.character_coverage;
  options.input_sentence_size = sp.input_sentence_size;
  options.seed = static_cast<uint32_t>(seed);
  // Lower-casing happens before the pieces, so the model learns lower-cased text.
  if (data.lowercase) {
    for (auto& s : sentences) s = util::to_lower(s);
  }
  auto model = data::train_sentencepiece(sentences, options);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  util::logger("data")->info(
      "sentencepiece: trained a {} {} model of {} pieces on {} sentences "
      "in {:.1f} s",
      what, sp.model_type, sp.vocab_size, sentences.size(), seconds);
  return model;
}

}  // namespace

std::string sentencepiece_model_path(const config::DataConfig& data, const RunPaths& paths,
                                     const std::string& side) {
  return data.sentencepiece.joint ? paths.dir + "/sentencepiece.model"
                                  : paths.dir + "/" + side + ".sentencepiece.model";
}

Tokenizers training_tokenizers(const config::DataConfig& data, int64_t seed) {
  if (!uses_sentencepiece(data)) return {make(data), make(data)};
  const auto& sp = data.sentencepiece;
  if (!sp.model.empty()) {
    const auto model = data::read_sentencepiece_model(sp.model);
    util::logger("data")->info("sentencepiece: the model {}", sp.model);
    return {make(data, model, sp.model), make(data, model, sp.model)};
  }
  return training_tokenizers(data, seed, data::read_corpus(corpus_spec(data, data.train)));
}

Tokenizers training_tokenizers(const config::DataConfig& data, int64_t seed,
                               const std::vector<data::SentencePair>& train) {
  if (!uses_sentencepiece(data) || !data.sentencepiece.model.empty()) {
    return training_tokenizers(data, seed);
  }
  if (data.sentencepiece.joint) {
    const auto model = train_model(data, train, true, true, seed, "joint");
    return {make(data, model, "the trained model"), make(data, model, "the trained model")};
  }
  return {make(data, train_model(data, train, true, false, seed, "source"), "the source model"),
          make(data, train_model(data, train, false, true, seed, "target"), "the target model")};
}

Tokenizers run_tokenizers(const config::DataConfig& data, const RunPaths& paths) {
  if (!uses_sentencepiece(data)) return {make(data), make(data)};
  const auto load = [&](const std::string& side) {
    const auto path = sentencepiece_model_path(data, paths, side);
    return make(data, data::read_sentencepiece_model(path), path);
  };
  return {load("src"), load("tgt")};
}

bool vocab_from_pieces(const data::Tokenizer& tokenizer, data::Vocab* vocab) {
  const auto* sp = dynamic_cast<const data::SentencePieceTokenizer*>(&tokenizer);
  if (sp == nullptr) return false;
  *vocab = data::Vocab::from_tokens(sp->pieces());
  return true;
}

std::vector<std::pair<std::string, std::string>> tokenizer_files(const config::DataConfig& data,
                                                                 const data::Tokenizer& src,
                                                                 const data::Tokenizer& tgt,
                                                                 const RunPaths& paths) {
  if (!uses_sentencepiece(data)) return {};
  const auto bytes = [](const data::Tokenizer& t) {
    return dynamic_cast<const data::SentencePieceTokenizer&>(t).model();
  };
  if (data.sentencepiece.joint) {
    return {{sentencepiece_model_path(data, paths, "src"), bytes(src)}};
  }
  return {{sentencepiece_model_path(data, paths, "src"), bytes(src)},
          {sentencepiece_model_path(data, paths, "tgt"), bytes(tgt)}};
}

}  // namespace s2s::run
