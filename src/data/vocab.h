#pragma once
// A vocabulary maps tokens to the integer ids the model embeds. Ids 0..3 are the specials
// <pad> <unk> <s> </s>; the rest are ordered by frequency, so a vocabulary built twice from
// the same corpus is identical, and its file (one token a line) is readable and diffable.

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace s2s::data {

struct VocabOptions {
  int64_t min_freq = 1;  // keep tokens seen at least this often (>= 1)
  int64_t max_size = 0;  // at most this many entries, specials included (0 = no limit, else >= 4)
};

class Vocab {
 public:
  static constexpr int64_t kPad = 0;
  static constexpr int64_t kUnk = 1;
  static constexpr int64_t kBos = 2;
  static constexpr int64_t kEos = 3;
  static constexpr int64_t kNumSpecials = 4;
  static constexpr const char* kSpecialTokens[kNumSpecials] = {"<pad>", "<unk>", "<s>", "</s>"};

  // Only the specials.
  Vocab();

  // Order: specials, then frequency descending, then token bytewise ascending (ties stay
  // deterministic). Throws ConfigError on bad options; literal special tokens are not counted.
  static Vocab build(const std::vector<std::vector<std::string>>& sentences,
                     const VocabOptions& options = {});
  // The same from counts already made (a streaming pass over a corpus too large to hold).
  static Vocab from_counts(const std::unordered_map<std::string, int64_t>& counts,
                           const VocabOptions& options = {});

  // The specials, then `tokens` in their order (a subword model's pieces): specials among them
  // are skipped; an empty token, one with ASCII whitespace or a line separator (U+0085, U+2028,
  // U+2029), or a duplicate is std::invalid_argument. Other Unicode spaces (U+00A0 ...) are
  // characters of a piece like any other.
  static Vocab from_tokens(const std::vector<std::string>& tokens);

  // Plain text, one token a line, written atomically (std::runtime_error if it cannot be).
  // load() rejects (InputError "PATH:LINE: ...") missing or misplaced specials, duplicates,
  // empty tokens and tokens containing ASCII whitespace or a line separator.
  void save(const std::string& path) const;
  static Vocab load(const std::string& path);

  int64_t id(const std::string& token) const;  // kUnk if absent
  const std::string& token(int64_t id) const;  // throws std::out_of_range
  int64_t size() const { return static_cast<int64_t>(tokens_.size()); }
  const std::vector<std::string>& tokens() const { return tokens_; }

  std::vector<int64_t> encode(const std::vector<std::string>& tokens, bool add_bos,
                              bool add_eos) const;
  // Stops at </s>; skips <pad> and <s>; keeps <unk> as the token "<unk>".
  std::vector<std::string> decode(const std::vector<int64_t>& ids) const;

 private:
  explicit Vocab(std::vector<std::string> tokens);

  std::vector<std::string> tokens_;
  std::unordered_map<std::string, int64_t> ids_;
};

}  // namespace s2s::data
