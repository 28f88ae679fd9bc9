// Corpus BLEU on cases small enough to count by hand; the arithmetic is in the comments.

#include "metrics/bleu.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "util/error.h"

namespace s2s::metrics {
namespace {

using Counts = std::vector<std::int64_t>;

BleuResult bleu1(const std::string& hyp, const std::string& ref, const BleuOptions& options = {}) {
  return corpus_bleu({hyp}, {ref}, options);
}

BleuOptions with_smooth(BleuSmooth smooth) {
  BleuOptions options;
  options.smooth = smooth;
  return options;
}

TEST(BleuTest, IdenticalSentenceScores100) {
  const BleuResult r = bleu1("the cat sat on the mat", "the cat sat on the mat");
  EXPECT_DOUBLE_EQ(r.score, 100.0);
  EXPECT_EQ(r.counts, (Counts{6, 5, 4, 3}));
  EXPECT_EQ(r.totals, (Counts{6, 5, 4, 3}));
  EXPECT_DOUBLE_EQ(r.bp, 1.0);
  EXPECT_EQ(r.sys_len, 6);
  EXPECT_EQ(r.ref_len, 6);
}

TEST(BleuTest, OneSubstitutionCountedByHand) {
  // hyp: the cat sat on a mat / ref: the cat sat on the mat
  // 1-grams: the cat sat on mat match, 'a' does not      -> 5/6
  // 2-grams: the-cat cat-sat sat-on match; on-a a-mat no  -> 3/5
  // 3-grams: the-cat-sat cat-sat-on match of 4            -> 2/4
  // 4-grams: the-cat-sat-on matches of 3                  -> 1/3
  // BLEU = (5/6 * 3/5 * 2/4 * 1/3)^(1/4) = (1/12)^(1/4) = 0.5372849659
  const BleuResult r = bleu1("the cat sat on a mat", "the cat sat on the mat");
  EXPECT_EQ(r.counts, (Counts{5, 3, 2, 1}));
  EXPECT_EQ(r.totals, (Counts{6, 5, 4, 3}));
  EXPECT_NEAR(r.score, 100.0 * std::pow(1.0 / 12.0, 0.25), 1e-9);
  EXPECT_NEAR(r.score, 53.72849659, 1e-6);
  EXPECT_NEAR(r.precisions[0], 100.0 * 5 / 6, 1e-12);
}

TEST(BleuTest, ClipsRepeatedNgramsToReferenceCounts) {
  // hyp 'the the the the' / ref 'the cat': 'the' appears once in the ref -> 1/4 unigrams,
  // no bigram matches; the early exit does not apply (1 match), exp smoothing fills in:
  // p2 = 100 / (2 * 3), p3 = 100 / (4 * 2), p4 = 100 / (8 * 1).
  // BP = 1 (4 >= 2). BLEU = (1/4 * 1/6 * 1/8 * 1/8)^(1/4) = (1/1536)^(1/4) = 0.1590
  const BleuResult r = bleu1("the the the the", "the cat");
  EXPECT_EQ(r.counts, (Counts{1, 0, 0, 0}));
  EXPECT_EQ(r.totals, (Counts{4, 3, 2, 1}));
  EXPECT_NEAR(r.score, 100.0 * std::pow(1.0 / 1536.0, 0.25), 1e-9);
}

TEST(BleuTest, BrevityPenaltyForShortHypothesis) {
  // hyp 'the cat sat on the' (5 tokens) is a prefix of the 6-token reference:
  // all n-grams match (5/5, 4/4, 3/3, 2/2), so BLEU = BP = exp(1 - 6/5) = exp(-0.2) = 0.8187307531
  const BleuResult r = bleu1("the cat sat on the", "the cat sat on the mat");
  EXPECT_EQ(r.counts, (Counts{5, 4, 3, 2}));
  EXPECT_NEAR(r.bp, std::exp(-0.2), 1e-12);
  EXPECT_NEAR(r.score, 81.87307531, 1e-6);
  EXPECT_NEAR(r.ratio(), 5.0 / 6.0, 1e-12);
}

TEST(BleuTest, NoBrevityPenaltyForLongHypothesis) {
  const BleuResult r = bleu1("the cat sat on the mat today", "the cat sat on the mat");
  EXPECT_DOUBLE_EQ(r.bp, 1.0);
  EXPECT_EQ(r.sys_len, 7);
  EXPECT_EQ(r.ref_len, 6);
}

// hyp 'a b c d' / ref 'a b x d': 1-grams a b d -> 3/4; 2-grams 'a b' -> 1/3; 3-grams 0/2;
// 4-grams 0/1. The four smoothing methods differ only in orders 3 and 4.
TEST(BleuSmoothingTest, ExpHalvesForEachOrderWithoutMatches) {
  // p3 = 100 / (2 * 2) = 25, p4 = 100 / (4 * 1) = 25
  // BLEU = (3/4 * 1/3 * 1/4 * 1/4)^(1/4) = (1/64)^(1/4) = 0.3535533906
  const BleuResult r = bleu1("a b c d", "a b x d", with_smooth(BleuSmooth::kExp));
  EXPECT_EQ(r.counts, (Counts{3, 1, 0, 0}));
  EXPECT_EQ(r.totals, (Counts{4, 3, 2, 1}));
  EXPECT_NEAR(r.precisions[2], 25.0, 1e-12);
  EXPECT_NEAR(r.precisions[3], 25.0, 1e-12);
  EXPECT_NEAR(r.score, 35.35533906, 1e-6);
  EXPECT_EQ(r.format(),
            "BLEU = 35.36 75.0/33.3/25.0/25.0 (BP = 1.000 ratio = 1.000 hyp_len = 4 ref_len = 4)");
}

TEST(BleuSmoothingTest, FloorUsesPointOneOverTotal) {
  // p3 = 100 * 0.1 / 2 = 5, p4 = 100 * 0.1 / 1 = 10
  // BLEU = (3/4 * 1/3 * 1/20 * 1/10)^(1/4) = (1/800)^(1/4) = 0.1880301547
  const BleuResult r = bleu1("a b c d", "a b x d", with_smooth(BleuSmooth::kFloor));
  EXPECT_NEAR(r.precisions[2], 5.0, 1e-12);
  EXPECT_NEAR(r.precisions[3], 10.0, 1e-12);
  EXPECT_NEAR(r.score, 100.0 * std::pow(1.0 / 800.0, 0.25), 1e-9);
  EXPECT_NEAR(r.score, 18.80301547, 1e-6);
}

TEST(BleuSmoothingTest, AddKAddsOneFromOrderTwo) {
  // p1 = 3/4 (order 1 untouched), p2 = (1+1)/(3+1), p3 = (0+1)/(2+1), p4 = (0+1)/(1+1)
  // BLEU = (3/4 * 1/2 * 1/3 * 1/2)^(1/4) = (1/16)^(1/4) = 1/2
  const BleuResult r = bleu1("a b c d", "a b x d", with_smooth(BleuSmooth::kAddK));
  EXPECT_NEAR(r.score, 50.0, 1e-9);
  EXPECT_EQ(r.counts, (Counts{3, 1, 0, 0}));  // reported before smoothing
}

TEST(BleuSmoothingTest, AddKWithCustomValue) {
  // k = 2: p2 = 3/5, p3 = 2/4, p4 = 2/3 -> BLEU = (3/4 * 3/5 * 1/2 * 2/3)^(1/4) = (3/20)^(1/4)
  BleuOptions options = with_smooth(BleuSmooth::kAddK);
  options.smooth_value = 2.0;
  const BleuResult r = bleu1("a b c d", "a b x d", options);
  EXPECT_NEAR(r.score, 100.0 * std::pow(3.0 / 20.0, 0.25), 1e-9);
  EXPECT_EQ(r.signature(), "nrefs:1|case:mixed|eff:no|tok:13a|smooth:add-k[2.00]|version:2.6.0");
}

TEST(BleuSmoothingTest, NoneGivesZeroThroughMyLog) {
  // p3 = 0 -> my_log(0) = -9999999999 -> exp(-2.5e9) = 0.
  const BleuResult r = bleu1("a b c d", "a b x d", with_smooth(BleuSmooth::kNone));
  EXPECT_EQ(r.score, 0.0);
  EXPECT_EQ(r.precisions[2], 0.0);
  EXPECT_NEAR(r.precisions[1], 100.0 / 3.0, 1e-12);
}

TEST(BleuEdgeTest, ShortHypothesisHasNoFourGramsAndScoresZero) {
  // 'a cat' has no 3- or 4-grams: the precision loop stops at order 3 (total 0), leaving
  // p3 = p4 = 0, even with exp smoothing. BP = exp(1 - 7/2).
  const BleuResult r = bleu1("a cat", "a cat sat on the mat .");
  EXPECT_EQ(r.counts, (Counts{2, 1, 0, 0}));
  EXPECT_EQ(r.totals, (Counts{2, 1, 0, 0}));
  EXPECT_EQ(r.score, 0.0);
  EXPECT_NEAR(r.bp, std::exp(1.0 - 7.0 / 2.0), 1e-12);
  EXPECT_DOUBLE_EQ(r.precisions[0], 100.0);
  EXPECT_EQ(r.precisions[2], 0.0);
}

TEST(BleuEdgeTest, AddKRescuesOrdersWithoutNgrams) {
  // add-k makes total 0 + 1 = 1 and correct 0 + 1 = 1: p3 = p4 = 100 (sacreBLEU's behaviour).
  // p1 = 2/2, p2 = (1+1)/(1+1) -> BLEU = BP = exp(1 - 7/2)
  const BleuResult r = bleu1("a cat", "a cat sat on the mat .", with_smooth(BleuSmooth::kAddK));
  EXPECT_NEAR(r.score, 100.0 * std::exp(1.0 - 7.0 / 2.0), 1e-9);
}

TEST(BleuEdgeTest, EmptyHypothesesScoreZeroWithZeroBrevityPenalty) {
  // sys_len 0 < ref_len 2 + 4 -> bp = 0; no matches -> early exit, precisions all 0.
  const BleuResult r = corpus_bleu({"", ""}, {"a cat", "the dog runs ."});
  EXPECT_EQ(r.score, 0.0);
  EXPECT_EQ(r.bp, 0.0);
  EXPECT_EQ(r.sys_len, 0);
  EXPECT_EQ(r.ref_len, 6);
  EXPECT_EQ(r.totals, (Counts{0, 0, 0, 0}));
  EXPECT_EQ(r.precisions, (std::vector<double>{0.0, 0.0, 0.0, 0.0}));
  EXPECT_EQ(r.format(),
            "BLEU = 0.00 0.0/0.0/0.0/0.0 (BP = 0.000 ratio = 0.000 hyp_len = 0 ref_len = 6)");
}

TEST(BleuEdgeTest, EmptyCorpusScoresZero) {
  const BleuResult r = corpus_bleu({}, {});
  EXPECT_EQ(r.score, 0.0);
  EXPECT_EQ(r.ratio(), 0.0);
}

TEST(BleuCorpusTest, SumsStatisticsOverSentencesBeforeScoring) {
  // Sentence 1 identical (4 tokens: 4/3/2/1 n-grams); sentence 2 'x y' vs 'x z' (1/2 unigrams,
  // 0/1 bigrams). Corpus: counts 5,3,2,1 of totals 6,4,2,1; BP = 1 (6 = 6).
  // BLEU = (5/6 * 3/4 * 2/2 * 1/1)^(1/4) = (5/8)^(1/4) = 0.8891397050
  // (averaging sentence scores would give something else entirely).
  const BleuResult r = corpus_bleu({"a b c d", "x y"}, {"a b c d", "x z"});
  EXPECT_EQ(r.counts, (Counts{5, 3, 2, 1}));
  EXPECT_EQ(r.totals, (Counts{6, 4, 2, 1}));
  EXPECT_NEAR(r.score, 100.0 * std::pow(5.0 / 8.0, 0.25), 1e-9);
}

TEST(BleuCaseTest, LowercaseFoldsBothSides) {
  // Cased: 'The' misses (ref has 'the' twice, hyp's other 'the' matches):
  // 5/6, 4/5, 3/4, 2/3 -> BLEU = (1/3)^(1/4) = 0.7598356857. Lower-cased: identical.
  const std::string hyp = "The cat sat on the mat";
  const std::string ref = "the cat sat on the mat";
  EXPECT_NEAR(bleu1(hyp, ref).score, 100.0 * std::pow(1.0 / 3.0, 0.25), 1e-9);
  BleuOptions lowercase;
  lowercase.lowercase = true;
  const BleuResult r = bleu1(hyp, ref, lowercase);
  EXPECT_DOUBLE_EQ(r.score, 100.0);
  EXPECT_EQ(r.signature(), "nrefs:1|case:lc|eff:no|tok:13a|smooth:exp|version:2.6.0");
}

TEST(BleuTokenizeTest, TokenizerChangesTheCounts) {
  // 13a: 'cat.' -> 'cat .' (3 tokens, all match the ref 'a cat .').
  // none: 'cat.' stays one token and misses 'cat' and '.'.
  BleuOptions none;
  none.tokenize = "none";
  EXPECT_EQ(bleu1("a cat.", "a cat .").counts, (Counts{3, 2, 1, 0}));
  EXPECT_EQ(bleu1("a cat.", "a cat .", none).counts, (Counts{1, 0, 0, 0}));
  BleuOptions chars;
  chars.tokenize = "char";
  // char: a c a t . -> 5 tokens vs 5 tokens, identical.
  EXPECT_EQ(bleu1("a cat.", "a cat .", chars).counts, (Counts{5, 4, 3, 2}));
}

TEST(BleuSignatureTest, DefaultAndVariants) {
  EXPECT_EQ(bleu1("a", "a").signature(),
            "nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0");
  BleuOptions options;
  options.tokenize = "intl";
  options.smooth = BleuSmooth::kFloor;
  EXPECT_EQ(bleu1("a", "a", options).signature(),
            "nrefs:1|case:mixed|eff:no|tok:intl|smooth:floor[0.10]|version:2.6.0");
  options.smooth = BleuSmooth::kAddK;
  EXPECT_EQ(bleu1("a", "a", options).signature(),
            "nrefs:1|case:mixed|eff:no|tok:intl|smooth:add-k[1.00]|version:2.6.0");
  options.smooth = BleuSmooth::kNone;
  EXPECT_EQ(bleu1("a", "a", options).signature(),
            "nrefs:1|case:mixed|eff:no|tok:intl|smooth:none|version:2.6.0");
}

TEST(BleuSmoothTest, ParsesNamesAndRejectsOthers) {
  EXPECT_EQ(parse_bleu_smooth("exp"), BleuSmooth::kExp);
  EXPECT_EQ(parse_bleu_smooth("floor"), BleuSmooth::kFloor);
  EXPECT_EQ(parse_bleu_smooth("add-k"), BleuSmooth::kAddK);
  EXPECT_EQ(parse_bleu_smooth("none"), BleuSmooth::kNone);
  try {
    parse_bleu_smooth("laplace");
    FAIL() << "expected ConfigError";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("add-k"), std::string::npos) << e.what();
  }
}

TEST(BleuErrorTest, MismatchedCountsAreInputErrors) {
  EXPECT_THROW(corpus_bleu({"a", "b"}, {"a"}), InputError);
}

TEST(BleuErrorTest, EmptyReferenceIsRejectedLikeSacreBleu) {
  EXPECT_THROW(corpus_bleu({"a"}, {""}), InputError);
}

TEST(BleuErrorTest, InvalidUtf8IsAnInputError) {
  EXPECT_THROW(corpus_bleu({"a \xFF"}, {"a"}), InputError);
}

TEST(BleuErrorTest, UnknownTokenizerIsAConfigError) {
  BleuOptions options;
  options.tokenize = "moses";
  EXPECT_THROW(corpus_bleu({"a"}, {"a"}, options), ConfigError);
  options.tokenize = "13a";
  options.max_order = 0;
  EXPECT_THROW(corpus_bleu({"a"}, {"a"}, options), ConfigError);
}

TEST(BleuStatsTest, ComputeBleuFromStatistics) {
  // The sacreBLEU-style line of the brief: 65.3/41.2/28.0/19.5 with BP exp(1 - 12634/12345).
  BleuStats stats;
  stats.sys_len = 12345;
  stats.ref_len = 12634;
  stats.totals = {12345, 11345, 10345, 9345};
  stats.counts = {8061, 4674, 2897, 1822};
  const BleuResult r = compute_bleu(stats, BleuOptions{});
  EXPECT_NEAR(r.bp, std::exp(1.0 - 12634.0 / 12345.0), 1e-12);
  EXPECT_EQ(r.format().substr(0, 7), "BLEU = ");
  EXPECT_NE(r.format().find("65.3/41.2/28.0/19.5 (BP = 0.977 ratio = 0.977 hyp_len = 12345 "
                            "ref_len = 12634)"),
            std::string::npos)
      << r.format();
}

}  // namespace
}  // namespace s2s::metrics

