#include "data/prepared.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <limits>
#include <stdexcept>

#include "util/content_hash.h"
#include "util/error.h"
#include "util/fs.h"
#include "util/sha256.h"

namespace s2s::data {
namespace {

namespace fs = std::filesystem;

constexpr std::size_t kChunk = std::size_t{1} << 20;  // a multiple of every element's size

std::string os_error() { return std::strerror(errno); }

uint64_t read_le(const unsigned char* p, int bytes) {
  uint64_t v = 0;
  for (int b = bytes - 1; b >= 0; --b) v = (v << 8) | p[b];
  return v;
}

void write_le(std::vector<unsigned char>* out, uint64_t v, int bytes) {
  for (int b = 0; b < bytes; ++b) out->push_back(static_cast<unsigned char>(v >> (8 * b)));
}

int id_bytes_for(int64_t vocab_size) { return vocab_size <= 65536 ? 2 : 4; }

std::string refuse(const std::string& what) {
  return what + "; prepare it again (s2s prepare -c CONFIG --overwrite)";
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Writing

// One output file written through a buffer; a failed write names the file and the OS error.
struct PreparedWriter::Side {
  Side(std::string file_path, int element_bytes)
      : path(std::move(file_path)), bytes(element_bytes) {
    file = std::fopen(path.c_str(), "wb");
    if (file == nullptr) throw std::runtime_error(path + ": cannot create (" + os_error() + ")");
  }
  ~Side() {
    if (file != nullptr) std::fclose(file);
  }
  void put(uint64_t value) {
    write_le(&buffer, value, bytes);
    if (buffer.size() >= kChunk) flush();
  }
  void flush() {
    if (!buffer.empty() && std::fwrite(buffer.data(), 1, buffer.size(), file) != buffer.size()) {
      throw std::runtime_error(path + ": write failed (" + os_error() + ")");
    }
    buffer.clear();
  }
  void close() {
    flush();
    const bool failed = std::fflush(file) != 0 || ::fsync(fileno(file)) != 0;
    const int closed = std::fclose(file);
    file = nullptr;
    if (failed || closed != 0) {
      throw std::runtime_error(path + ": write failed (" + os_error() + ")");
    }
  }
  std::string path;
  int bytes;
  std::FILE* file = nullptr;
  std::vector<unsigned char> buffer;
  uint64_t count = 0;
};

PreparedWriter::PreparedWriter(std::string dir, int64_t src_vocab_size, int64_t tgt_vocab_size)
    : dir_(std::move(dir)),
      tmp_(util::temp_path(dir_)),
      vocab_sizes_{src_vocab_size, tgt_vocab_size} {
  std::error_code ec;
  if (fs::exists(dir_, ec)) throw std::runtime_error(dir_ + ": exists already");
  fs::remove_all(tmp_, ec);
  if (!fs::create_directories(tmp_, ec) && ec) {
    throw std::runtime_error(tmp_ + ": cannot create (" + ec.message() + ")");
  }
  try {
    src_ = std::make_unique<Side>(tmp_ + "/src.bin", id_bytes_for(src_vocab_size));
    tgt_ = std::make_unique<Side>(tmp_ + "/tgt.bin", id_bytes_for(tgt_vocab_size));
    src_offsets_ = std::make_unique<Side>(tmp_ + "/src_offsets.part", 8);
    tgt_offsets_ = std::make_unique<Side>(tmp_ + "/tgt_offsets.part", 8);
    lines_ = std::make_unique<Side>(tmp_ + "/lines.part", 8);
  } catch (...) {  // no destructor runs for an object whose constructor threw
    for (auto* side : {&src_, &tgt_, &src_offsets_, &tgt_offsets_, &lines_}) side->reset();
    fs::remove_all(tmp_, ec);
    throw;
  }
  src_offsets_->put(0);
  tgt_offsets_->put(0);
}

PreparedWriter::~PreparedWriter() {
  for (auto* side : {&src_, &tgt_, &src_offsets_, &tgt_offsets_, &lines_}) side->reset();
  if (!finished_) {
    std::error_code ec;
    fs::remove_all(tmp_, ec);
  }
}

void PreparedWriter::add(std::size_t line, const std::vector<int64_t>& src,
                         const std::vector<int64_t>& tgt) {
  for (const int64_t id : src) src_->put(static_cast<uint64_t>(id));
  for (const int64_t id : tgt) tgt_->put(static_cast<uint64_t>(id));
  src_->count += src.size();
  tgt_->count += tgt.size();
  src_offsets_->put(src_->count);
  tgt_offsets_->put(tgt_->count);
  lines_->put(line);
  ++pairs_;
}

namespace {

// Appends the file `from` to `to` and removes it.
void append_file(const std::string& from, std::FILE* to, const std::string& to_path) {
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(from.c_str(), "rb"), &std::fclose);
  if (!f) throw std::runtime_error(from + ": cannot open (" + os_error() + ")");
  std::vector<unsigned char> buffer(kChunk);
  std::size_t n = 0;
  while ((n = std::fread(buffer.data(), 1, buffer.size(), f.get())) > 0) {
    if (std::fwrite(buffer.data(), 1, n, to) != n) {
      throw std::runtime_error(to_path + ": write failed (" + os_error() + ")");
    }
  }
  if (std::ferror(f.get())) throw std::runtime_error(from + ": read error (" + os_error() + ")");
  std::error_code ec;
  fs::remove(from, ec);
}

}  // namespace

nlohmann::json PreparedWriter::finish(nlohmann::json header) {
  for (auto* side : {&src_, &tgt_, &src_offsets_, &tgt_offsets_, &lines_}) (*side)->close();
  {
    Side index(tmp_ + "/index.bin", 8);
    for (auto* part : {&src_offsets_, &tgt_offsets_, &lines_}) {
      append_file((*part)->path, index.file, index.path);
    }
    index.close();
  }
  const std::string index_hash = util::content_hash_of_file(tmp_ + "/index.bin");
  const std::string src_hash = util::content_hash_of_file(src_->path);
  const std::string tgt_hash = util::content_hash_of_file(tgt_->path);
  header["format"] = kPreparedFormat;
  header["version"] = kPreparedVersion;
  header["pairs"] = pairs_;
  header["src_tokens"] = src_->count;
  header["tgt_tokens"] = tgt_->count;
  header["src_vocab_size"] = vocab_sizes_[0];
  header["tgt_vocab_size"] = vocab_sizes_[1];
  header["src_id_bytes"] = src_->bytes;
  header["tgt_id_bytes"] = tgt_->bytes;
  header["files"] = {{"index.bin", index_hash}, {"src.bin", src_hash}, {"tgt.bin", tgt_hash}};
  header["content_hash"] = util::sha256_hex(index_hash + src_hash + tgt_hash).substr(0, 16);
  util::write_file_atomic(tmp_ + "/header.json", header.dump(1) + "\n");
  std::error_code ec;
  fs::rename(tmp_, dir_, ec);
  if (ec)
    throw std::runtime_error(dir_ + ": cannot move the prepared corpus into place (" +
                             ec.message() + ")");
  finished_ = true;
  return header;
}

// ---------------------------------------------------------------------------------------------
// Reading

struct PreparedCorpus::Mapping {
  Mapping(const std::string& path, uint64_t expected_bytes) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw InputError(path + ": cannot open (" + os_error() + ")");
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
      ::close(fd);
      throw InputError(path + ": cannot read (" + os_error() + ")");
    }
    bytes = static_cast<uint64_t>(st.st_size);
    if (bytes != expected_bytes) {
      ::close(fd);
      throw InputError(refuse(path + ": " + std::to_string(bytes) +
                              " bytes where the header says " + std::to_string(expected_bytes) +
                              " (truncated or replaced)"));
    }
    if (bytes > 0) {
      void* p = ::mmap(nullptr, bytes, PROT_READ, MAP_SHARED, fd, 0);
      if (p == MAP_FAILED) {
        ::close(fd);
        throw InputError(path + ": cannot map (" + os_error() + ")");
      }
      data = static_cast<const unsigned char*>(p);
    }
    ::close(fd);  // the mapping keeps the file
  }
  ~Mapping() {
    if (data != nullptr) ::munmap(const_cast<unsigned char*>(data), bytes);
  }
  // Drops the pages of bytes [begin, end) from this process's resident set.
  void release(uint64_t begin, uint64_t end) const {
    const auto page = static_cast<uint64_t>(::sysconf(_SC_PAGESIZE));
    begin = begin / page * page;
    end = std::min(bytes, (end + page - 1) / page * page);
    if (data != nullptr && begin < end) {
      ::madvise(const_cast<unsigned char*>(data) + begin, end - begin, MADV_DONTNEED);
    }
  }
  const unsigned char* data = nullptr;
  uint64_t bytes = 0;
};

