// The training pass decodes rows sorted by target length and drops a row once its target has
// ended. That must be invisible: every sentence of a padded, unsorted batch gets exactly the
// token scores, attention and REINFORCE terms it gets alone, in the caller's row order.

#include "model/seq2seq.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "batching/batch.h"
#include "config/config.h"
#include "data/vocab.h"
#include "loss/loss.h"
#include "model/build_model.h"

namespace s2s::model {
namespace {

using data::Vocab;
constexpr int64_t kVocab = 11;

struct PassCase {
  std::string style;
  std::string hard;  // "none" or "argmax" (deterministic, so a single sentence can repeat it)
  double teacher_forcing;
};

std::string case_name(const testing::TestParamInfo<PassCase>& info) {
  const auto& c = info.param;
  return c.style + "_hard_" + c.hard + (c.teacher_forcing < 1 ? "_own_predictions" : "_gold");
}

// Sources and targets of different lengths, deliberately not sorted by either.
batching::EncodedCorpus corpus() {
  const std::vector<std::vector<int64_t>> src = {
      {5, 6, Vocab::kEos}, {7, 8, 9, 10, 5, Vocab::kEos}, {4, Vocab::kEos}, {9, 9, 6, Vocab::kEos}};
  const std::vector<std::vector<int64_t>> tgt = {{Vocab::kBos, 4, 5, 6, 7, 8, Vocab::kEos},
                                                 {Vocab::kBos, 9, Vocab::kEos},
                                                 {Vocab::kBos, 10, 4, 8, Vocab::kEos},
                                                 {Vocab::kBos, Vocab::kEos}};
  return {src, tgt};
}

class PackedPassTest : public testing::TestWithParam<PassCase> {
 protected:
  void SetUp() override {
    torch::manual_seed(7);
    config::ModelConfig m;
    m.emb_size = 6;
    m.hidden_size = 8;
    m.decoder.style = GetParam().style;
    m.attention.hard = GetParam().hard;
    model_ = build_model(m, kVocab, kVocab);
    model_->train();  // dropout is 0: training mode only switches hard attention on
  }

  struct Pass {
    loss::LossResult loss;
    ForwardOutput out;
  };
  Pass run(const std::vector<std::size_t>& rows) {
    const auto batch = batching::make_batch(data_, rows, torch::kCPU);
    auto out = model_->forward(batch.src, batch.src_lengths, batch.tgt_in,
                               GetParam().teacher_forcing, /*keep_attention=*/true);
    auto loss = loss::sequence_loss(out.logits, out.token_index, batch.tgt_out, 0.0);
    return {loss, out};
  }

  batching::EncodedCorpus data_ = corpus();
  Seq2Seq model_{nullptr};
};

TEST_P(PackedPassTest, EverySentenceScoresAsItDoesAlone) {
  const std::vector<std::size_t> all = {0, 1, 2, 3};
  const auto batch = run(all);
  int64_t tokens = 0;
  for (std::size_t r = 0; r < all.size(); ++r) {
    const auto alone = run({r});
    const auto steps = static_cast<int64_t>(data_.tgt[r].size()) - 1;
    const auto row = static_cast<int64_t>(r);
    tokens += steps;
    EXPECT_TRUE(torch::allclose(batch.loss.token_nll[row].narrow(0, 0, steps),
                                alone.loss.token_nll[0], 1e-5, 1e-6))
        << "sentence " << r;
    EXPECT_EQ(batch.loss.token_nll[row]
                  .narrow(0, steps, batch.loss.token_nll.size(1) - steps)
                  .abs()
                  .sum()
                  .item<double>(),
              0.0);
    const auto src_len = static_cast<int64_t>(data_.src[r].size());
    const auto attention = batch.out.attention[row];  // [T, m, S]
    EXPECT_TRUE(torch::allclose(attention.narrow(0, 0, steps).narrow(2, 0, src_len),
                                alone.out.attention[0], 1e-5, 1e-6))
        << "sentence " << r;
    EXPECT_EQ(attention.narrow(0, steps, attention.size(0) - steps).abs().sum().item<double>(),
              0.0);  // padded steps: zero attention
    if (GetParam().hard != "none") {
      EXPECT_TRUE(torch::allclose(batch.out.sample_log_prob[row].narrow(0, 0, steps),
                                  alone.out.sample_log_prob[0], 1e-5, 1e-6));
    }
  }
  EXPECT_EQ(batch.loss.tokens, tokens);
  EXPECT_EQ(batch.out.logits.size(0), tokens);  // no row decodes past its </s>
}

TEST_P(PackedPassTest, TokenIndexNamesEveryRealTargetPositionOnce) {
  const auto batch = batching::make_batch(data_, {0, 1, 2, 3}, torch::kCPU);
  const auto out =
      model_->forward(batch.src, batch.src_lengths, batch.tgt_in, GetParam().teacher_forcing);
  const auto real = batch.tgt_out.reshape({-1}).ne(Vocab::kPad).nonzero().squeeze(1);
  EXPECT_TRUE(torch::equal(std::get<0>(out.token_index.sort()), real));
}

INSTANTIATE_TEST_SUITE_P(Styles, PackedPassTest,
                         testing::Values(PassCase{"bahdanau", "none", 1.0},
                                         PassCase{"luong", "none", 1.0},
                                         PassCase{"bahdanau", "none", 0.0},
                                         PassCase{"bahdanau", "argmax", 1.0},
                                         PassCase{"luong", "argmax", 0.0}),
                         case_name);

}  // namespace
}  // namespace s2s::model
