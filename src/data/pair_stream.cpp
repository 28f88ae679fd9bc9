#include "data/pair_stream.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string_view>
#include <utility>

#include "util/error.h"

namespace s2s::data {

TextLines::TextLines(std::string path, std::size_t max_line_bytes)
    : path_(std::move(path)), max_line_bytes_(max_line_bytes) {
  std::error_code ec;
  if (std::filesystem::is_directory(path_, ec)) {
    throw InputError(path_ + ": is a directory, expected a text file");
  }
  file_ = std::fopen(path_.c_str(), "rb");
  if (file_ == nullptr) throw InputError(path_ + ": cannot open (" + std::strerror(errno) + ")");
}

TextLines::~TextLines() {
  if (file_ != nullptr) std::fclose(file_);
  std::free(buffer_);
}

bool TextLines::next(std::string* line) {
  errno = 0;
  const ssize_t n = ::getline(&buffer_, &capacity_, file_);
  if (n < 0) {
    if (std::ferror(file_)) throw InputError(path_ + ": read error (" + std::strerror(errno) + ")");
    return false;
  }
  std::string_view text(buffer_, static_cast<std::size_t>(n));
  if (!text.empty() && text.back() == '\n') text.remove_suffix(1);
  if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
  if (number_ == 0 && text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  ++number_;
  check_text_line(path_, number_, text, max_line_bytes_);
  line->assign(text);
  return true;
}

PairStream::PairStream(const CorpusSpec& spec) : spec_(spec) {
  const auto files = corpus_files(spec_);
  src_ = std::make_unique<TextLines>(files[0], spec_.max_line_bytes);
  if (files.size() > 1) tgt_ = std::make_unique<TextLines>(files[1], spec_.max_line_bytes);
}

bool PairStream::next(SentencePair* pair) {
  if (ready_ == held_.size()) {
    held_.clear();
    ready_ = 0;
    // Blank pairs are held until a pair that is not blank follows: else they end the files.
    for (bool blank = true; blank;) {
      SentencePair p;
      if (ended_ || !(tgt_ ? next_parallel(&p, &blank) : next_tsv(&p, &blank))) {
        ended_ = true;
        held_.clear();
        return false;
      }
      held_.push_back(std::move(p));
    }
  }
  *pair = std::move(held_[ready_]);
  // A held blank TSV line is checked now, as read_tsv checks it (an empty pair, or an error).
  if (!tgt_ && ready_ + 1 < held_.size()) *pair = tsv_pair(src_->path(), pair->line, pair->src);
  ++ready_;
  ++read_;
  return true;
}

bool PairStream::next_tsv(SentencePair* pair, bool* blank) {
  std::string line;
  if (!src_->next(&line)) return false;
  *blank = is_blank_line(line);
  // A blank line is checked once it is known not to be the end (see next()).
  *pair = *blank ? SentencePair{line, "", src_->number()}
                 : tsv_pair(src_->path(), src_->number(), line);
  return true;
}

bool PairStream::next_parallel(SentencePair* pair, bool* blank) {
  std::string src, tgt;
  const bool has_src = src_->next(&src), has_tgt = tgt_->next(&tgt);
  if (has_src && !is_blank_line(src)) last_src_ = src_->number();
  if (has_tgt && !is_blank_line(tgt)) last_tgt_ = tgt_->number();
  if (has_src && has_tgt) {
    *blank = is_blank_line(src) && is_blank_line(tgt);
    *pair = {std::move(src), std::move(tgt), src_->number()};
    return true;
  }
  // One file (or both) ended: the rest of the other counts only if it is not blank.
  std::string rest;
  TextLines& other = has_src ? *src_ : *tgt_;
  std::size_t& last = has_src ? last_src_ : last_tgt_;
  if (has_src || has_tgt) {
    while (other.next(&rest)) {
      if (!is_blank_line(rest)) last = other.number();
    }
  }
  if (last_src_ != last_tgt_) {
    throw InputError("parallel files differ in length: " + src_->path() + " has " +
                     std::to_string(last_src_) + " lines, " + tgt_->path() + " has " +
                     std::to_string(last_tgt_));
  }
  return false;
}

}  // namespace s2s::data