namespace {

nlohmann::json read_header(const std::string& dir) {
  const std::string path = dir + "/header.json";
  std::error_code ec;
  if (!fs::exists(path, ec)) throw InputError(path + ": missing: not a prepared corpus");
  nlohmann::json header;
  try {
    header = nlohmann::json::parse(util::read_file(path));
  } catch (const nlohmann::json::exception&) {
    throw InputError(refuse(path + ": not valid JSON"));
  }
  const auto field = [&](const char* key) {
    return header.is_object() && header.contains(key) ? header[key] : nlohmann::json();
  };
  if (field("format") != kPreparedFormat) {
    throw InputError(path + ": not a prepared corpus of this program (format " +
                     field("format").dump() + ")");
  }
  if (field("version") != kPreparedVersion) {
    throw InputError(refuse(path + ": format version " + field("version").dump() +
                            ", this program reads version " + std::to_string(kPreparedVersion)));
  }
  for (const char* key : {"pairs", "src_tokens", "tgt_tokens", "src_id_bytes", "tgt_id_bytes",
                          "src_vocab_size", "tgt_vocab_size"}) {
    if (!header.contains(key) || !header[key].is_number_unsigned()) {
      throw InputError(refuse(path + ": \"" + std::string(key) + "\" is missing or not a count"));
    }
  }
  for (const char* file : {"index.bin", "src.bin", "tgt.bin"}) {
    if (!header.contains("files") || !header["files"].contains(file) ||
        !header["files"][file].is_string()) {
      throw InputError(refuse(path + ": no content hash of " + file));
    }
  }
  return header;
}

// Checks, while hashing, that the offsets start at 0, never decrease and end at the token
// counts, and that the line numbers increase.
class IndexCheck {
 public:
  IndexCheck(uint64_t pairs, uint64_t src_tokens, uint64_t tgt_tokens)
      : n_(pairs), ends_{src_tokens, tgt_tokens} {}
  void operator()(const unsigned char* data, std::size_t size) {
    for (std::size_t i = 0; i + 8 <= size; i += 8, ++k_) check(read_le(data + i, 8));
  }
  std::string problem() const { return problem_; }

