#include "data/line_stream.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <string>
#include <vector>

namespace s2s::data {
namespace {

// Feeds `text` in pieces of `chunk` bytes (lines then straddle the pieces) and finishes.
std::vector<StreamLine> assemble(const std::string& text, LineLimits limits,
                                 std::size_t chunk = 3) {
  LineAssembler assembler(limits);
  std::vector<StreamLine> lines;
  for (std::size_t at = 0; at < text.size(); at += chunk) {
    assembler.feed(text.data() + at, std::min(chunk, text.size() - at), lines);
  }
  assembler.finish(lines);
  return lines;
}

const LineLimits kWide{1000, 1000};

TEST(LineAssemblerTest, SplitsLinesAcrossPieces) {
  const auto lines = assemble("the cat\r\nsleeps\n\nlast", kWide);
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(lines[0].text, "the cat");  // CRLF
  EXPECT_EQ(lines[0].words, 2u);
  EXPECT_EQ(lines[0].bytes, 7u);
  EXPECT_FALSE(lines[0].cut);
  EXPECT_EQ(lines[1].text, "sleeps");
  EXPECT_EQ(lines[2].text, "");      // an empty line is a line
  EXPECT_EQ(lines[3].text, "last");  // no final newline
}

TEST(LineAssemblerTest, KeepsAtMostMaxWordsAndCountsTheRest) {
  std::string line;
  for (int i = 0; i < 20000; ++i) line += "cat ";
  const auto lines = assemble(line + "\nshort one\n", {5, 1000}, 4096);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0].text, "cat cat cat cat cat ");
  EXPECT_TRUE(lines[0].cut);
  EXPECT_EQ(lines[0].words, 20000u);
  EXPECT_EQ(lines[0].bytes, line.size());
  EXPECT_EQ(lines[1].text, "short one");  // the next line is whole
  EXPECT_FALSE(lines[1].cut);
}

TEST(LineAssemblerTest, ExactlyMaxWordsIsNotCut) {
  const auto lines = assemble("a b c\n", {3, 1000});
  EXPECT_EQ(lines[0].text, "a b c");
  EXPECT_FALSE(lines[0].cut);
}

TEST(LineAssemblerTest, ByteCutEndsOnAWholeCharacter) {
  // "é" is 2 bytes, "€" 3: a cut at 5 bytes falls inside the second "€".
  const auto lines = assemble("\xc3\xa9\xe2\x82\xac\xe2\x82\xac\xc3\xa9\n", {1000, 6});
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0].text, "\xc3\xa9\xe2\x82\xac");
  EXPECT_TRUE(lines[0].cut);
  EXPECT_EQ(lines[0].bytes, 10u);
  EXPECT_EQ(lines[0].words, 1u);
  const auto whole = assemble("\xc3\xa9\xe2\x82\xac\n", {1000, 5});
  EXPECT_EQ(whole[0].text, "\xc3\xa9\xe2\x82\xac");  // exactly the bound: whole
  EXPECT_FALSE(whole[0].cut);
}

TEST(LineBatchesTest, ReadsBatchesFromADescriptor) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  const std::string text = "one\ntwo\nthree\n";
  ASSERT_EQ(::write(fds[1], text.data(), text.size()), static_cast<ssize_t>(text.size()));
  ::close(fds[1]);
  LineBatches input(fds[0], kWide);
  const auto first = input.next(2, 0, "stdin");
  ASSERT_EQ(first.size(), 2u);
  EXPECT_EQ(first[1].text, "two");
  const auto second = input.next(2, 0, "stdin");
  ASSERT_EQ(second.size(), 1u);
  EXPECT_EQ(second[0].text, "three");
  EXPECT_TRUE(input.next(2, 0, "stdin").empty());
  ::close(fds[0]);
}

}  // namespace
}  // namespace s2s::data
