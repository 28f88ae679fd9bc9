#include "data/line_stream.h"

#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <utility>

#include "util/error.h"

namespace s2s::data {
namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

// Drops a UTF-8 character that a byte cut left incomplete at the end of `text`.
void trim_partial_character(std::string& text) {
  std::size_t lead = text.size();
  while (lead > 0 && (static_cast<unsigned char>(text[lead - 1]) & 0xC0) == 0x80) --lead;
  if (lead == 0) return;
  const auto c = static_cast<unsigned char>(text[lead - 1]);
  if (c < 0xC0) return;  // ASCII: complete
  const std::size_t need = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
  if (text.size() - (lead - 1) < need) text.resize(lead - 1);
}

}  // namespace

void LineAssembler::feed(const char* data, std::size_t size, std::vector<StreamLine>& out) {
  for (std::size_t i = 0; i < size; ++i) {
    const char c = data[i];
    if (c == '\n') {
      end_line(out);
      continue;
    }
    ++line_.bytes;
    const bool space = is_space(c);
    if (!space && !in_word_) ++line_.words;
    in_word_ = !space;
    if (line_.cut) continue;
    if (line_.words > limits_.max_words || line_.text.size() >= limits_.max_bytes) {
      line_.cut = true;  // from here on, bytes are only counted
      continue;
    }
    line_.text.push_back(c);
  }
}

void LineAssembler::finish(std::vector<StreamLine>& out) {
  if (line_.bytes > 0) end_line(out);
}

void LineAssembler::end_line(std::vector<StreamLine>& out) {
  if (line_.cut) {
    trim_partial_character(line_.text);
  } else if (!line_.text.empty() && line_.text.back() == '\r') {
    line_.text.pop_back();  // CRLF
    --line_.bytes;
  }
  out.push_back(std::move(line_));
  line_ = StreamLine{};
  in_word_ = false;
}

std::vector<StreamLine> LineBatches::next(std::size_t max, int64_t wait_ms,
                                          const std::string& name) {
  std::vector<StreamLine> lines;
  take(lines, max);
  while (lines.empty() && !eof_) {
    read_some(-1, name);
    take(lines, max);
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(wait_ms);
  while (lines.size() < max && !eof_) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                          deadline - std::chrono::steady_clock::now())
                          .count();
    if (left <= 0 || !read_some(static_cast<int>(left), name)) break;
    take(lines, max);
  }
  return lines;
}

bool LineBatches::read_some(int timeout_ms, const std::string& name) {
  pollfd p{fd_, POLLIN, 0};
  const int ready = ::poll(&p, 1, timeout_ms);
  if (ready <= 0) return false;  // a timeout, or EINTR: the caller decides whether to wait on
  char chunk[1 << 16];
  const ssize_t n = ::read(fd_, chunk, sizeof chunk);
  if (n < 0) {
    if (errno == EINTR || errno == EAGAIN) return false;
    throw InputError(name + ": read error (" + std::strerror(errno) + ")");
  }
  if (n == 0) {
    eof_ = true;
    assembler_.finish(ready_);
    return false;
  }
  assembler_.feed(chunk, static_cast<std::size_t>(n), ready_);
  return true;
}

void LineBatches::take(std::vector<StreamLine>& lines, std::size_t max) {
  while (lines.size() < max && next_ < ready_.size()) lines.push_back(std::move(ready_[next_++]));
  if (next_ == ready_.size()) {
    ready_.clear();
    next_ = 0;
  }
}

}  // namespace s2s::data