namespace s2s::metrics {
namespace {

using References = std::vector<std::vector<std::string>>;

// hyp  "the cat sat on the mat" (6 tokens)
// ref1 "the cat is on the mat" (6), ref2 "there is a cat on the mat" (7)
// Each n-gram is clipped by its largest count in one reference:
//   1-grams: the 2 (ref1), cat, on, mat; sat in none       -> 5 of 6
//   2-grams: the cat, on the, the mat; cat sat, sat on not -> 3 of 5
//   3-grams: on the mat                                    -> 1 of 4
//   4-grams: none                                          -> 0 of 3 (exp smoothing: 1 / (2 x 3))
// ref_len: the closest to 6 is ref1's 6. BLEU = exp((ln 5/6 + ln 3/5 + ln 1/4 + ln 1/6) / 4).
TEST(MultiReferenceBleuTest, ClipsByTheBestReferenceCountedByHand) {
  const auto r =
      corpus_bleu_multi({"the cat sat on the mat"},
                        References{{"the cat is on the mat"}, {"there is a cat on the mat"}});
  EXPECT_EQ(r.counts, (std::vector<std::int64_t>{5, 3, 1, 0}));
  EXPECT_EQ(r.totals, (std::vector<std::int64_t>{6, 5, 4, 3}));
  EXPECT_EQ(r.sys_len, 6);
  EXPECT_EQ(r.ref_len, 6);
  const double expected =
      100.0 *
      std::exp((std::log(5.0 / 6) + std::log(3.0 / 5) + std::log(1.0 / 4) + std::log(1.0 / 6)) / 4);
  EXPECT_NEAR(r.score, expected, 1e-9);
  EXPECT_EQ(r.signature(), "nrefs:2|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0");
}

TEST(MultiReferenceBleuTest, CountsAnNgramUpToItsLargestCountInOneReference) {
  // "the" 3 times; ref1 has it once, ref2 twice: 2 match (not 1 + 2 = 3).
  const auto r = corpus_bleu_multi({"the the the"}, References{{"the cat"}, {"the the dog"}});
  EXPECT_EQ(r.counts[0], 2);
  EXPECT_EQ(r.totals[0], 3);
}

TEST(MultiReferenceBleuTest, ClosestReferenceLengthTakesTheShorterOnATie) {
  // 5 hypothesis tokens; references of 4 and 6 are both 1 away: 4 counts.
  const auto r = corpus_bleu_multi({"a b c d e"}, References{{"a b c d e f"}, {"a b c d"}});
  EXPECT_EQ(r.ref_len, 4);
  EXPECT_DOUBLE_EQ(r.bp, 1.0);
  // 3 tokens against 2 and 5: 2 is closer.
  EXPECT_EQ(corpus_bleu_multi({"a b c"}, References{{"a b c d e"}, {"a b"}}).ref_len, 2);
}

TEST(MultiReferenceBleuTest, ACopiedReferenceChangesNothingButTheSignature) {
  const std::vector<std::string> hyps{"the cat sleeps on the mat", "a dog barks"};
  const std::vector<std::string> refs{"the cat sleeps on a mat", "the dog barks loudly"};
  const auto one = corpus_bleu(hyps, refs);
  const auto two = corpus_bleu_multi(hyps, References{refs, refs});
  EXPECT_EQ(two.counts, one.counts);
  EXPECT_EQ(two.ref_len, one.ref_len);
  EXPECT_DOUBLE_EQ(two.score, one.score);
  EXPECT_EQ(two.nrefs, 2);
}

TEST(MultiReferenceBleuTest, EveryReferenceStreamIsChecked) {
  EXPECT_THROW(corpus_bleu_multi({"a b"}, References{{"a b"}, {}}), InputError);    // 0 lines
  EXPECT_THROW(corpus_bleu_multi({"a b"}, References{{"a b"}, {""}}), InputError);  // empty
  EXPECT_THROW(corpus_bleu_multi({"a b"}, References{}), InputError);               // none
}

}  // namespace
}  // namespace s2s::metrics
