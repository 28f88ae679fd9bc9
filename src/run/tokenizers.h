#pragma once
// The tokenizers of a config, the same for training, evaluation and translation. Word and
// whitespace tokenizers come from the config alone; SentencePiece models are trained on the
// training split when a training starts (or read from data.sentencepiece.model), kept in the
// run directory, and read from there by every later command.

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "config/config.h"
#include "data/corpus.h"
#include "data/tokenizer.h"
#include "data/vocab.h"

namespace s2s::run {

struct RunPaths;

struct Tokenizers {
  std::unique_ptr<data::Tokenizer> src, tgt;
};

// The SentencePiece model file of one side ("src" or "tgt") in a run directory: one file for
// a joint model, one per language otherwise.
std::string sentencepiece_model_path(const config::DataConfig& data, const RunPaths& paths,
                                     const std::string& side);

// For a new training: SentencePiece models read from data.sentencepiece.model, or trained on
// the raw training split (read here, only then); word and whitespace tokenizers as
// configured. Writes nothing.
Tokenizers training_tokenizers(const config::DataConfig& data, int64_t seed);
// The same with SentencePiece models trained on `train` (a sample of the training split).
Tokenizers training_tokenizers(const config::DataConfig& data, int64_t seed,
                               const std::vector<data::SentencePair>& train);

// For a run directory (evaluate, translate, attention, --resume).
Tokenizers run_tokenizers(const config::DataConfig& data, const RunPaths& paths);

// SentencePiece: the vocabulary of a side is its model's pieces (data.*_min_freq and
// data.*_max_vocab do not apply); sets `vocab` and returns true. False for other tokenizers.
bool vocab_from_pieces(const data::Tokenizer& tokenizer, data::Vocab* vocab);

// The model files a new run directory keeps: {path, bytes} for each SentencePiece model.
std::vector<std::pair<std::string, std::string>> tokenizer_files(const config::DataConfig& data,
                                                                 const data::Tokenizer& src,
                                                                 const data::Tokenizer& tgt,
                                                                 const RunPaths& paths);

}  // namespace s2s::run
