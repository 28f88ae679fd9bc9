#pragma once
// sacreBLEU's tokenizers, reproduced exactly (sacreBLEU 2.6.0, sacrebleu/tokenizers/):
//   13a   mteval-v13a.pl as WMT uses it (sacreBLEU's default): unescapes &quot; &amp; &lt; &gt;,
//         splits off ASCII punctuation and symbols, and periods/commas not inside numbers;
//   intl  mteval-v14.pl --international-tokenization: splits Unicode punctuation (\p{P}) not
//         between digits and every symbol (\p{S});
//   char  every non-space character is a token;
//   none  the line as it is.
// All work on code points, as Python does; regular expressions are emulated with re.sub's
// semantics (non-overlapping matches, left to right). 13a and intl end with
// ' '.join(line.split()), Python's Unicode whitespace deciding what a space is; char returns
// ' '.join(line) (spaces included, as sacreBLEU does: BLEU's split() drops them later).

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace s2s::metrics {

// One of sacreBLEU's tokenizers. Stateless; safe to share between threads.
class SacreTokenizer {
 public:
  virtual ~SacreTokenizer() = default;

  // The name sacreBLEU writes in its signature (`tok:13a`).
  virtual std::string name() const = 0;

  // Tokenizes one line (no trailing newline expected, as sacreBLEU's callers strip it).
  virtual std::u32string tokenize(std::u32string_view line) const = 0;

  // UTF-8 in, UTF-8 out; throws std::invalid_argument on invalid UTF-8.
  std::string tokenize_utf8(std::string_view line) const;
};

// The registry (sacre_tokenizer_names lists it). An unknown name throws s2s::ConfigError that
// lists the valid ones.
std::unique_ptr<SacreTokenizer> make_sacre_tokenizer(const std::string& name);

// The valid names, in the order sacreBLEU lists them.
const std::vector<std::string>& sacre_tokenizer_names();

// ' '.join(s.split()): drops leading and trailing whitespace and collapses inner runs of it into
// one space, with Python's str.isspace() deciding what whitespace is.
std::u32string normalize_spaces(std::u32string_view s);

}  // namespace s2s::metrics
