#pragma once
// Lines of a stream (`s2s translate`'s stdin), in batches as they arrive, each cut while it is
// read: a line keeps at most `max_words` whitespace-separated words and `max_bytes` bytes, and
// the rest of it is counted and dropped before it is stored. A 20 MB line then costs the bytes
// it keeps, not a 20 MB buffer and millions of tokens that decoding would cut anyway.
//
// Word and SentencePiece tokens never span whitespace, so keeping max_src_len + 1 words keeps
// every token decoding uses, and one more to show that the line was cut.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace s2s::data {

struct LineLimits {
  std::size_t max_words = 0;  // whitespace-separated words kept per line
  std::size_t max_bytes = 0;  // bytes kept per line (cut back to a whole UTF-8 character)
};

struct StreamLine {
  std::string text;       // the kept part, without the newline (and a final \r)
  std::size_t words = 0;  // words in the whole line, as read
  std::size_t bytes = 0;  // bytes in the whole line, without the newline
  bool cut = false;       // text is a prefix of the line
};

// Turns bytes into lines; the part of LineBatches that does not read.
class LineAssembler {
 public:
  explicit LineAssembler(LineLimits limits) : limits_(limits) {}
  // Appends the finished lines of `size` bytes at `data` to `out`.
  void feed(const char* data, std::size_t size, std::vector<StreamLine>& out);
  // The last line, if the stream ended without a newline.
  void finish(std::vector<StreamLine>& out);

 private:
  void end_line(std::vector<StreamLine>& out);
  LineLimits limits_;
  StreamLine line_;
  bool in_word_ = false;
};

class LineBatches {
 public:
  LineBatches(int fd, LineLimits limits) : fd_(fd), assembler_(limits) {}

  // The next lines: waits for the first, then takes those already there and those arriving
  // within `wait_ms`, up to `max`. Empty at the end of the input. A read error is an
  // InputError naming `name` ("stdin").
  std::vector<StreamLine> next(std::size_t max, int64_t wait_ms, const std::string& name);

 private:
  bool read_some(int timeout_ms, const std::string& name);  // false if nothing came
  void take(std::vector<StreamLine>& lines, std::size_t max);

  int fd_;
  LineAssembler assembler_;
  std::vector<StreamLine> ready_;  // complete lines not yet handed out
  std::size_t next_ = 0;           // the first of ready_ not handed out
  bool eof_ = false;
};

}  // namespace s2s::data
