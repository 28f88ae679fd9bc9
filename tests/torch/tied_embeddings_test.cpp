// Tied decoder embeddings (model.decoder.tie_embeddings): the output layer's rows are the target
// embeddings, logits = Emb tanh(W_p f) + b. Checks that the logits really read the embedding
// matrix, that gradients of the loss reach it through the output, that the first logits are
// as spread as an untied layer's, the parameter count, and that checkpoints of untied models
// keep their description.

#include <gtest/gtest.h>

#include <string>

#include "config/config.h"
#include "model/build_model.h"
#include "run/run_dir.h"

namespace s2s::model {
namespace {

constexpr int64_t kVocab = 13;

config::ModelConfig tied(const std::string& style) {
  config::ModelConfig m;
  m.emb_size = 6;
  m.hidden_size = 8;
  m.decoder.style = style;
  m.decoder.tie_embeddings = true;
  return m;
}

TEST(TiedEmbeddingsTest, LogitsAreScoresAgainstTheEmbeddings) {
  torch::manual_seed(3);
  auto model = build_model(tied("bahdanau"), kVocab, kVocab);
  auto& decoder = model->decoder;
  const int64_t features = 8 + 16 + 6;  // H + C + E
  const auto f = torch::randn({4, features});
  torch::NoGradGuard no_grad;
  const auto before = decoder->logits(f);
  ASSERT_EQ(before.sizes(), (torch::IntArrayRef{4, kVocab}));
  // Changing word 5's embedding changes its logit, and only its.
  decoder->embedding->weight[5] += 1.0;
  const auto after = decoder->logits(f);
  const auto changed = (after - before).abs().gt(1e-6).any(0);
  for (int64_t v = 0; v < kVocab; ++v) EXPECT_EQ(changed[v].item<bool>(), v == 5) << v;
}

TEST(TiedEmbeddingsTest, TheOutputTrainsTheEmbeddings) {
  torch::manual_seed(4);
  auto model = build_model(tied("luong"), kVocab, kVocab);
  const auto f = torch::randn({5, 8});  // luong: features are the attentional state [B, H]
  const auto target = torch::tensor({4, 7, 9, 11, 12}, torch::kLong);
  torch::nn::functional::cross_entropy(model->decoder->logits(f), target).backward();
  const auto grad = model->decoder->embedding->weight.grad();
  ASSERT_TRUE(grad.defined());
  // The softmax touches every row: all embeddings get gradient from the output alone.
  EXPECT_TRUE(grad.abs().sum(1).gt(0).all().item<bool>());
}

// With PyTorch's init the tied embeddings start at N(0, 1/E), not N(0, 1): the first logits of a
// Multi30k-sized model then spread about as the untied layer's, and the first loss is near
// log V rather than 2.6 times it.
TEST(TiedEmbeddingsTest, FirstLogitsSpreadAsUntiedOnes) {
  torch::manual_seed(6);
  config::ModelConfig m;
  m.emb_size = 256;
  m.hidden_size = 256;
  m.init = "pytorch";
  const int64_t vocab = 4001;
  const auto features = torch::randn({64, 256 + 512 + 256});  // H + C + E, bahdanau
  const auto untied = build_model(m, vocab, vocab)->decoder->logits(features);
  m.decoder.tie_embeddings = true;
  auto tied_model = build_model(m, vocab, vocab);
  const auto logits = tied_model->decoder->logits(features);
  const double tied_std = logits.std().item<double>(), untied_std = untied.std().item<double>();
  EXPECT_LT(tied_std, 2.0 * untied_std) << tied_std << " against " << untied_std;
  EXPECT_GT(tied_std, 0.25 * untied_std) << tied_std << " against " << untied_std;
  const auto emb = tied_model->decoder->embedding->weight;
  EXPECT_NEAR(emb.slice(0, 1).std().item<double>(), 1.0 / 16.0, 0.002);  // 1/sqrt(256)
  EXPECT_EQ(emb[0].abs().sum().item<double>(), 0.0);                     // <pad> stays zero
}

TEST(TiedEmbeddingsTest, ParametersAsCountedAndFewerThanUntied) {
  for (const std::string style : {"bahdanau", "luong"}) {
    auto m = tied(style);
    const auto tied_model = build_model(m, kVocab, 40);
    EXPECT_EQ(count_parameters(*tied_model),
              static_cast<int64_t>(expected_parameters(m, kVocab, 40)))
        << style;
    m.decoder.tie_embeddings = false;
    const auto untied_model = build_model(m, kVocab, 40);
    EXPECT_EQ(count_parameters(*untied_model),
              static_cast<int64_t>(expected_parameters(m, kVocab, 40)))
        << style;
    EXPECT_LT(count_parameters(*tied_model), count_parameters(*untied_model)) << style;
  }
}

TEST(TiedEmbeddingsTest, UntiedSignatureIsUnchanged) {
  auto m = tied("bahdanau");
  EXPECT_NE(run::model_signature(m, 10, 10).find("\"tie_embeddings\":true"), std::string::npos);
  m.decoder.tie_embeddings = false;
  EXPECT_EQ(run::model_signature(m, 10, 10).find("tie_embeddings"), std::string::npos);
}

}  // namespace
}  // namespace s2s::model
