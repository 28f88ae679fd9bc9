#include "run/prepare.h"

#include <spdlog/fmt/fmt.h>

#include <chrono>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <random>
#include <thread>
#include <unordered_map>

#include "data/pair_stream.h"
#include "util/content_hash.h"
#include "util/error.h"
#include "util/fs.h"
#include "util/lock.h"
#include "util/logging.h"
#include "util/sha256.h"

namespace s2s::run {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using nlohmann::json;

// What a prepared corpus depends on: the training split and every setting that changes its ids.
json preparation_settings(const config::DataConfig& d) {
  json s = {
      {"format", d.format},       {"train", fs::absolute(d.train).lexically_normal().string()},
      {"tokenizer", d.tokenizer}, {"lowercase", d.lowercase},
      {"max_len", d.max_len},     {"max_line_bytes", d.max_line_bytes}};
  if (d.format == "parallel") s["extensions"] = {d.src_ext, d.tgt_ext};
  if (data::tokenizer_has_pieces(d.tokenizer)) {
    const auto& sp = d.sentencepiece;
    s["sentencepiece"] = {{"vocab_size", sp.vocab_size},
                          {"model_type", sp.model_type},
                          {"character_coverage", sp.character_coverage},
                          {"joint", sp.joint},
                          {"model", sp.model},
                          {"input_sentence_size", sp.input_sentence_size}};
  } else {
    s["vocabulary"] = {d.src_min_freq, d.tgt_min_freq, d.src_max_vocab, d.tgt_max_vocab};
  }
  return s;
}

json source_digests(const config::DataConfig& d) {
  json out = json::array();
  for (const auto& file : data::corpus_files(corpus_spec(d, d.train))) {
    out.push_back({{"path", file},
                   {"bytes", fs::file_size(file)},
                   {"hash", util::content_hash_of_file(file)}});
  }
  return out;
}

// A seeded uniform sample of at most `size` pairs (0: all) of a stream (Vitter's algorithm R),
// for training SentencePiece in bounded memory.
std::vector<data::SentencePair> sample_pairs(const data::CorpusSpec& spec, int64_t size,
                                             int64_t seed) {
  data::PairStream stream(spec);
  std::vector<data::SentencePair> sample;
  std::mt19937_64 rng(static_cast<uint64_t>(seed));
  data::SentencePair pair;
  for (uint64_t seen = 0; stream.next(&pair); ++seen) {
    if (size <= 0 || sample.size() < static_cast<std::size_t>(size)) {
      sample.push_back(std::move(pair));
    } else if (const uint64_t j = rng() % (seen + 1); j < sample.size()) {
      sample[j] = std::move(pair);
    }
  }
  return sample;
}

Tokenizers preparation_tokenizers(const config::DataConfig& d, int64_t seed) {
  if (!data::tokenizer_has_pieces(d.tokenizer) || !d.sentencepiece.model.empty()) {
    return training_tokenizers(d, seed);
  }
  return training_tokenizers(
      d, seed, sample_pairs(corpus_spec(d, d.train), d.sentencepiece.input_sentence_size, seed));
}

// Word ids assigned in order of appearance while streaming, and their counts: the final
// vocabulary (by frequency) is known only at the end, so pairs are written with these ids
// first and renumbered after.
class FirstSeenIds {
 public:
  std::vector<int64_t> ids(const std::vector<std::string>& tokens) {
    std::vector<int64_t> out;
    out.reserve(tokens.size());
    for (const auto& token : tokens) {
      const auto [it, added] = ids_.try_emplace(token, static_cast<int64_t>(counts_.size()));
      if (added) counts_.push_back(0);
      out.push_back(it->second);
    }
    return out;
  }
  // Counts the tokens of a kept pair (filtered pairs count for nothing, as in Vocab::build).
  void count(const std::vector<int64_t>& ids) {
    for (const int64_t id : ids) ++counts_[static_cast<std::size_t>(id)];
  }
  // The vocabulary of the counts, and each first-seen id's final id.
  data::Vocab vocab(const data::VocabOptions& options, std::vector<int64_t>* renumber) const {
    std::unordered_map<std::string, int64_t> counts;
    for (const auto& [token, id] : ids_)
      counts.emplace(token, counts_[static_cast<std::size_t>(id)]);
    auto vocab = data::Vocab::from_counts(counts, options);
    renumber->assign(counts_.size(), data::Vocab::kUnk);
    for (const auto& [token, id] : ids_)
      (*renumber)[static_cast<std::size_t>(id)] = vocab.id(token);
    return vocab;
  }

