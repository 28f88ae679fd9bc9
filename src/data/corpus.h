#pragma once
// Corpus readers and the read -> tokenize -> filter steps the trainer runs on every split.
// Input problems are reported as InputError "PATH:LINE: what is wrong"; nothing is dropped
// silently (filtered pairs are counted and logged).

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "data/tokenizer.h"

namespace s2s::data {

// Reads a UTF-8 text file whole: strips one BOM, turns CRLF into LF, drops blank lines at the
// end of the file only, and rejects invalid UTF-8 and NUL bytes ("PATH:LINE: invalid UTF-8 at
// byte N", N the 1-based byte within the line), and a line longer than `max_line_bytes` (0: no
// bound) naming data.max_line_bytes. Missing or unreadable files throw InputError naming the path.
std::vector<std::string> read_lines(const std::string& path, std::size_t max_line_bytes = 0);

struct SentencePair {
  std::string src, tgt;
  std::size_t line = 0;  // 1-based line in the file(s) it came from
};

// The checks read_lines makes of line `number` of `path` (without its newline), each an
// InputError "PATH:LINE: ...".
void check_text_line(const std::string& path, std::size_t number, std::string_view line,
                     std::size_t max_line_bytes);
// Spaces and tabs only (or nothing): what read_lines drops at the end of a file.
bool is_blank_line(std::string_view line);
// Line `number` of a TSV file as a pair; an empty line is an empty pair; any other number of
// columns than two is an InputError naming the line.
SentencePair tsv_pair(const std::string& path, std::size_t number, const std::string& line);

// `source<TAB>target` per line; any other number of columns is an InputError naming the line
// (Tatoeba/manythings files carry a third attribution column: cut -f1,2 drops it). An empty
// line yields an empty pair, which filtering then counts.
std::vector<SentencePair> read_tsv(const std::string& path, std::size_t max_line_bytes = 0);

// Line i of `src_path` pairs with line i of `tgt_path`; differing line counts throw.
std::vector<SentencePair> read_parallel(const std::string& src_path, const std::string& tgt_path,
                                        std::size_t max_line_bytes = 0);

struct CorpusSpec {
  std::string format = "parallel";  // data.format: "tsv" | "parallel" (config/choices.h)
  std::string path;                 // the tsv file, or the prefix of the parallel files
  std::string src_ext, tgt_ext;     // parallel only: files are path + "." + ext
  std::size_t max_line_bytes = 0;   // data.max_line_bytes; 0: no bound
};

// "data/train.tsv" or "data/train.{de,en}": how logs and errors name a corpus.
std::string describe(const CorpusSpec& spec);
// The files a corpus is read from: the TSV file, or the two parallel files.
std::vector<std::string> corpus_files(const CorpusSpec& spec);

// Dispatches on `spec.format` (ConfigError listing the valid ones); no pairs is an InputError.
std::vector<SentencePair> read_corpus(const CorpusSpec& spec);

struct TokenizedCorpus {
  std::vector<std::vector<std::string>> src, tgt;  // tokens, one vector per pair
  std::vector<std::size_t> lines;                  // 1-based line of each pair in its file(s)
  std::vector<std::string> tgt_raw;                // untokenized targets: the BLEU references
  std::size_t size() const { return src.size(); }
};

TokenizedCorpus tokenize_corpus(const std::vector<SentencePair>& pairs,
                                const Tokenizer& src_tokenizer, const Tokenizer& tgt_tokenizer);

struct FilterStats {
  std::size_t kept = 0, too_long = 0, empty = 0;
};

// What filtering does with a pair of these token counts: an empty side is dropped as empty, a
// side longer than `max_len` (0 = no limit) as too long.
enum class FilterVerdict { kKeep, kEmpty, kTooLong };
FilterVerdict classify_pair(std::size_t src_tokens, std::size_t tgt_tokens, int64_t max_len);

// Indices of the pairs to keep: a pair with an empty side is dropped as `empty`, one with a
// side longer than `max_len` tokens (0 = no limit) as `too_long`. Fills `stats`.
std::vector<std::size_t> filter_pairs(const std::vector<std::vector<std::string>>& src,
                                      const std::vector<std::vector<std::string>>& tgt,
                                      int64_t max_len, FilterStats* stats);

// The pairs of `corpus` at `indices`, in that order.
TokenizedCorpus select_pairs(const TokenizedCorpus& corpus,
                             const std::vector<std::size_t>& indices);

// Logs "[data] train: 29000 pairs read from X and tokenized in 0.4 s, 12 filtered (too long >
// 50), 0 empty" (the seconds: reading and tokenizing, part of the start-up time).
void log_corpus_stats(const std::string& split, const std::string& source, std::size_t n_read,
                      double seconds, const FilterStats& stats, int64_t max_len);

// read_corpus -> tokenize_corpus -> filter_pairs -> select_pairs, logged under `split` ("train").
// Throws InputError if filtering leaves no pair.
TokenizedCorpus load_corpus(const std::string& split, const CorpusSpec& spec,
                            const Tokenizer& src_tokenizer, const Tokenizer& tgt_tokenizer,
                            int64_t max_len);

}  // namespace s2s::data