 private:
  void check(uint64_t v) {
    if (!problem_.empty()) return;
    const uint64_t per_side = n_ + 1;
    if (k_ < 2 * per_side) {
      const uint64_t side = k_ / per_side, i = k_ % per_side;
      if ((i == 0 && v != 0) || (i > 0 && v < previous_) || (i == n_ && v != ends_[side])) {
        problem_ = "offset " + std::to_string(i) + " of the " + (side == 0 ? "source" : "target") +
                   " is " + std::to_string(v);
      }
    } else if (k_ > 2 * per_side && v <= previous_) {
      problem_ = "line numbers do not increase at pair " + std::to_string(k_ - 2 * per_side);
    }
    previous_ = v;
  }
  uint64_t n_, ends_[2];
  uint64_t k_ = 0, previous_ = 0;
  std::string problem_;
};

}  // namespace

PreparedCorpus::PreparedCorpus(const std::string& dir) : dir_(dir), header_(read_header(dir)) {
  size_ = header_["pairs"].get<std::size_t>();
  const uint64_t tokens[2] = {header_["src_tokens"].get<uint64_t>(),
                              header_["tgt_tokens"].get<uint64_t>()};
  const int bytes[2] = {header_["src_id_bytes"].get<int>(), header_["tgt_id_bytes"].get<int>()};
  const int64_t vocab[2] = {header_["src_vocab_size"].get<int64_t>(),
                            header_["tgt_vocab_size"].get<int64_t>()};
  const char* names[2] = {"src.bin", "tgt.bin"};
  const auto check_hash = [&](const std::string& name, const std::string& actual) {
    const std::string expected = header_["files"][name].get<std::string>();
    if (actual != expected) {
      throw InputError(refuse(dir + "/" + name + ": content hash " + actual +
                              " where the header says " + expected + " (the file is corrupt)"));
    }
  };
  index_ = std::make_unique<Mapping>(dir + "/index.bin", (3 * size_ + 2) * 8);
  IndexCheck index_check(size_, tokens[0], tokens[1]);
  check_hash("index.bin", util::content_hash_of_file(dir + "/index.bin", std::ref(index_check)));
  if (!index_check.problem().empty()) {
    throw InputError(refuse(dir + "/index.bin: " + index_check.problem()));
  }
  for (int side = 0; side < 2; ++side) {
    if (bytes[side] != id_bytes_for(vocab[side])) {
      throw InputError(refuse(dir + "/header.json: ids of " + std::to_string(bytes[side]) +
                              " bytes for a vocabulary of " + std::to_string(vocab[side])));
    }
    const std::string path = dir + "/" + names[side];
    ids_[side] = std::make_unique<Mapping>(path, tokens[side] * static_cast<uint64_t>(bytes[side]));
    bool out_of_range = false;
    const auto width = static_cast<std::size_t>(bytes[side]);
    const auto range = [&](const unsigned char* data, std::size_t size) {
      for (std::size_t i = 0; i + width <= size; i += width) {
        out_of_range |= read_le(data + i, bytes[side]) >= static_cast<uint64_t>(vocab[side]);
      }
    };
    check_hash(names[side], util::content_hash_of_file(path, range));
    if (out_of_range) {
      throw InputError(refuse(path + ": an id past the vocabulary's " +
                              std::to_string(vocab[side]) + " entries"));
    }
  }
  ids_bytes_[0] = bytes[0];
  ids_bytes_[1] = bytes[1];
}