 private:
  std::unordered_map<std::string, int64_t> ids_;
  std::vector<int64_t> counts_;
};

// Pairs of first-seen ids in a temporary file: line and lengths (uint64), ids (uint32: first-seen
// ids are counted in distinct tokens), host order.
class PairRecords {
 public:
  explicit PairRecords(std::string path) : path_(std::move(path)) {
    file_ = std::fopen(path_.c_str(), "w+b");
    if (file_ == nullptr) throw std::runtime_error(path_ + ": cannot create");
  }
  ~PairRecords() {
    std::fclose(file_);
    std::error_code ec;
    fs::remove(path_, ec);
  }
  void write(std::size_t line, const std::vector<int64_t>& src, const std::vector<int64_t>& tgt) {
    const uint64_t head[3] = {line, src.size(), tgt.size()};
    put(head, sizeof head);
    ids_.assign(src.begin(), src.end());
    ids_.insert(ids_.end(), tgt.begin(), tgt.end());
    put(ids_.data(), ids_.size() * sizeof(uint32_t));
  }
  void rewind() {
    if (std::fflush(file_) != 0) throw std::runtime_error(path_ + ": write failed");
    std::rewind(file_);
  }
  bool read(std::size_t* line, std::vector<int64_t>* src, std::vector<int64_t>* tgt) {
    uint64_t head[3];
    if (std::fread(head, sizeof head, 1, file_) != 1) return false;
    *line = static_cast<std::size_t>(head[0]);
    ids_.resize(head[1] + head[2]);
    if (!ids_.empty() &&
        std::fread(ids_.data(), sizeof(uint32_t), ids_.size(), file_) != ids_.size()) {
      throw std::runtime_error(path_ + ": read error");
    }
    src->assign(ids_.begin(), ids_.begin() + static_cast<std::ptrdiff_t>(head[1]));
    tgt->assign(ids_.begin() + static_cast<std::ptrdiff_t>(head[1]), ids_.end());
    return true;
  }

