// Corpus chrF on cases small enough to count by hand; the arithmetic is in the comments.

#include "metrics/chrf.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "util/error.h"

namespace s2s::metrics {
namespace {

TEST(ChrfTest, IdenticalSentenceScores100) {
  const ChrfResult r = corpus_chrf({"the cat sat"}, {"the cat sat"});
  EXPECT_DOUBLE_EQ(r.score, 100.0);
  // 'thecatsat': 9 characters -> 9, 8, 7, 6, 5, 4 n-grams on each side, all matching.
  ASSERT_EQ(r.stats.size(), 6u);
  EXPECT_EQ(r.stats[0].hyp, 9);
  EXPECT_EQ(r.stats[5].match, 4);
}

TEST(ChrfTest, TwoCharactersCountedByHand) {
  // hyp 'ab' / ref 'ac'. n=1: {a,b} vs {a,c}: match 1 of 2 and 2.  n=2: {ab} vs {ac}: 0 of 1, 1.
  // n>=3: no n-grams on either side, so those orders do not count.
  // P = (1/2 + 0) / 2 = 1/4, R = 1/4 -> F2 = 5 P R / (4 P + R) = (5/16) / (5/4) = 1/4
  const ChrfResult r = corpus_chrf({"ab"}, {"ac"});
  EXPECT_NEAR(r.score, 25.0, 1e-9);
  EXPECT_EQ(r.format(), "chrF2 = 25.00");
}

TEST(ChrfTest, RecallWeighsMoreThanPrecision) {
  // hyp 'abc' / ref 'ab'. n=1: 3 hyp, 2 ref, 2 match. n=2: {ab,bc} vs {ab}: 2, 1, 1.
  // n=3: the reference has no 3-grams, so the hypothesis' one is not counted.
  // P = (2/3 + 1/2) / 2 = 7/12, R = (1 + 1) / 2 = 1
  // F2 = 5 * 7/12 / (4 * 7/12 + 1) = (35/12) / (40/12) = 0.875
  const ChrfResult r = corpus_chrf({"abc"}, {"ab"});
  EXPECT_NEAR(r.score, 87.5, 1e-9);
  EXPECT_EQ(r.stats[2].hyp, 0);
}

TEST(ChrfTest, HypothesisNgramsCountOnlyWhereTheReferenceHasThatOrder) {
  // Corpus: ('abc', 'ab') and ('xyz', 'xyz').
  // n=1: 3+3 hyp, 2+3 ref, 2+3 match -> 6, 5, 5.  n=2: 2+2, 1+2, 1+2 -> 4, 3, 3.
  // n=3: the first reference has no 3-grams, so only the second pair counts -> 1, 1, 1.
  // P = (5/6 + 3/4 + 1) / 3 = 31/36, R = 1 -> F2 = 5 (31/36) / (4 (31/36) + 1) = 155/160
  // (counting the first pair's 3-gram would give P3 = 1/2 and F2 = 125/136 instead).
  const ChrfResult r = corpus_chrf({"abc", "xyz"}, {"ab", "xyz"});
  EXPECT_EQ(r.stats[2].hyp, 1);
  EXPECT_EQ(r.stats[2].ref, 1);
  EXPECT_NEAR(r.score, 100.0 * 155.0 / 160.0, 1e-9);
}

TEST(ChrfTest, WhitespaceIsRemovedBeforeCounting) {
  // Python's str.split() whitespace, including U+3000.
  EXPECT_DOUBLE_EQ(corpus_chrf({"a b\xE3\x80\x80"
                                "c"},
                               {"abc"})
                       .score,
                   100.0);
}

TEST(ChrfTest, CountsCodePointsNotBytes) {
  // 'é' is one character: 'éa' vs 'éb' behaves like 'ab' vs 'ac' shifted -> 25 as above.
  EXPECT_NEAR(corpus_chrf({"\xC3\xA9"
                           "a"},
                          {"\xC3\xA9"
                           "b"})
                  .score,
              100.0 * (5.0 / 16.0) / 1.25, 1e-9);
}

TEST(ChrfTest, EmptyHypothesisScoresZero) {
  const ChrfResult r = corpus_chrf({""}, {"abc"});
  EXPECT_EQ(r.score, 0.0);
  EXPECT_EQ(r.stats[0].ref, 3);
}

TEST(ChrfTest, LowercaseOption) {
  // Cased 'AB' vs 'ab': no match at any order -> P = R = 0 -> 0.
  EXPECT_EQ(corpus_chrf({"AB"}, {"ab"}).score, 0.0);
  ChrfOptions options;
  options.lowercase = true;
  const ChrfResult r = corpus_chrf({"AB"}, {"ab"}, options);
  EXPECT_DOUBLE_EQ(r.score, 100.0);
  EXPECT_EQ(r.signature(), "nrefs:1|case:lc|eff:yes|nc:6|nw:0|space:no|version:2.6.0");
}

TEST(ChrfTest, SignatureAndName) {
  const ChrfResult r = corpus_chrf({"a"}, {"a"});
  EXPECT_EQ(r.name(), "chrF2");
  EXPECT_EQ(r.signature(), "nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.6.0");
}

TEST(ChrfTest, ComputeFromStatistics) {
  // One order: P = 1/2, R = 1/4 -> F2 = 5 (1/8) / (2 + 1/4) = 0.625 / 2.25 = 0.2777...
  const std::vector<ChrfOrderStats> stats = {{/*hyp=*/4, /*ref=*/8, /*match=*/2}};
  EXPECT_NEAR(compute_chrf(stats, /*beta=*/2), 100.0 * 0.625 / 2.25, 1e-9);
  // beta = 1 is the harmonic mean: 2 P R / (P + R) = (1/4) / (3/4) = 1/3
  EXPECT_NEAR(compute_chrf(stats, /*beta=*/1), 100.0 / 3.0, 1e-9);
}

TEST(ChrfErrorTest, RejectsBadInput) {
  EXPECT_THROW(corpus_chrf({"a", "b"}, {"a"}), InputError);
  EXPECT_THROW(corpus_chrf({"a"}, {""}), InputError);
  ChrfOptions options;
  options.char_order = 0;
  EXPECT_THROW(corpus_chrf({"a"}, {"a"}, options), ConfigError);
}

}  // namespace
}  // namespace s2s::metrics

