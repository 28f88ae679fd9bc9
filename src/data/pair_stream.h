#pragma once
// A corpus read a pair at a time, for preparing corpora larger than memory (run/prepare.h):
// the same checks and messages as read_lines, read_tsv and read_parallel (data/corpus.h), and
// the same pairs, holding one line of each file at a time.

#include <cstddef>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "data/corpus.h"

namespace s2s::data {

// The lines of one text file: one BOM stripped, CR before LF dropped, each line checked
// (check_text_line).
class TextLines {
 public:
  TextLines(std::string path, std::size_t max_line_bytes);
  ~TextLines();
  TextLines(const TextLines&) = delete;
  TextLines& operator=(const TextLines&) = delete;

  bool next(std::string* line);                   // false at the end of the file
  std::size_t number() const { return number_; }  // of the line last read
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::size_t max_line_bytes_;
  std::FILE* file_ = nullptr;
  char* buffer_ = nullptr;
  std::size_t capacity_ = 0;
  std::size_t number_ = 0;
};

class PairStream {
 public:
  explicit PairStream(const CorpusSpec& spec);
  // The next pair, false at the end. Blank lines at the end of the files are dropped, as
  // read_lines drops them; parallel files of other lengths are an InputError, found when the
  // shorter one ends.
  bool next(SentencePair* pair);
  std::size_t pairs_read() const { return read_; }

 private:
  bool next_parallel(SentencePair* pair, bool* blank);
  bool next_tsv(SentencePair* pair, bool* blank);

  CorpusSpec spec_;
  std::unique_ptr<TextLines> src_, tgt_;  // tgt_ unused for TSV
  // Pairs whose lines are all blank, then the pair that showed they are not the end; handed
  // out from ready_.
  std::vector<SentencePair> held_;
  std::size_t ready_ = 0;
  std::size_t last_src_ = 0, last_tgt_ = 0;  // the last line that is not blank, in each file
  std::size_t read_ = 0;
  bool ended_ = false;
};

}  // namespace s2s::data