 private:
  void put(const void* data, std::size_t bytes) {
    if (bytes > 0 && std::fwrite(data, 1, bytes, file_) != bytes) {
      throw std::runtime_error(path_ + ": write failed (the disk may be full)");
    }
  }
  std::string path_;
  std::FILE* file_ = nullptr;
  std::vector<uint32_t> ids_;
};

struct Streamed {
  data::FilterStats stats;
  std::size_t read = 0;
};

// Turns a side's tokens into ids: first-seen ids, or a fixed vocabulary's.
using Encode = std::function<std::vector<int64_t>(const std::vector<std::string>&)>;

// Tokenizes and encodes the pairs of `chunk`, the target side on a thread of its own: the two
// sides share nothing (their tokenizers are const, their encoders separate), so the ids do not
// depend on the threads.
void encode_chunk(const std::vector<data::SentencePair>& chunk, const Tokenizers& tokenizers,
                  const Encode& encode_src, const Encode& encode_tgt,
                  std::vector<std::vector<int64_t>>* src, std::vector<std::vector<int64_t>>* tgt) {
  src->resize(chunk.size());
  tgt->resize(chunk.size());
  std::exception_ptr failure;
  std::thread target([&] {
    try {
      for (std::size_t i = 0; i < chunk.size(); ++i) {
        (*tgt)[i] = encode_tgt(tokenizers.tgt->tokenize(chunk[i].tgt));
      }
    } catch (...) {
      failure = std::current_exception();
    }
  });
  for (std::size_t i = 0; i < chunk.size(); ++i) {
    (*src)[i] = encode_src(tokenizers.src->tokenize(chunk[i].src));
  }
  target.join();
  if (failure) std::rethrow_exception(failure);
}

// Streams the training split in chunks, handing each kept pair's ids to `keep`.
template <class Keep>
Streamed stream_ids(const config::DataConfig& d, const Tokenizers& tokenizers,
                    const Encode& encode_src, const Encode& encode_tgt, Keep keep) {
  constexpr std::size_t kChunkPairs = 16384;
  const auto spec = corpus_spec(d, d.train);
  data::PairStream stream(spec);
  Streamed out;
  std::vector<data::SentencePair> chunk(kChunkPairs);
  std::vector<std::vector<int64_t>> src, tgt;
  for (bool more = true; more;) {
    std::size_t n = 0;
    while (n < kChunkPairs && (more = stream.next(&chunk[n]))) ++n;
    chunk.resize(n);
    encode_chunk(chunk, tokenizers, encode_src, encode_tgt, &src, &tgt);
    for (std::size_t i = 0; i < n; ++i) {
      switch (data::classify_pair(src[i].size(), tgt[i].size(), d.max_len)) {
        case data::FilterVerdict::kEmpty:
          ++out.stats.empty;
          break;
        case data::FilterVerdict::kTooLong:
          ++out.stats.too_long;
          break;
        case data::FilterVerdict::kKeep:
          ++out.stats.kept;
          keep(chunk[i].line, src[i], tgt[i]);
          break;
      }
    }
    chunk.resize(kChunkPairs);
  }
  out.read = stream.pairs_read();
  if (out.read == 0) throw InputError(data::describe(spec) + ": no sentence pairs (empty corpus)");
  if (out.stats.kept == 0) {
    throw InputError(fmt::format("{}: all {} pairs were filtered out ({} too long, {} empty)",
                                 data::describe(spec), out.read, out.stats.too_long,
                                 out.stats.empty));
  }
  return out;
}

void write_vocabularies(const std::string& dir, const data::Vocab& src, const data::Vocab& tgt) {
  src.save(dir + "/src_vocab.txt");
  tgt.save(dir + "/tgt_vocab.txt");
}

// Prepares `dir` from the training split of `config`, in one pass over the text (two when a
// SentencePiece model is trained: one to sample its sentences).
void prepare(const config::Config& config, const std::string& dir) {
  const auto& d = config.data;
  const auto start = Clock::now();
  Tokenizers tokenizers = preparation_tokenizers(d, config.seed);
  data::Vocab src_vocab, tgt_vocab;
  std::unique_ptr<data::PreparedWriter> writer;
  Streamed streamed;
  if (vocab_from_pieces(*tokenizers.src, &src_vocab) &&
      vocab_from_pieces(*tokenizers.tgt, &tgt_vocab)) {
    writer = std::make_unique<data::PreparedWriter>(dir, src_vocab.size(), tgt_vocab.size());
    const auto by = [](const data::Vocab& vocab) -> Encode {
      return [&vocab](const std::vector<std::string>& tokens) {
        return vocab.encode(tokens, false, false);
      };
    };
    streamed = stream_ids(
        d, tokenizers, by(src_vocab), by(tgt_vocab),
        [&](std::size_t line, const auto& src, const auto& tgt) { writer->add(line, src, tgt); });
  } else {
    FirstSeenIds src_ids, tgt_ids;
    PairRecords records(util::temp_path(dir + ".records"));
    const auto by = [](FirstSeenIds& ids) -> Encode {
      return [&ids](const std::vector<std::string>& tokens) { return ids.ids(tokens); };
    };
    streamed = stream_ids(d, tokenizers, by(src_ids), by(tgt_ids),
                          [&](std::size_t line, const auto& src, const auto& tgt) {
                            src_ids.count(src);
                            tgt_ids.count(tgt);
                            records.write(line, src, tgt);
                          });
    std::vector<int64_t> src_final, tgt_final;
    src_vocab = src_ids.vocab({d.src_min_freq, d.src_max_vocab}, &src_final);
    tgt_vocab = tgt_ids.vocab({d.tgt_min_freq, d.tgt_max_vocab}, &tgt_final);
    writer = std::make_unique<data::PreparedWriter>(dir, src_vocab.size(), tgt_vocab.size());
    records.rewind();
    std::size_t line = 0;
    std::vector<int64_t> src, tgt;
    while (records.read(&line, &src, &tgt)) {
      for (auto& id : src) id = src_final[static_cast<std::size_t>(id)];
      for (auto& id : tgt) id = tgt_final[static_cast<std::size_t>(id)];
      writer->add(line, src, tgt);
    }
  }
  write_vocabularies(writer->temp_dir(), src_vocab, tgt_vocab);
  for (const auto& [path, bytes] :
       tokenizer_files(d, *tokenizers.src, *tokenizers.tgt, RunPaths(writer->temp_dir()))) {
    util::write_file_atomic(path, bytes);
  }
  json header = {{"settings", preparation_settings(d)},
                 {"sources", source_digests(d)},
                 {"seed", config.seed},
                 {"src_vocab_sha256",
                  util::sha256_hex(util::read_file(writer->temp_dir() + "/src_vocab.txt"))},
                 {"tgt_vocab_sha256",
                  util::sha256_hex(util::read_file(writer->temp_dir() + "/tgt_vocab.txt"))},
                 {"read", streamed.read},
                 {"filtered_too_long", streamed.stats.too_long},
                 {"filtered_empty", streamed.stats.empty}};
  writer->finish(std::move(header));
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  util::logger("data")->info(
      "prepared {}: {} pairs of {} read in {:.1f} s ({:.0f} pairs/s), {} filtered (too long > {}), "
      "{} empty; vocabulary: source {}, target {}",
      dir, streamed.stats.kept, streamed.read, seconds,
      static_cast<double>(streamed.read) / std::max(seconds, 1e-9), streamed.stats.too_long,
      d.max_len, streamed.stats.empty, src_vocab.size(), tgt_vocab.size());
}

// A source file changed since the corpus was prepared from it: its ids are another text's.
void check_sources(const data::PreparedCorpus& corpus, const config::DataConfig& d) {
  const json recorded = corpus.header().value("sources", json::array());
  const json now = source_digests(d);
  for (std::size_t i = 0; i < now.size(); ++i) {
    if (i < recorded.size() && recorded[i] == now[i]) continue;
    throw InputError(fmt::format(
        "{}: prepared from {} as it was before (content hash {}), which has changed since (now "
        "{}); prepare it again: s2s prepare -c CONFIG --overwrite",
        corpus.dir(), now[i]["path"].get<std::string>(),
        i < recorded.size() ? recorded[i].value("hash", "?") : "?",
        now[i]["hash"].get<std::string>()));
  }
}

}  // namespace

