// Guided alignment (training.guided_alignment, data.train_alignments): the gold matrix of a
// batch, word links moved to pieces, the two losses on known attention and their gradients,
// the weight's decay, and reading the gold of a filtered training corpus with its refusals.
// That a model really learns the gold alignment is in tests/integration/guided_alignment_test.

#include "train/guided_alignment.h"

#include <gtest/gtest.h>
#include <torch/torch.h>

#include <cmath>

#include "config/config.h"
#include "data/corpus.h"
#include "data/tokenizer.h"
#include "support/temp_dir.h"
#include "train/attention_loss.h"
#include "util/error.h"

namespace s2s {
namespace {

using config::AlignmentHeads;
using config::GuidedAlignmentLoss;

TEST(GuidedAlignmentTest, GoldRowsAreNormalizedAndUnlinkedRowsZero) {
  // Pair 0: target 0 <- sources 0 and 1; target 1 <- source 2; target 2 unlinked.
  // Pair 1: target 0 <- source 1.
  const std::vector<eval::Alignment> gold = {{{0, 0}, {1, 0}, {2, 1}}, {{1, 0}}};
  const auto g = train::gold_alignment_matrix(gold, {1, 0}, /*steps=*/4, /*sources=*/4,
                                              torch::kCPU);  // rows in batch order
  ASSERT_EQ(g.sizes(), (torch::IntArrayRef{2, 4, 4}));
  const auto expected0 = torch::tensor({{0.5F, 0.5F, 0.0F, 0.0F},
                                        {0.0F, 0.0F, 1.0F, 0.0F},
                                        {0.0F, 0.0F, 0.0F, 0.0F},
                                        {0.0F, 0.0F, 0.0F, 0.0F}});
  EXPECT_TRUE(torch::equal(g[1], expected0));
  EXPECT_EQ(g[0][0][1].item<float>(), 1.0F);
  EXPECT_EQ(g[0].sum().item<float>(), 1.0F);  // one linked row
}

TEST(GuidedAlignmentTest, WordLinksBecomeEveryPairOfTheirPieces) {
  // Source words: 0 = pieces {0, 1}, 1 = piece {2}; target words: 0 = {0}, 1 = {1, 2}.
  const auto pieces = train::piece_alignment({{0, 1}, {1, 0}}, {0, 0, 1}, {0, 1, 1});
  const eval::Alignment expected = {{0, 1}, {0, 2}, {1, 1}, {1, 2}, {2, 0}};
  EXPECT_EQ(pieces, expected);
}

// attention [1, T, m, S] from rows given for one head, repeated over `heads`.
torch::Tensor attention_of(const torch::Tensor& rows, int64_t heads) {
  return rows.unsqueeze(0).unsqueeze(2).repeat({1, 1, heads, 1}).to(torch::kDouble);
}

TEST(GuidedAlignmentTest, LossesOnKnownAttention) {
  const std::vector<eval::Alignment> gold = {{{0, 0}, {2, 1}}};  // target 2 unlinked
  const auto g = train::gold_alignment_matrix(gold, {0}, 3, 3, torch::kCPU);
  // Attention equal to the gold on the linked rows: CE = -2 log(1 + 1e-6), MSE = 0 (the
  // unlinked row, uniform here, is left out).
  const auto exact = attention_of(
      torch::tensor({{1.0, 0.0, 0.0}, {0.0, 0.0, 1.0}, {1.0 / 3, 1.0 / 3, 1.0 / 3}}), 1);
  EXPECT_NEAR(train::guided_alignment_loss(exact, g, GuidedAlignmentLoss::kCrossEntropy,
                                           AlignmentHeads::kMean)
                  .item<double>(),
              -2 * std::log(1 + 1e-6), 1e-6);
  EXPECT_NEAR(train::guided_alignment_loss(exact, g, GuidedAlignmentLoss::kSquaredError,
                                           AlignmentHeads::kMean)
                  .item<double>(),
              0.0, 1e-7);
  // Uniform attention: CE = 2 ln 3; MSE = 2 rows x ((2/3)^2 + 2 (1/3)^2) / 2 = 2/3.
  const auto uniform = attention_of(torch::full({3, 3}, 1.0 / 3), 2);
  EXPECT_NEAR(train::guided_alignment_loss(uniform, g, GuidedAlignmentLoss::kCrossEntropy,
                                           AlignmentHeads::kMean)
                  .item<double>(),
              2 * std::log(3.0), 1e-5);
  EXPECT_NEAR(train::guided_alignment_loss(uniform, g, GuidedAlignmentLoss::kSquaredError,
                                           AlignmentHeads::kFirst)
                  .item<double>(),
              2.0 / 3, 1e-6);
}

TEST(GuidedAlignmentTest, GradientsMatchTheClosedFormsAndReachTheChosenHeads) {
  torch::manual_seed(3);
  const std::vector<eval::Alignment> gold = {{{0, 0}, {1, 0}, {2, 1}}};
  const auto g = train::gold_alignment_matrix(gold, {0}, 3, 4, torch::kCPU).to(torch::kDouble);
  const auto a = torch::softmax(torch::randn({1, 3, 2, 4}, torch::kDouble), -1);
  const auto linked = g.sum(-1, true).gt(0).to(torch::kDouble).unsqueeze(2);  // [1, T, 1, 1]
  for (const auto loss : {GuidedAlignmentLoss::kCrossEntropy, GuidedAlignmentLoss::kSquaredError}) {
    for (const auto heads : {AlignmentHeads::kMean, AlignmentHeads::kFirst}) {
      auto x = a.clone().requires_grad_(true);
      train::guided_alignment_loss(x, g, loss, heads).backward();
      // d/da of the supervised attention a' (the mean, or head 0): CE -G / (a' + eps), MSE
      // (a' - G) on linked rows; the mean spreads it as 1/m over the heads.
      const auto supervised = heads == AlignmentHeads::kMean ? a.mean(2) : a.select(2, 0);
      const auto d = loss == GuidedAlignmentLoss::kCrossEntropy
                         ? -g / (supervised + 1e-6)
                         : (supervised - g) * linked.squeeze(2);
      auto expected = torch::zeros_like(a);
      if (heads == AlignmentHeads::kMean) {
        expected = d.unsqueeze(2).expand_as(a) / 2.0;
      } else {
        expected.select(2, 0).copy_(d);
      }
      EXPECT_TRUE(torch::allclose(x.grad().to(torch::kDouble), expected, 1e-5, 1e-6));
      if (heads == AlignmentHeads::kFirst) {
        EXPECT_TRUE(x.grad().select(2, 1).eq(0).all().item<bool>()) << "head 1 stays free";
      }
    }
  }
}

TEST(GuidedAlignmentTest, WeightDecaysLinearlyToZero) {
  config::GuidedAlignmentConfig c;
  c.weight = 0.5;
  EXPECT_EQ(train::guided_alignment_weight(c, 1000000), 0.5);  // constant
  c.decay_steps = 100;
  EXPECT_DOUBLE_EQ(train::guided_alignment_weight(c, 0), 0.5);
  EXPECT_DOUBLE_EQ(train::guided_alignment_weight(c, 25), 0.375);
  EXPECT_DOUBLE_EQ(train::guided_alignment_weight(c, 100), 0.0);
  EXPECT_DOUBLE_EQ(train::guided_alignment_weight(c, 250), 0.0);
}

class TrainAlignmentsTest : public test_support::TempDirTest {
 protected:
  void SetUp() override {
    write("train.en", "a b\nc d e f g\nh\n");
    write("train.fr", "B A\nx y z w v\nH\n");
    data_.train = path("train");
    data_.src_ext = "en";
    data_.tgt_ext = "fr";
    data_.tokenizer = "whitespace";
    data_.max_len = 3;  // drops line 2
  }
  data::TokenizedCorpus corpus() const {
    return data::load_corpus("train", {"parallel", data_.train, "en", "fr", 0}, tokenizer_,
                             tokenizer_, data_.max_len);
  }
  config::DataConfig data_;
  data::WhitespaceTokenizer tokenizer_;
};

TEST_F(TrainAlignmentsTest, FilteredPairsKeepTheGoldOfTheirLines) {
  data_.train_alignments = write("train.align", "0-1 1-0\n0-0 4-4\n0-0\n");
  const auto gold = train::load_train_alignments(data_, corpus(), tokenizer_);
  ASSERT_EQ(gold.size(), 2U);  // lines 1 and 3
  EXPECT_EQ(gold[0], (eval::Alignment{{0, 1}, {1, 0}}));
  EXPECT_EQ(gold[1], (eval::Alignment{{0, 0}}));
}

TEST_F(TrainAlignmentsTest, RefusesAnotherLineCountOrALinkOutsideItsSentence) {
  // Reading `name` with `contents` throws InputError whose message holds `expected`.
  const auto refused = [&](const std::string& name, const std::string& contents,
                           const std::string& expected) {
    data_.train_alignments = write(name, contents);
    try {
      train::load_train_alignments(data_, corpus(), tokenizer_);
      ADD_FAILURE() << name << " was read";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
    }
  };
  refused("short.align", "0-1 1-0\n0-0\n", "short.align: 2 alignment lines for 3 sentence pairs");
  refused("outside.align", "0-1 1-0\n0-0\n0-1\n", "outside.align:3: link 0-1 lies outside");
  refused("bad.align", "0-1 1-0\n0-0\nx-1\n", "bad.align:3: bad alignment link 'x-1'");
}

}  // namespace
}  // namespace s2s