PreparedCorpus::~PreparedCorpus() = default;

std::string PreparedCorpus::content_hash() const {
  return header_.value("content_hash", std::string());
}

int64_t PreparedCorpus::offset(int side, std::size_t i) const {
  const std::size_t k = static_cast<std::size_t>(side) * (size_ + 1) + i;
  return static_cast<int64_t>(read_le(index_->data + 8 * k, 8));
}

std::size_t PreparedCorpus::line(std::size_t i) const {
  return static_cast<std::size_t>(read_le(index_->data + 8 * (2 * (size_ + 1) + i), 8));
}

void PreparedCorpus::append(int side, std::size_t i, std::vector<int64_t>* out) const {
  const int bytes = ids_bytes_[side];
  const auto* p = ids_[side]->data +
                  static_cast<std::size_t>(offset(side, i)) * static_cast<std::size_t>(bytes);
  const int64_t n = offset(side, i + 1) - offset(side, i);
  for (int64_t k = 0; k < n; ++k, p += bytes)
    out->push_back(static_cast<int64_t>(read_le(p, bytes)));
}

void PreparedCorpus::append_src(std::size_t i, std::vector<int64_t>* out) const {
  append(0, i, out);
}

void PreparedCorpus::append_tgt(std::size_t i, std::vector<int64_t>* out) const {
  append(1, i, out);
}

void PreparedCorpus::release(std::size_t first, std::size_t last) const {
  if (first >= last) return;
  for (int side = 0; side < 2; ++side) {
    const uint64_t base = static_cast<uint64_t>(side) * (size_ + 1) * 8;
    index_->release(base + first * 8, base + (last + 1) * 8);
    const auto width = static_cast<uint64_t>(ids_bytes_[side]);
    ids_[side]->release(static_cast<uint64_t>(offset(side, first)) * width,
                        static_cast<uint64_t>(offset(side, last)) * width);
  }
}

}  // namespace s2s::data