std::string prepared_path(const config::Config& config) {
  const auto& d = config.data;
  const std::string base = d.prepared_dir.empty()
                               ? fs::absolute(d.train).lexically_normal().string() + ".prepared"
                               : d.prepared_dir;
  const std::string key = util::sha256_hex(preparation_settings(d).dump()).substr(0, 10);
  const std::string sides = d.format == "parallel" ? d.src_ext + "-" + d.tgt_ext + "." : "";
  return base + "/" + sides + d.tokenizer + "." + key;
}

Prepared open_prepared(const config::Config& config, bool overwrite) {
  const std::string dir = prepared_path(config);
  const std::string base = fs::path(dir).parent_path().string();
  std::error_code ec;
  fs::create_directories(base, ec);
  if (ec) {
    throw UserError(
        fmt::format("{}: cannot create the prepared corpus's directory ({}); name a "
                    "writable one in data.prepared_dir",
                    base, ec.message()));
  }
  bool prepared_now = false;
  util::with_directory_lock(base, [&] {
    // What a preparation killed mid-way left behind (PreparedWriter's temporary folder).
    const std::string name = fs::path(dir).filename().string();
    util::remove_stale_temp_files(
        base, [&](const std::string& file) { return file.rfind(name, 0) == 0; });
    if (overwrite && fs::exists(dir, ec)) fs::remove_all(dir);
    if (!fs::exists(dir, ec)) {
      prepare(config, dir);
      prepared_now = true;  // its sources were hashed while preparing: not again below
    }
  });
  Prepared p;
  const auto start = Clock::now();
  auto corpus = std::make_shared<data::PreparedCorpus>(dir);
  if (!prepared_now) check_sources(*corpus, config.data);
  p.tokenizers = run_tokenizers(config.data, RunPaths(dir));
  p.src_vocab = data::Vocab::load(dir + "/src_vocab.txt");
  p.tgt_vocab = data::Vocab::load(dir + "/tgt_vocab.txt");
  util::logger("data")->info("train: {} pairs from the prepared corpus {} (checked in {:.1f} s)",
                             corpus->size(), dir,
                             std::chrono::duration<double>(Clock::now() - start).count());
  p.corpus = std::move(corpus);
  return p;
}

void check_vocabularies(const Prepared& prepared, const RunPaths& run) {
  const auto same = [&](const data::Vocab& a, const std::string& path, const std::string& name) {
    if (data::Vocab::load(path).tokens() != a.tokens()) {
      throw InputError(fmt::format(
          "{}: differs from the vocabulary of the prepared corpus {} ({}): the run was trained "
          "on other ids; train it again, or prepare the corpus it was trained on",
          path, prepared.corpus->dir(), name));
    }
  };
  same(prepared.src_vocab, run.src_vocab(), "src_vocab.txt");
  same(prepared.tgt_vocab, run.tgt_vocab(), "tgt_vocab.txt");
}

}  // namespace s2s::run
