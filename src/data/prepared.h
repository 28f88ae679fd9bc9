#pragma once
// A prepared corpus: a training split tokenized once into token ids, written in a binary format
// of its own and read back through mmap, so that a corpus larger than memory trains in bounded
// memory and every process of a distributed training maps the same files (fairseq's binarized
// datasets, the same idea). `s2s prepare` and `train` with data.prepared write it
// (run/prepare.h); this file is the format.
//
// A directory holds one prepared corpus:
//   header.json  format name and version, counts, id width, the vocabularies' and the
//                tokenizers' digests and settings, the source files' digests, and a content
//                hash of the three binary files
//   src.bin      source ids of every pair back to back, without </s>: uint16 little-endian
//                where the vocabulary has at most 65,536 entries, else int32
//   tgt.bin      target ids the same way, without <s> and </s>
//   index.bin    uint64 little-endian: src_offsets[n + 1], tgt_offsets[n + 1] (in tokens: pair
//                i is ids [offsets[i], offsets[i + 1])), lines[n] (the pair's 1-based line in
//                the source files)
//
// Opening checks what it can without reading the corpus into memory: the header's format and
// version, the files' sizes against its counts, the content hash (read with read(), not through
// the mapping, so the pages it reads are not held), the offsets' order and the ids' range. A
// truncated, corrupt or foreign corpus is an InputError naming the file.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace s2s::data {

inline constexpr const char* kPreparedFormat = "s2s-prepared-corpus";
inline constexpr int kPreparedVersion = 1;

// Writes a prepared corpus pair by pair. The ids are final (the vocabularies are known) and the
// files go to `dir` + ".tmp.<pid>", renamed to `dir` by finish() once complete and synced: a
// crash or a full disk never leaves a half-written corpus under `dir`. `dir` must not exist.
class PreparedWriter {
 public:
  PreparedWriter(std::string dir, int64_t src_vocab_size, int64_t tgt_vocab_size);
  ~PreparedWriter();  // removes the temporary directory unless finish() succeeded
  PreparedWriter(const PreparedWriter&) = delete;
  PreparedWriter& operator=(const PreparedWriter&) = delete;

  void add(std::size_t line, const std::vector<int64_t>& src, const std::vector<int64_t>& tgt);
  std::size_t size() const { return pairs_; }
  // Where the files are written until finish(): the caller adds its own (vocabularies).
  const std::string& temp_dir() const { return tmp_; }

  // Adds the counts, id width and content hash to `header` (the caller's settings, digests and
  // statistics), writes header.json and renames the directory into place. Returns the header.
  nlohmann::json finish(nlohmann::json header);

 private:
  struct Side;
  std::string dir_, tmp_;
  int64_t vocab_sizes_[2];
  // The ids of each side, and the three arrays of the index, each in a file of its own until
  // finish() joins the arrays: memory holds a buffer, however large the corpus.
  std::unique_ptr<Side> src_, tgt_, src_offsets_, tgt_offsets_, lines_;
  std::size_t pairs_ = 0;
  bool finished_ = false;
};

// A prepared corpus opened read-only and mapped.
class PreparedCorpus {
 public:
  // Checks and maps `dir` (see above). Throws InputError naming the file on any mismatch.
  explicit PreparedCorpus(const std::string& dir);
  ~PreparedCorpus();
  PreparedCorpus(const PreparedCorpus&) = delete;
  PreparedCorpus& operator=(const PreparedCorpus&) = delete;

  std::size_t size() const { return size_; }
  const nlohmann::json& header() const { return header_; }
  const std::string& dir() const { return dir_; }
  // The content hash in the header (16 hex digits): what a run's manifest records.
  std::string content_hash() const;

  // Tokens of pair i, without specials.
  int64_t src_length(std::size_t i) const { return offset(0, i + 1) - offset(0, i); }
  int64_t tgt_length(std::size_t i) const { return offset(1, i + 1) - offset(1, i); }
  std::size_t line(std::size_t i) const;
  // Appends pair i's ids to `out` as int64.
  void append_src(std::size_t i, std::vector<int64_t>* out) const;
  void append_tgt(std::size_t i, std::vector<int64_t>* out) const;

  // Tells the kernel that the pages of pairs [first, last) are not needed soon, so that they
  // leave this process's resident memory (a pass over the lengths of a whole epoch holds none).
  void release(std::size_t first, std::size_t last) const;

 private:
  struct Mapping;
  int64_t offset(int side, std::size_t i) const;
  void append(int side, std::size_t i, std::vector<int64_t>* out) const;

  std::string dir_;
  nlohmann::json header_;
  std::size_t size_ = 0;
  int ids_bytes_[2] = {2, 2};
  std::unique_ptr<Mapping> index_, ids_[2];
};

}  // namespace s2s::data
