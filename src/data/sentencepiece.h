#pragma once
// Subword tokenization with SentencePiece (Kudo & Richardson 2018): a model of pieces trained
// on raw training text, unigram or BPE, with spaces kept as the piece prefix "▁". Models this
// program trains leave text as it is (no NFKC, spaces not collapsed), so that
// detokenize(tokenize(x)) == x exactly.
// The model travels as its serialized bytes: trained in memory at `train` start, checked and
// used before anything is written, then saved in the run directory as a .model file.

#include <cstdint>
#include <string>
#include <vector>

#include "data/tokenizer.h"

namespace s2s::data {

struct SentencePieceOptions {
  int64_t vocab_size = 8000;
  std::string model_type = "unigram";  // "unigram" or "bpe"
  double character_coverage = 1.0;
  int64_t input_sentence_size = 1000000;  // sample this many sentences (seeded); 0 = all
  uint32_t seed = 42;                     // of the sample and of training
};

// Trains a model on `sentences` (one raw sentence each; empty ones are skipped) and returns
// its serialized bytes. Deterministic: one thread, a fixed seed. Throws ConfigError naming
// data.sentencepiece.* when SentencePiece refuses the settings (e.g. a vocab_size too large
// for the corpus).
std::string train_sentencepiece(const std::vector<std::string>& sentences,
                                const SentencePieceOptions& options);

// The bytes of a .model file; InputError naming the file if it cannot be read.
std::string read_sentencepiece_model(const std::string& path);

class SentencePieceTokenizer : public Tokenizer {
 public:
  // `model` holds a .model file's bytes, `origin` names where they came from in errors
  // (InputError "ORIGIN: not a SentencePiece model" when they do not parse).
  SentencePieceTokenizer(std::string model, const std::string& origin,
                         TokenizerOptions options = {});
  ~SentencePieceTokenizer() override;
  SentencePieceTokenizer(const SentencePieceTokenizer&) = delete;
  SentencePieceTokenizer& operator=(const SentencePieceTokenizer&) = delete;

  // Pieces of `line` (lower-cased first if asked): "▁The", "▁cat", "s".
  std::vector<std::string> tokenize(std::string_view line) const override;
  // Joins the pieces and turns "▁" back into spaces; <unk> becomes " ⁇ " as in SentencePiece.
  std::string detokenize(const std::vector<std::string>& tokens) const override;
  std::string name() const override;
  bool has_pieces() const override { return true; }

  // The model's pieces in id order, without its own control and unknown pieces: the
  // vocabulary a run embeds.
  std::vector<std::string> pieces() const;
  const std::string& model() const { return model_; }

 private:
  std::string model_;
  bool lowercase_;
  void* processor_ = nullptr;  // the module's processor (data/sentencepiece_api.h)
};

}  // namespace s2s::data
