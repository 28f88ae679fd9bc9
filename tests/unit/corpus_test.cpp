#include "data/corpus.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "support/shared_dir.h"
#include "support/temp_dir.h"
#include "util/error.h"

namespace s2s::data {
namespace {

using Lines = std::vector<std::string>;
using Tokens = std::vector<std::string>;

class CorpusTest : public test_support::TempDirTest {};

// Runs `fn`, expects an exception of type E, and returns its message.
template <class E, class F>
std::string error_of(F fn) {
  try {
    fn();
  } catch (const E& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected an exception";
  return "";
}

TEST_F(CorpusTest, ReadLinesSplitsOnNewlines) {
  EXPECT_EQ(read_lines(write("a.txt", "a\nb b\n")), (Lines{"a", "b b"}));
  EXPECT_EQ(read_lines(write("b.txt", "a\nb")), (Lines{"a", "b"}));  // no final newline
  EXPECT_EQ(read_lines(write("c.txt", "")), Lines{});
}

TEST_F(CorpusTest, ReadLinesStripsOneBomAndCarriageReturns) {
  EXPECT_EQ(read_lines(write("a.txt", "\xEF\xBB\xBFx\r\ny\r\n")), (Lines{"x", "y"}));
  // Only one BOM, only at the start, and a lone CR inside a line is data.
  EXPECT_EQ(read_lines(write("b.txt", "\xEF\xBB\xBF\xEF\xBB\xBFx\na\rb\n\xEF\xBB\xBF")),
            (Lines{"\xEF\xBB\xBFx", "a\rb", "\xEF\xBB\xBF"}));
}

TEST_F(CorpusTest, ReadLinesDropsBlankLinesAtTheEndOnly) {
  EXPECT_EQ(read_lines(write("a.txt", "a\n\nb\n\n \t\n\r\n\n")), (Lines{"a", "", "b"}));
  EXPECT_EQ(read_lines(write("b.txt", "\n\n")), Lines{});
}

TEST_F(CorpusTest, ReadLinesReportsInvalidUtf8WithLineAndByte) {
  const std::string p = write("bad.txt", "\xEF\xBB\xBFok\r\nfine\nbad \xFF here\n");
  EXPECT_EQ(error_of<InputError>([&] { read_lines(p); }), p + ":3: invalid UTF-8 at byte 5");
  const std::string q = write("bad2.txt", "\xC3\n");  // truncated sequence
  EXPECT_EQ(error_of<InputError>([&] { read_lines(q); }), q + ":1: invalid UTF-8 at byte 1");
}

TEST_F(CorpusTest, ReadLinesRefusesALineLongerThanTheBound) {
  const auto file = write("long.txt", "short\n" + std::string(101, 'x') + "\nshort\n");
  EXPECT_EQ(read_lines(file, 101).size(), 3u);  // at the bound: kept
  const auto message = error_of<InputError>([&] { read_lines(file, 100); });
  EXPECT_EQ(message, file +
                         ":2: a line of 101 bytes, more than data.max_line_bytes = 100; cut "
                         "or drop the line, or raise the key");
  const auto prefix = path("c");
  write("c.src", "a\nb\n");
  write("c.tgt", "a\n" + std::string(50, 'y') + "\n");
  CorpusSpec spec{"parallel", prefix, "src", "tgt", 10};
  EXPECT_NE(error_of<InputError>([&] { read_corpus(spec); }).find("c.tgt:2: a line of 50 bytes"),
            std::string::npos);
}

TEST_F(CorpusTest, ReadLinesNamesMissingFilesAndDirectories) {
  const std::string missing = path("missing.txt");
  EXPECT_EQ(error_of<InputError>([&] { read_lines(missing); }),
            missing + ": cannot open (No such file or directory)");
  EXPECT_EQ(error_of<InputError>([&] { read_lines(dir_.string()); }),
            dir_.string() + ": is a directory, expected a text file");
}

TEST_F(CorpusTest, ReadTsvRejectsExtraColumnsNamingTheLine) {
  const std::string p = write(
      "fra.txt", "Hi.\tSalut !\nGo.\tVa !\tCC-BY 2.0 (France) Attribution: tatoeba.org #2877272\n");
  EXPECT_EQ(error_of<InputError>([&] { read_tsv(p); }),
            p + ":2: expected 2 tab-separated columns, found 3 (keep the first two: cut -f1,2)");
}

TEST_F(CorpusTest, NulBytesNameTheLine) {
  const std::string p = write("nul.txt", std::string("ok\nbad\0line\n", 12));
  EXPECT_EQ(error_of<InputError>([&] { read_lines(p); }),
            p + ":2: NUL byte at byte 4 (not a text file?)");
}

TEST_F(CorpusTest, ReadTsvKeepsEmptyLinesAndEmptySides) {
  const auto pairs = read_tsv(write("a.tsv", "a\tb\r\n\r\nc\t\n"));
  ASSERT_EQ(pairs.size(), 3u);
  EXPECT_EQ(pairs[1].src, "");
  EXPECT_EQ(pairs[1].tgt, "");
  EXPECT_EQ(pairs[1].line, 2u);
  EXPECT_EQ(pairs[2].src, "c");
  EXPECT_EQ(pairs[2].tgt, "");
}

TEST_F(CorpusTest, ReadTsvRejectsALineWithoutTab) {
  const std::string p = write("a.tsv", "a\tb\nno tab here\n");
  EXPECT_EQ(error_of<InputError>([&] { read_tsv(p); }), p + ":2: expected source<TAB>target");
}

TEST_F(CorpusTest, ReadParallelPairsLineByLine) {
  const auto pairs = read_parallel(write("x.de", "Hallo\nWelt\n"), write("x.en", "Hello\nWorld"));
  ASSERT_EQ(pairs.size(), 2u);
  EXPECT_EQ(pairs[1].src, "Welt");
  EXPECT_EQ(pairs[1].tgt, "World");
  EXPECT_EQ(pairs[1].line, 2u);
}

TEST_F(CorpusTest, ReadParallelNamesBothFilesAndCounts) {
  const std::string de = write("x.de", "a\nb\nc\n");
  const std::string en = write("x.en", "a\nb\n");
  EXPECT_EQ(error_of<InputError>([&] { read_parallel(de, en); }),
            "parallel files differ in length: " + de + " has 3 lines, " + en + " has 2");
}

TEST_F(CorpusTest, ReadCorpusDispatchesOnFormat) {
  write("train.de", "Hallo\n");
  write("train.en", "Hello\n");
  const CorpusSpec parallel{"parallel", path("train"), "de", "en"};
  EXPECT_EQ(describe(parallel), path("train") + ".{de,en}");
  const auto pairs = read_corpus(parallel);
  ASSERT_EQ(pairs.size(), 1u);
  EXPECT_EQ(pairs[0].src, "Hallo");
  EXPECT_EQ(pairs[0].tgt, "Hello");

  const CorpusSpec tsv{"tsv", write("t.tsv", "Hallo\tHello\n"), "", ""};
  EXPECT_EQ(describe(tsv), path("t.tsv"));
  EXPECT_EQ(read_corpus(tsv)[0].tgt, "Hello");
}

TEST_F(CorpusTest, ReadCorpusRejectsBadSpecs) {
  EXPECT_EQ(error_of<ConfigError>([&] {
              read_corpus({"xml", path("x"), "", ""});
            }),
            "data.format: unknown value 'xml' (valid: parallel, tsv); did you mean 'tsv'?");
  EXPECT_THROW(read_corpus({"parallel", path("x"), "de", ""}), ConfigError);
  EXPECT_THROW(read_corpus({"tsv", "", "", ""}), ConfigError);
}

TEST_F(CorpusTest, EmptyCorpusNamesItsFiles) {
  const std::string de = write("e.de", "\n\n");
  const std::string en = write("e.en", "");
  EXPECT_EQ(error_of<InputError>([&] {
              read_corpus({"parallel", path("e"), "de", "en"});
            }),
            de + " and " + en + ": no sentence pairs (empty corpus)");
  const std::string tsv = write("e.tsv", "");
  EXPECT_EQ(error_of<InputError>([&] {
              read_corpus({"tsv", tsv, "", ""});
            }),
            tsv + ": no sentence pairs (empty corpus)");
}

TEST_F(CorpusTest, TokenizeCorpusKeepsLinesAndRawTargets) {
  const WordTokenizer word;
  const WhitespaceTokenizer space;
  const std::vector<SentencePair> pairs = {{"Le chien.", "The dog.", 3}};
  const TokenizedCorpus c = tokenize_corpus(pairs, word, space);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c.src[0], (Tokens{"Le", "chien", "."}));
  EXPECT_EQ(c.tgt[0], (Tokens{"The", "dog."}));
  EXPECT_EQ(c.lines[0], 3u);
  EXPECT_EQ(c.tgt_raw[0], "The dog.");
}

TEST_F(CorpusTest, FilterCountsEmptyAndTooLongPairs) {
  // Source / target lengths: (2,2) (4,1) (0,2) (1,4) (3,3) (0,9).
  const std::vector<Tokens> src = {{"a", "b"}, {"a", "b", "c", "d"}, {},
                                   {"a"},      {"a", "b", "c"},      {}};
  const std::vector<Tokens> tgt = {{"a", "b"},           {"a"},           {"a", "b"},
                                   {"a", "b", "c", "d"}, {"a", "b", "c"}, Tokens(9, "x")};
  FilterStats stats;
  EXPECT_EQ(filter_pairs(src, tgt, 3, &stats), (std::vector<std::size_t>{0, 4}));
  EXPECT_EQ(stats.kept, 2u);
  EXPECT_EQ(stats.too_long, 2u);
  EXPECT_EQ(stats.empty, 2u);

  EXPECT_EQ(filter_pairs(src, tgt, 0, &stats), (std::vector<std::size_t>{0, 1, 3, 4}));
  EXPECT_EQ(stats.kept, 4u);
  EXPECT_EQ(stats.too_long, 0u);
  EXPECT_EQ(stats.empty, 2u);
  EXPECT_THROW(filter_pairs(src, tgt, -1, &stats), ConfigError);
}

TEST_F(CorpusTest, LoadCorpusReadsTokenizesAndFilters) {
  const std::string p = write("c.tsv", "Go.\tVa !\n\nA b c d.\tUn.\nHi.\tSalut.\n");
  const WordTokenizer word;
  const TokenizedCorpus c = load_corpus("train", {"tsv", p, "", ""}, word, word, 3);
  ASSERT_EQ(c.size(), 2u);
  EXPECT_EQ(c.src[1], (Tokens{"Hi", "."}));
  EXPECT_EQ(c.tgt[1], (Tokens{"Salut", "."}));
  EXPECT_EQ(c.lines, (std::vector<std::size_t>{1, 4}));
  EXPECT_EQ(c.tgt_raw, (Lines{"Va !", "Salut."}));

  EXPECT_EQ(error_of<InputError>([&] {
              load_corpus("train", {"tsv", p, "", ""}, word, word, 1);
            }),
            p + ": all 4 pairs were filtered out (3 too long, 1 empty)");
}

TEST_F(CorpusTest, ReadsMulti30kTrain) {
  const std::string prefix = test_support::shared_path("data/multi30k/train");
  S2S_SKIP_IF_ABSENT(prefix + ".de") << "reading Multi30k is not checked";
  const auto pairs = read_corpus({"parallel", prefix, "de", "en"});
  ASSERT_EQ(pairs.size(), 29000u);
  EXPECT_EQ(pairs[0].src, "Zwei junge weiße Männer sind im Freien in der Nähe vieler Büsche.");
  EXPECT_EQ(pairs[28999].line, 29000u);
}

}  // namespace
}  // namespace s2s::data
