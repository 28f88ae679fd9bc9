// Reading hypothesis/reference files and the checks sacreBLEU makes on them.

#include "metrics/metric_input.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/temp_dir.h"
#include "util/error.h"

namespace s2s::metrics {
namespace {

using Lines = std::vector<std::string>;

class ReadTextLinesTest : public test_support::TempDirTest {};

TEST_F(ReadTextLinesTest, SplitsOnNewlinesWithOrWithoutAFinalOne) {
  EXPECT_EQ(read_text_lines(write("a.txt", "one\ntwo\n")), (Lines{"one", "two"}));
  EXPECT_EQ(read_text_lines(write("b.txt", "one\ntwo")), (Lines{"one", "two"}));
  EXPECT_EQ(read_text_lines(write("c.txt", "")), Lines{});
  EXPECT_EQ(read_text_lines(write("d.txt", "\n\n")), (Lines{"", ""}));
}

TEST_F(ReadTextLinesTest, StripsCrlfAndByteOrderMark) {
  EXPECT_EQ(read_text_lines(write("a.txt", "\xEF\xBB\xBFone\r\ntwo \r\n")), (Lines{"one", "two "}));
}

TEST_F(ReadTextLinesTest, KeepsOtherWhitespace) {
  EXPECT_EQ(read_text_lines(write("a.txt", "  a\tb  \n")), (Lines{"  a\tb  "}));
}

TEST_F(ReadTextLinesTest, MissingFileNamesThePath) {
  const std::string path = (dir_ / "missing.txt").string();
  try {
    read_text_lines(path);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
  }
}

TEST_F(ReadTextLinesTest, InvalidUtf8NamesPathAndLine) {
  const std::string path = write("bad.txt", "fine\nbad \xC0\xAF\n");
  try {
    read_text_lines(path);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find(path), std::string::npos) << message;
    EXPECT_NE(message.find("line 2"), std::string::npos) << message;
  }
}

TEST(CheckHypsRefsTest, CountsMustMatchAndReferencesMustNotBeEmpty) {
  EXPECT_NO_THROW(check_hyps_refs({"a", ""}, {"a", " "}));
  EXPECT_THROW(check_hyps_refs({"a"}, {"a", "b"}), InputError);
  EXPECT_THROW(check_hyps_refs({"a", "b"}, {"a", ""}), InputError);
}

TEST(DecodeSentenceTest, NamesTheLine) {
  EXPECT_EQ(decode_sentence("\xC3\xA9", "hypothesis", 1), std::u32string(1, 0xE9));
  try {
    decode_sentence("ok\xFF", "reference", 7);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "reference 7: invalid UTF-8 at byte 3");
  }
}

class ReadReferenceFilesTest : public test_support::TempDirTest {
 protected:
  // The InputError message of read_reference_files(paths, lines, "'h.txt'").
  std::string error_of(const std::vector<std::string>& paths, std::size_t lines) {
    try {
      read_reference_files(paths, lines, "'h.txt'");
    } catch (const InputError& e) {
      return e.what();
    }
    ADD_FAILURE() << "no error";
    return "";
  }
};

TEST_F(ReadReferenceFilesTest, ReadsEveryFileInOrder) {
  const auto a = write("a.txt", "a1\na2\n"), b = write("b.txt", "b1\nb2\n");
  EXPECT_EQ(read_reference_files({a, b}, 2, "'h.txt'"),
            (ReferenceSets{{"a1", "a2"}, {"b1", "b2"}}));
}

TEST_F(ReadReferenceFilesTest, NamesTheFileThatBreaksARule) {
  const auto a = write("a.txt", "a1\na2\n"), b = write("b.txt", "b1\n\n");
  EXPECT_EQ(error_of({a, a}, 2), "'" + a + "' is given twice as a reference (as '" + a +
                                     "'): each reference counts once");
  EXPECT_EQ(error_of({a}, 3), "'h.txt' has 3 lines but '" + a +
                                  "' has 2; hypotheses and references must pair up line by line");
  EXPECT_EQ(error_of({a, b}, 2), "'" + b + "' line 2 is empty; sacreBLEU refuses empty references");
  EXPECT_EQ(error_of({write("e.txt", "")}, 0),
            "'h.txt' and '" + path("e.txt") + "' hold no lines: nothing to score");
  EXPECT_EQ(error_of({}, 2), "no reference file: give at least one");
  EXPECT_NE(error_of({path("absent.txt")}, 2).find("cannot open"), std::string::npos);
}

}  // namespace
}  // namespace s2s::metrics
