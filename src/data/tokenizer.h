#pragma once
// Tokenizers turn one raw sentence into tokens and tokens back into text. They are
// interchangeable parts chosen by name in the config, so they live behind one registry
// (make_tokenizer) that lists the valid names when given an unknown one.

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace s2s::data {

struct TokenizerOptions {
  bool lowercase = false;  // lower-case (Python's str.lower()) before splitting
  // "sentencepiece" only: a .model file's bytes, and where they came from (for errors).
  std::string model;
  std::string model_origin;
};

class Tokenizer {
 public:
  virtual ~Tokenizer() = default;

  // `line` must be valid UTF-8 (read_lines validates files); invalid input throws InputError.
  virtual std::vector<std::string> tokenize(std::string_view line) const = 0;
  virtual std::string detokenize(const std::vector<std::string>& tokens) const = 0;
  // The registry name ("sentencepiece", "whitespace", "word").
  virtual std::string name() const = 0;
  // Subword pieces from a model (trained or given): the run directory keeps the model, and
  // attention over pieces is shown over words (eval/pieces.h).
  virtual bool has_pieces() const { return false; }
};

// Splits on Unicode whitespace: for corpora that are already tokenized.
class WhitespaceTokenizer : public Tokenizer {
 public:
  explicit WhitespaceTokenizer(TokenizerOptions options = {});
  std::vector<std::string> tokenize(std::string_view line) const override;
  // Joins with single spaces.
  std::string detokenize(const std::vector<std::string>& tokens) const override;
  std::string name() const override;

 private:
  TokenizerOptions options_;
};

// Unicode-aware word/punctuation splitter for raw text:
//  1. whitespace separates tokens;
//  2. a token is a maximal run of word characters (letters L*, marks M*, numbers N*); a '-'
//     between two word characters stays inside ("vingt-deux"), and a '.' or ',' between two
//     numbers stays inside ("3.5", "1,000");
//  3. an apostrophe (U+0027 or U+2019) between two letters ends the token and stays at its end
//     ("l'homme" -> "l'" "homme");
//  4. every other character (punctuation, symbols, '_', a lone apostrophe) is its own token.
// detokenize() inverts this for text written in canonical form (see tokenizer.cpp).
class WordTokenizer : public Tokenizer {
 public:
  explicit WordTokenizer(TokenizerOptions options = {});
  std::vector<std::string> tokenize(std::string_view line) const override;
  std::string detokenize(const std::vector<std::string>& tokens) const override;
  std::string name() const override;

 private:
  TokenizerOptions options_;
};

// Throws InputError "tokenizer input: invalid UTF-8 at byte N" (1-based) unless `line` is
// valid UTF-8.
void check_utf8(std::string_view line);

// The registry: throws ConfigError naming the valid tokenizers if `name` is unknown, and
// InputError if "sentencepiece" is given no model or a corrupt one.
std::unique_ptr<Tokenizer> make_tokenizer(const std::string& name,
                                          const TokenizerOptions& options = {});
std::vector<std::string> tokenizer_names();
// Whether the tokenizer `name` of the registry has pieces (Tokenizer::has_pieces), before one is
// built; false for unknown names.
bool tokenizer_has_pieces(const std::string& name);

}  // namespace s2s::data
