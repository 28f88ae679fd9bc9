// Pharaoh reading, predicted alignments, AER and attention entropy on cases counted by hand.

#include "eval/alignment.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include "util/error.h"

namespace s2s::eval {
namespace {

std::string temp_file(const std::string& name, const std::string& contents) {
  const auto path = (std::filesystem::temp_directory_path() / name).string();
  std::ofstream(path, std::ios::binary) << contents;
  return path;
}

TEST(AlignmentTest, ParsesPharaohLines) {
  EXPECT_EQ(parse_alignment_line("0-0 1-2  3-1\t", "f:1"), (Alignment{{0, 0}, {1, 2}, {3, 1}}));
  EXPECT_TRUE(parse_alignment_line("", "f:1").empty());
  const auto path = temp_file("s2s_alignment_test.txt", "0-0 1-1\r\n\n2-0\n");
  const auto gold = read_alignments(path);
  ASSERT_EQ(gold.size(), 3u);
  EXPECT_EQ(gold[0], (Alignment{{0, 0}, {1, 1}}));
  EXPECT_TRUE(gold[1].empty());
  EXPECT_EQ(gold[2], (Alignment{{2, 0}}));
}

TEST(AlignmentTest, BadLinkNamesFileAndLine) {
  for (const std::string bad : {"1-x", "1", "-1-2", "1p2", "1-", "a-b"}) {
    const auto path = temp_file("s2s_alignment_bad.txt", "0-0\n0-1 " + bad + "\n");
    try {
      read_alignments(path);
      FAIL() << "accepted '" << bad << "'";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(path + ":2:"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("'" + bad + "'"), std::string::npos) << e.what();
    }
  }
  EXPECT_THROW(read_alignments("/nonexistent/gold.align"), InputError);
}

TEST(AlignmentTest, ChecksLinksAgainstSentenceLengths) {
  EXPECT_NO_THROW(check_alignment({{2, 1}}, 3, 2, "f:1"));
  EXPECT_THROW(check_alignment({{3, 0}}, 3, 2, "f:1"), InputError);
  EXPECT_THROW(check_alignment({{0, 2}}, 3, 2, "f:1"), InputError);
}

TEST(AlignmentTest, PredictedAlignmentAveragesHeadsAndSkipsEos) {
  // 2 target tokens + </s> step, 2 heads, 2 source tokens + </s>.
  // step 0: head 0 prefers src 0 (0.6), head 1 src 1 (0.9) -> mean 0.35 / 0.55 -> src 1
  // step 1: the source </s> column is largest (0.8) but ignored -> src 0 (0.15 > 0.05)
  // step 2 (the </s> step) is not aligned.
  const auto a = torch::tensor({0.6f, 0.4f, 0.0f, 0.1f, 0.9f, 0.0f,  //
                                0.2f, 0.0f, 0.8f, 0.1f, 0.1f, 0.8f,  //
                                1.0f, 0.0f, 0.0f, 1.0f, 0.0f, 0.0f})
                     .view({3, 2, 3});
  EXPECT_EQ(predicted_alignment(a), (Alignment{{1, 0}, {0, 1}}));
  EXPECT_TRUE(predicted_alignment(torch::ones({1, 1, 3})).empty());  // empty hypothesis
}

TEST(AlignmentTest, AerCountedByHand) {
  // A = {0-0, 1-1}, G = {0-0, 2-1}: |A∩G| = 1 -> AER = 1 - 2/4 = 0.5
  const auto first = aer_counts({{0, 0}, {1, 1}}, {{0, 0}, {2, 1}});
  EXPECT_EQ(first.predicted, 2);
  EXPECT_EQ(first.gold, 2);
  EXPECT_EQ(first.matched, 1);
  EXPECT_DOUBLE_EQ(first.aer(), 0.5);
  // A = {0-0}, G = {0-0, 1-1} (duplicate gold link counts once): 1 - 2/3
  const auto second = aer_counts({{0, 0}}, {{0, 0}, {1, 1}, {1, 1}});
  EXPECT_NEAR(second.aer(), 1.0 / 3.0, 1e-12);
  // Corpus: sums first -> 1 - 2 (1 + 1) / (3 + 4) = 3/7, not the mean of the two.
  AerCounts corpus;
  corpus += first;
  corpus += second;
  EXPECT_NEAR(corpus.aer(), 3.0 / 7.0, 1e-12);
  EXPECT_DOUBLE_EQ(aer_counts({{0, 0}}, {{0, 0}}).aer(), 0.0);
  EXPECT_DOUBLE_EQ(aer_counts({{0, 1}}, {{0, 0}}).aer(), 1.0);
  EXPECT_DOUBLE_EQ(AerCounts{}.aer(), 0.0);
}

TEST(AlignmentTest, EntropyCountedByHand) {
  // step 0: head 0 uniform over 2 (ln 2), head 1 one-hot (0) -> ln 2 / 2
  // step 1: both heads uniform over 4 -> ln 4 = 2 ln 2 (zero-padded columns add nothing)
  const auto a = torch::tensor({0.5f, 0.5f, 0.0f, 0.0f, 1.0f, 0.0f, 0.0f, 0.0f,  //
                                0.25f, 0.25f, 0.25f, 0.25f, 0.25f, 0.25f, 0.25f, 0.25f})
                     .view({2, 2, 4});
  const auto s = attention_entropy(a);
  const double ln2 = std::log(2.0);
  EXPECT_EQ(s.steps, 2);
  EXPECT_NEAR(s.sum, 0.5 * ln2 + 2 * ln2, 1e-6);
  EntropyStats corpus = s;
  corpus += attention_entropy(torch::tensor({1.0f, 0.0f}).view({1, 1, 2}));  // one step, 0
  EXPECT_EQ(corpus.steps, 3);
  EXPECT_NEAR(corpus.mean(), 2.5 * ln2 / 3, 1e-6);
  EXPECT_DOUBLE_EQ(EntropyStats{}.mean(), 0.0);
  // Exact zeros: 5 of the first 16 weights, 1 of the last 2.
  EXPECT_EQ(s.weights, 16);
  EXPECT_EQ(s.zeros, 5);
  EXPECT_EQ(corpus.weights, 18);
  EXPECT_DOUBLE_EQ(corpus.zero_fraction(), 6.0 / 18);
  EXPECT_DOUBLE_EQ(EntropyStats{}.zero_fraction(), 0.0);
}

}  // namespace
}  // namespace s2s::eval
