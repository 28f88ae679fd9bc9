// The additive scorer's fused step (model/additive_kernel.h, model/additive_step.h) against the
// same step recorded op by op in double: scores and the gradients of the keys, queries and weights,
// with padded positions, a shrinking prefix of rows, and sizes that are not multiples of a vector.
#include "model/additive_kernel.h"

#include <gtest/gtest.h>
#include <torch/torch.h>

#include <limits>

#include "model/scorer.h"
#include "model/step_shared.h"

namespace s2s {
namespace {

void expect_close(const torch::Tensor& got, const torch::Tensor& want, const std::string& what) {
  EXPECT_TRUE(torch::allclose(got.to(torch::kDouble), want.to(torch::kDouble), 1e-4, 1e-6))
      << what << ": max difference "
      << (got.to(torch::kDouble) - want.to(torch::kDouble)).abs().max().item<double>();
}

// The kernel itself on raw tensors against the equations of model/additive_step.h.
TEST(AdditiveKernelTest, ForwardAndBackwardMatchTheFormulasInDouble) {
  torch::manual_seed(3);
  for (const int64_t rows : {1, 3, 64}) {  // 64 x 7 x 37 energies run on several threads
    const int64_t len = 7, hidden = 37;
    const auto keys = torch::randn({rows + 2, len, hidden});  // 2 rows past the step's prefix
    const auto u = torch::randn({rows, hidden}), v = torch::randn({hidden});
    auto d_scores = torch::randn({rows, len});
    d_scores.narrow(1, len - 2, 2).zero_();  // padding: softmax gives it no gradient
    auto energy = torch::empty({rows, len, hidden}), scores = torch::empty({rows, len});
    const model::AdditiveKernelShape shape{rows, len, hidden};
    model::additive_kernel_forward(keys.data_ptr<float>(), u.data_ptr<float>(), v.data_ptr<float>(),
                                   shape, energy.data_ptr<float>(), scores.data_ptr<float>());
    auto d_keys = torch::ones({rows + 2, len, hidden});  // the kernel adds into it
    auto d_u = torch::empty({rows, hidden}), d_v = torch::empty({hidden});
    model::additive_kernel_backward(energy.data_ptr<float>(), v.data_ptr<float>(),
                                    d_scores.data_ptr<float>(), shape, d_keys.data_ptr<float>(),
                                    d_u.data_ptr<float>(), d_v.data_ptr<float>());

    const auto k = keys.to(torch::kDouble).narrow(0, 0, rows);
    const auto e = torch::tanh(k + u.to(torch::kDouble).unsqueeze(1));
    const auto ds = d_scores.to(torch::kDouble).unsqueeze(2);
    const auto da = ds * v.to(torch::kDouble) * (1 - e * e);
    const std::string at = " (rows " + std::to_string(rows) + ")";
    expect_close(energy, e, "energy" + at);
    expect_close(scores, e.matmul(v.to(torch::kDouble)), "scores" + at);
    expect_close(d_keys.narrow(0, 0, rows), da + 1, "d_keys" + at);
    EXPECT_TRUE(d_keys.narrow(0, rows, 2).eq(1).all().item<bool>()) << "rows past the prefix";
    expect_close(d_u, da.sum(1), "d_u" + at);
    expect_close(d_v, (ds * e).sum(std::vector<int64_t>{0, 1}), "d_v" + at);

    // Without the energies (decoding): the same scores.
    auto again = torch::empty({rows, len});
    model::additive_kernel_forward(keys.data_ptr<float>(), u.data_ptr<float>(), v.data_ptr<float>(),
                                   shape, nullptr, again.data_ptr<float>());
    EXPECT_TRUE(torch::equal(again, scores)) << at;
  }
}

// The scorer's training step (fp32: the kernel) against its recorded score() in double, over
// three steps whose rows shrink, with the last two source positions masked.
TEST(AdditiveKernelTest, FusedScorerStepsMatchTheRecordedScorerInDouble) {
  const auto options = model::ScorerOptions(/*key_size=*/6, /*query_size=*/9).hidden_size(40);
  torch::manual_seed(8);
  model::AdditiveScorerImpl fused(options);
  torch::manual_seed(8);
  model::AdditiveScorerImpl recorded(options);
  recorded.to(torch::kDouble);
  const int64_t len = 11;
  const auto keys = torch::randn({64, len, 40}, torch::kFloat);  // W k
  auto mask = torch::zeros({1, len});
  mask.narrow(1, len - 2, 2).fill_(-std::numeric_limits<float>::infinity());
  std::vector<torch::Tensor> queries;
  for (const int64_t rows : {64, 50, 3}) queries.push_back(torch::randn({rows, 9}));

  const auto run = [&](model::AdditiveScorerImpl& scorer, torch::Dtype type, bool shared) {
    const auto k = keys.to(type).requires_grad_();
    std::vector<torch::Tensor> q;
    for (const auto& query : queries) q.push_back(query.to(type).requires_grad_());
    const auto wrapped = shared ? model::share_across_steps(k) : model::StepShared{k, {}, {}};
    torch::Tensor loss = torch::zeros({}, type);
    std::vector<torch::Tensor> scores;
    for (const auto& query : q) {
      const auto s = scorer.score_step(query, wrapped) + mask.to(type);
      scores.push_back(s.detach());
      loss = loss + torch::log_softmax(s, 1).select(1, 0).sum();
    }
    std::vector<torch::Tensor> inputs{k};
    inputs.insert(inputs.end(), q.begin(), q.end());
    inputs.push_back(scorer.named_parameters()["query_layer.weight"]);
    inputs.push_back(scorer.named_parameters()["energy_layer.weight"]);
    auto grads = torch::autograd::grad({loss}, inputs);
    grads.insert(grads.end(), scores.begin(), scores.end());
    return grads;
  };
  const auto got = run(fused, torch::kFloat, /*shared=*/true);
  const auto want = run(recorded, torch::kDouble, /*shared=*/false);
  ASSERT_EQ(got.size(), want.size());
  const std::vector<std::string> names{"keys",          "query 0",       "query 1",
                                       "query 2",       "query weights", "energy weights",
                                       "step 0 scores", "step 1 scores", "step 2 scores"};
  for (std::size_t i = 0; i < got.size(); ++i) expect_close(got[i], want[i], names[i]);

  // Decoding (no autograd) gives the training step's scores.
  const torch::NoGradGuard no_grad;
  const auto decoded = fused.score_step(queries[1], model::share_across_steps(keys));
  expect_close(decoded + mask, got[7], "decoding scores");
}

}  // namespace
}  // namespace s2s
