// The registries of interchangeable parts (scorers, normalizers, init schemes, optimizers,
// schedules, tokenizers, BLEU tokenizers) and the torch-free name lists the config validates
// against: they must stay equal.

#include <gtest/gtest.h>
#include <torch/torch.h>

#include "config/config.h"
#include "data/tokenizer.h"
#include "metrics/sacre_tokenizers.h"
#include "model/init.h"
#include "model/normalizer.h"
#include "model/scorer.h"
#include "train/optimizer.h"
#include "train/schedule.h"

namespace s2s {
namespace {

TEST(RegistryTest, ConfigNamesEqualTheRegistries) {
  auto scorers = model::scorer_names();
  scorers.emplace_back("none");  // not a scorer: the model without attention
  EXPECT_EQ(config::scorer_names(), scorers);
  EXPECT_EQ(config::normalizer_names(), model::normalizer_names());
  EXPECT_EQ(config::init_names(), model::init_names());
  EXPECT_EQ(config::optimizer_names(), train::optimizer_names());
  EXPECT_EQ(config::schedule_names(), train::schedule_names());
  EXPECT_EQ(config::tokenizer_names(), data::tokenizer_names());
  EXPECT_EQ(config::bleu_tokenizer_names(), metrics::sacre_tokenizer_names());
}

TEST(RegistryTest, EveryScorerBuildsScoresAndCountsItsWork) {
  for (const auto& spec : model::scorer_registry()) {
    SCOPED_TRACE(spec.name);
    const auto options = model::ScorerOptions(8, 8).hidden_size(6);
    auto scorer = spec.make(options);
    const auto keys = torch::randn({2, 5, 8}), query = torch::randn({2, 8});
    const auto projected = scorer->project_keys(keys);
    EXPECT_EQ(projected.size(2), spec.projected_size(options));
    EXPECT_EQ(scorer->score(query, projected).sizes(), (torch::IntArrayRef{2, 5}));
    const auto macs = spec.macs(options);
    EXPECT_GE(macs.per_key, 0);
    EXPECT_GE(macs.per_query, 0);
    EXPECT_GT(macs.per_pair, 0);  // every scorer does some work per (query, key) pair
    if (spec.needs_equal_sizes) {
      EXPECT_THROW(spec.make(model::ScorerOptions(8, 4)), c10::Error);
    } else {
      EXPECT_NO_THROW(spec.make(model::ScorerOptions(8, 4).hidden_size(6)));
    }
  }
}

TEST(RegistryTest, UnknownNamesAreInternalErrorsListingTheValidOnes) {
  try {
    model::scorer_spec("frobnicate");
    FAIL() << "found a scorer named frobnicate";
  } catch (const c10::Error& e) {
    EXPECT_NE(std::string(e.what()).find("additive, dot, scaled_dot, bilinear"), std::string::npos);
  }
  torch::nn::Linear layer(2, 2);
  EXPECT_THROW(model::initialize(*layer, "orthogonal", 1.0), c10::Error);
  config::TrainingConfig training;
  training.optimizer = "adagrad";
  EXPECT_THROW(train::make_optimizer(training, layer->parameters()), c10::Error);
}

TEST(RegistryTest, UsesAttentionIsFalseOnlyForNone) {
  config::ModelConfig m;
  for (const auto& name : config::scorer_names()) {
    m.attention.scorer = name;
    EXPECT_EQ(config::uses_attention(m), name != "none") << name;
  }
}

}  // namespace
}  // namespace s2s
