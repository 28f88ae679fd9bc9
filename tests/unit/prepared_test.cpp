// The prepared corpus format (data/prepared.h): what is written is read back, and a truncated,
// corrupt, foreign or out-of-range corpus is refused with a line naming the file. And the
// streaming reader (data/pair_stream.h) gives the pairs read_corpus gives, with its errors.

#include "data/prepared.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <vector>

#include "data/pair_stream.h"
#include "support/temp_dir.h"
#include "util/error.h"
#include "util/fs.h"

namespace s2s::data {
namespace {

namespace fs = std::filesystem;
using Ids = std::vector<int64_t>;

class PreparedTest : public test_support::TempDirTest {
 protected:
  // Three pairs; the target vocabulary needs int32 ids.
  std::string write_corpus(const std::string& name = "corpus") {
    PreparedWriter writer(path(name), 10, 70000);
    writer.add(1, {4, 5, 9}, {69999, 4});
    writer.add(3, {6}, {7, 8, 9});
    writer.add(4, {}, {5});
    writer.finish({{"note", "kept"}});
    return path(name);
  }
  static std::string refusal(const std::string& dir) {
    try {
      PreparedCorpus corpus(dir);
    } catch (const InputError& e) {
      return e.what();
    }
    return "";
  }
  // Overwrites byte `at` of `file` with `value`.
  static void poke(const std::string& file, std::streamoff at, char value) {
    std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(at);
    f.put(value);
  }
};

TEST_F(PreparedTest, RoundTrip) {
  const PreparedCorpus corpus(write_corpus());
  ASSERT_EQ(corpus.size(), 3u);
  EXPECT_EQ(corpus.header()["note"], "kept");
  EXPECT_EQ(corpus.header()["src_id_bytes"], 2);
  EXPECT_EQ(corpus.header()["tgt_id_bytes"], 4);
  EXPECT_EQ(corpus.content_hash().size(), 16u);
  const std::vector<Ids> src = {{4, 5, 9}, {6}, {}}, tgt = {{69999, 4}, {7, 8, 9}, {5}};
  const std::vector<std::size_t> lines = {1, 3, 4};
  for (std::size_t i = 0; i < 3; ++i) {
    Ids s, t;
    corpus.append_src(i, &s);
    corpus.append_tgt(i, &t);
    EXPECT_EQ(s, src[i]) << i;
    EXPECT_EQ(t, tgt[i]) << i;
    EXPECT_EQ(corpus.src_length(i), static_cast<int64_t>(src[i].size()));
    EXPECT_EQ(corpus.tgt_length(i), static_cast<int64_t>(tgt[i].size()));
    EXPECT_EQ(corpus.line(i), lines[i]);
  }
  corpus.release(0, 3);  // only advice: the pairs read the same after it
  Ids s;
  corpus.append_src(0, &s);
  EXPECT_EQ(s, src[0]);
  // The same pairs give the same hash.
  EXPECT_EQ(PreparedCorpus(write_corpus("again")).content_hash(), corpus.content_hash());
}

TEST_F(PreparedTest, WriterLeavesNothingUnlessFinished) {
  {
    PreparedWriter writer(path("unfinished"), 10, 10);
    writer.add(1, {4}, {5});
  }
  EXPECT_TRUE(fs::is_empty(dir_));
  write_corpus();
  EXPECT_THROW(PreparedWriter(path("corpus"), 10, 10), std::runtime_error) << "exists already";
}

TEST_F(PreparedTest, RefusesATruncatedFile) {
  const auto dir = write_corpus();
  fs::resize_file(dir + "/tgt.bin", fs::file_size(dir + "/tgt.bin") - 4);
  const auto why = refusal(dir);
  EXPECT_NE(why.find("tgt.bin"), std::string::npos) << why;
  EXPECT_NE(why.find("truncated"), std::string::npos) << why;
}

TEST_F(PreparedTest, RefusesACorruptFile) {
  for (const char* file : {"src.bin", "tgt.bin", "index.bin"}) {
    const auto dir = write_corpus(file);
    poke(dir + "/" + file, 1, '\x7f');
    const auto why = refusal(dir);
    EXPECT_NE(why.find(std::string(file) + ": content hash"), std::string::npos) << why;
    EXPECT_NE(why.find("corrupt"), std::string::npos) << why;
  }
}

TEST_F(PreparedTest, RefusesAForeignOrNewerCorpus) {
  const auto dir = write_corpus();
  auto header = nlohmann::json::parse(util::read_file(dir + "/header.json"));
  header["version"] = 99;
  util::write_file_atomic(dir + "/header.json", header.dump());
  EXPECT_NE(refusal(dir).find("format version 99"), std::string::npos) << refusal(dir);
  header["format"] = "fairseq";
  util::write_file_atomic(dir + "/header.json", header.dump());
  EXPECT_NE(refusal(dir).find("not a prepared corpus"), std::string::npos) << refusal(dir);
  util::write_file_atomic(dir + "/header.json", "{");
  EXPECT_NE(refusal(dir).find("not valid JSON"), std::string::npos) << refusal(dir);
  EXPECT_NE(refusal(path("missing")).find("header.json: missing"), std::string::npos);
}

TEST_F(PreparedTest, RefusesAnIdPastTheVocabulary) {
  {
    PreparedWriter writer(path("corpus"), 5, 5);
    writer.add(1, {4}, {7});
    writer.finish({});
  }
  const auto why = refusal(path("corpus"));
  EXPECT_NE(why.find("tgt.bin: an id past the vocabulary"), std::string::npos) << why;
}

// The pairs of a stream, or of read_corpus, of the same files; or their error.
std::string pairs_or_error(const CorpusSpec& spec, bool streamed) {
  std::string out;
  try {
    if (streamed) {
      PairStream stream(spec);
      SentencePair p;
      while (stream.next(&p)) out += std::to_string(p.line) + ":" + p.src + "|" + p.tgt + "\n";
    } else {
      for (const auto& p : read_corpus(spec)) {
        out += std::to_string(p.line) + ":" + p.src + "|" + p.tgt + "\n";
      }
    }
  } catch (const InputError& e) {
    return std::string("error: ") + e.what();  // a stream may have given pairs before it
  }
  return out;
}

TEST_F(PreparedTest, StreamedPairsAreReadCorpussPairs) {
  const std::vector<std::pair<std::string, std::string>> parallel = {
      {"\xEF\xBB\xBF"
       "a b\r\nc\n\nd\n",
       "A B\nC\n\nD\n\n \n"},     // BOM, CRLF, blank ends
      {"a\n \nb\n", "A\n\nB\n"},  // blank in the middle
      {"a\nb\n", "A\n"},          // lengths differ
      {"a\nb\n", "A\n\n"},        // only by a blank line
      {"a\n\xff\n", "A\nB\n"},    // invalid UTF-8
      {"a", "A"},                 // no final newline
  };
  for (const auto& [src, tgt] : parallel) {
    write("c.src", src);
    write("c.tgt", tgt);
    CorpusSpec spec;
    spec.path = path("c");
    spec.src_ext = "src";
    spec.tgt_ext = "tgt";
    EXPECT_EQ(pairs_or_error(spec, true), pairs_or_error(spec, false)) << src << " / " << tgt;
  }
  for (const std::string tsv :
       {"a\tA\n\nb\tB\n\n", "a\tA\n \nb\tB\n", "a\tA\nb\n", "a\tA\tx\n", "a\tA\n  \n\n"}) {
    write("c.tsv", tsv);
    CorpusSpec spec;
    spec.format = "tsv";
    spec.path = path("c.tsv");
    EXPECT_EQ(pairs_or_error(spec, true), pairs_or_error(spec, false)) << tsv;
  }
}

}  // namespace
}  // namespace s2s::data
