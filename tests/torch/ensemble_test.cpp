// Ensemble decoding (eval/ensemble.h): the combination rule against hand-computed values, an
// ensemble of a model with itself against the model, and ensemble search scores against the
// ensemble's own step-by-step scoring of the hypotheses (which exercises the beam's reordering
// of every member's state).

#include "eval/ensemble.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "config/config.h"
#include "data/vocab.h"
#include "eval/search.h"
#include "eval/splits.h"
#include "model/build_model.h"
#include "util/error.h"

namespace s2s::eval {
namespace {

using data::Vocab;
constexpr int64_t kVocab = 12;

model::Seq2Seq small_model(const std::string& scorer, int64_t heads = 1,
                           const std::string& style = "bahdanau", int64_t vocab = kVocab) {
  config::ModelConfig m;
  m.emb_size = 8;
  m.hidden_size = 8;
  m.decoder.style = style;
  m.attention.scorer = scorer;
  m.attention.heads = heads;
  auto model = model::build_model(m, kVocab, vocab);
  model->eval();
  return model;
}

batching::Batch make_batch(int64_t n) {
  std::vector<std::vector<int64_t>> sources;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t len = 1 + i % 6;
    const auto ids = torch::randint(Vocab::kNumSpecials, kVocab, {len}, torch::kLong);
    std::vector<int64_t> s(ids.data_ptr<int64_t>(), ids.data_ptr<int64_t>() + len);
    s.push_back(Vocab::kEos);
    sources.push_back(s);
  }
  std::vector<std::size_t> indices(sources.size());
  for (std::size_t i = 0; i < indices.size(); ++i) indices[i] = i;
  return batching::make_source_batch(sources, indices, torch::kCPU);
}

SearchOptions options(int64_t beam) {
  SearchOptions o;
  o.beam_size = beam;
  o.n_best = beam;
  o.length_penalty = 0.6;
  o.max_len_ratio = 1.5;
  o.max_len_extra = 3;
  return o;
}

// The ensemble's log p(tokens </s> | source), stepping it along the tokens (batch row `row`).
double stepped_score(const Ensemble& models, const batching::Batch& batch, int64_t row,
                     const std::vector<int64_t>& tokens) {
  torch::NoGradGuard no_grad;
  const auto one = torch::tensor({row}, torch::kLong);
  auto encoded =
      models.encode(batch.src.index_select(0, one), batch.src_lengths.index_select(0, one));
  auto prev = torch::full({1}, Vocab::kBos, torch::kLong);
  double score = 0.0;
  auto gold = tokens;
  gold.push_back(Vocab::kEos);
  for (const auto y : gold) {
    const auto step = models.step(prev, encoded.state, encoded.memory);
    score += step.log_probs[0][y].item<double>();
    prev = torch::full({1}, y, torch::kLong);
  }
  return score;
}

TEST(EnsembleTest, LogMeanProbabilityByHand) {
  // p1 = (0.5, 0.5), p2 = (0.9, 0.1): the mean (0.7, 0.3).
  const auto p1 = torch::tensor({0.5, 0.5}).log(), p2 = torch::tensor({0.9, 0.1}).log();
  const auto combined = log_mean_probability({p1, p2});
  EXPECT_NEAR(combined[0].item<double>(), std::log(0.7), 1e-6);
  EXPECT_NEAR(combined[1].item<double>(), std::log(0.3), 1e-6);
  // Three members, one of which gives a token no probability: it is not vetoed.
  const auto zero = torch::tensor({1.0, 0.0}).log();
  const auto three = log_mean_probability({p1, p2, zero});
  EXPECT_NEAR(three[1].item<double>(), std::log(0.6 / 3.0), 1e-6);
  EXPECT_TRUE(log_mean_probability({p1}).equal(p1));
}

TEST(EnsembleTest, TwoMembersStepIsTheLogMeanOfTheirs) {
  torch::manual_seed(3);
  auto a = small_model("additive"), b = small_model("scaled_dot", 2, "luong");
  const Ensemble both({a, b});
  const auto batch = make_batch(4);
  torch::NoGradGuard no_grad;
  auto encoded = both.encode(batch.src, batch.src_lengths);
  auto ea = a->encode(batch.src, batch.src_lengths), eb = b->encode(batch.src, batch.src_lengths);
  auto prev = torch::full({4}, Vocab::kBos, torch::kLong);
  for (int t = 0; t < 3; ++t) {
    const auto step = both.step(prev, encoded.state, encoded.memory);
    const auto oa = a->decoder->step(prev, ea.state, ea.memory);
    const auto ob = b->decoder->step(prev, eb.state, eb.memory);
    const auto pa = torch::softmax(a->decoder->logits(oa.features), -1).to(torch::kDouble);
    const auto pb = torch::softmax(b->decoder->logits(ob.features), -1).to(torch::kDouble);
    const auto expected = ((pa + pb) / 2).log();
    EXPECT_TRUE(torch::allclose(step.log_probs.to(torch::kDouble), expected, 1e-5, 1e-6));
    EXPECT_TRUE(torch::allclose(step.log_probs.exp().sum(-1), torch::ones({4}), 1e-5, 1e-6));
    // One head of 1 and 2 heads: each averaged over its heads, then the mean of the two.
    const auto attention = (oa.attention.mean(1, true) + ob.attention.mean(1, true)) / 2;
    ASSERT_EQ(step.attention.sizes(), attention.sizes());
    EXPECT_TRUE(torch::allclose(step.attention, attention, 1e-5, 1e-6));
    prev = step.log_probs.argmax(-1);
  }
}

TEST(EnsembleTest, AModelWithItselfDecodesAsTheModel) {
  torch::manual_seed(11);
  for (const auto& scorer : {"additive", "scaled_dot"}) {
    const auto model = small_model(scorer, scorer == std::string("additive") ? 1 : 2);
    const Ensemble twice({model, model});
    const auto batch = make_batch(6);
    for (const int64_t beam : {1, 3}) {
      const auto alone = search(model, batch, options(beam));
      const auto doubled = search(twice, batch, options(beam));
      ASSERT_EQ(alone.size(), doubled.size());
      for (std::size_t r = 0; r < alone.size(); ++r) {
        ASSERT_EQ(alone[r].size(), doubled[r].size()) << scorer << " beam " << beam;
        for (std::size_t k = 0; k < alone[r].size(); ++k) {
          EXPECT_EQ(alone[r][k].tokens, doubled[r][k].tokens) << scorer << " beam " << beam;
          EXPECT_NEAR(alone[r][k].score, doubled[r][k].score, 1e-5);
          EXPECT_TRUE(torch::allclose(alone[r][k].attention, doubled[r][k].attention));
        }
      }
    }
  }
}

TEST(EnsembleTest, SearchScoresAreTheEnsemblesOwn) {
  torch::manual_seed(5);
  const Ensemble models(
      {small_model("additive"), small_model("bilinear"), small_model("dot", 1, "luong")});
  const auto batch = make_batch(5);
  for (const int64_t beam : {1, 4}) {
    const auto hyps = search(models, batch, options(beam));
    for (std::size_t r = 0; r < hyps.size(); ++r) {
      for (const auto& h : hyps[r]) {
        EXPECT_NEAR(h.score, stepped_score(models, batch, static_cast<int64_t>(r), h.tokens), 1e-4)
            << "beam " << beam << " row " << r;
        // The mean attention is a distribution over the real source positions.
        const auto rows = h.attention.sum(-1);
        EXPECT_TRUE(torch::allclose(rows, torch::ones_like(rows), 1e-5, 1e-5));
      }
    }
  }
}

TEST(EnsembleTest, TeacherForcedLossIsThatOfTheMeanDistribution) {
  torch::manual_seed(9);
  auto a = small_model("additive"), b = small_model("scaled_dot");
  batching::EncodedCorpus corpus;
  corpus.src = {{5, 6, 7, Vocab::kEos}, {8, 9, Vocab::kEos}};
  corpus.tgt = {{Vocab::kBos, 5, 6, Vocab::kEos}, {Vocab::kBos, 7, 8, 9, 10, Vocab::kEos}};
  const auto fa = teacher_forced_scores(a, corpus, 2, torch::kCPU, true);
  const auto fb = teacher_forced_scores(b, corpus, 2, torch::kCPU, true);
  const auto both = teacher_forced_scores(Ensemble({a, b}), corpus, 2, torch::kCPU, true);
  EXPECT_EQ(both.tokens, fa.tokens);
  // -log((p + q) / 2) <= (-log p - log q) / 2 per token (Jensen), with equality only where the
  // members agree: two random models do not.
  EXPECT_LT(both.nll_sum, (fa.nll_sum + fb.nll_sum) / 2);
  EXPECT_TRUE(torch::allclose(both.attention[1], (fa.attention[1] + fb.attention[1]) / 2));
  const auto self = teacher_forced_scores(Ensemble({a, a}), corpus, 2, torch::kCPU, true);
  EXPECT_NEAR(self.nll_sum, fa.nll_sum, 1e-4);
}

TEST(EnsembleTest, RefusesMembersOfDifferentTargetVocabularies) {
  const auto a = small_model("additive"), b = small_model("additive", 1, "bahdanau", kVocab + 1);
  try {
    Ensemble({a, b});
    FAIL() << "accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("target vocabulary of 13 tokens, member 1 of 12"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW(Ensemble(std::vector<model::Seq2Seq>{}), InputError);
}

TEST(EnsembleTest, RestoresEveryMembersTrainingMode) {
  auto a = small_model("additive"), b = small_model("dot");
  a->train();
  search(Ensemble({a, b}), make_batch(2), options(2));
  EXPECT_TRUE(a->is_training());
  EXPECT_FALSE(b->is_training());
}

}  // namespace
}  // namespace s2s::eval