namespace s2s::metrics {
namespace {

using References = std::vector<std::vector<std::string>>;

// Each segment keeps the statistics of its best reference: segment 1 matches its second
// reference exactly and nothing of its first; segment 2 the other way round. The corpus
// statistics are then those against the stream of the chosen references.
TEST(MultiReferenceChrfTest, EachSegmentKeepsItsBestReference) {
  const std::vector<std::string> hyps{"the cat", "a dog barks"};
  const References refs{{"xyz", "a dog barks"}, {"the cat", "qqq"}};
  const auto multi = corpus_chrf_multi(hyps, refs);
  const auto chosen = corpus_chrf(hyps, std::vector<std::string>{"the cat", "a dog barks"});
  ASSERT_EQ(multi.stats.size(), chosen.stats.size());
  for (std::size_t n = 0; n < multi.stats.size(); ++n) {
    EXPECT_EQ(multi.stats[n].hyp, chosen.stats[n].hyp) << n;
    EXPECT_EQ(multi.stats[n].ref, chosen.stats[n].ref) << n;
    EXPECT_EQ(multi.stats[n].match, chosen.stats[n].match) << n;
  }
  EXPECT_DOUBLE_EQ(multi.score, 100.0);
  EXPECT_EQ(multi.signature(), "nrefs:2|case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.6.0");
}

TEST(MultiReferenceChrfTest, ATieKeepsTheFirstReference) {
  // "ab" against "abx" and "xab": the same chrF (1-grams a, b and the 2-gram ab match in both),
  // so the first counts; its reference n-grams are those of "abx".
  const auto r = corpus_chrf_multi({"ab"}, References{{"abx"}, {"xab"}}, {2, 2, false});
  const auto first = corpus_chrf({"ab"}, std::vector<std::string>{"abx"}, {2, 2, false});
  EXPECT_EQ(r.stats[1].ref, first.stats[1].ref);
  EXPECT_DOUBLE_EQ(r.score, first.score);
}

}  // namespace
}  // namespace s2s::metrics
