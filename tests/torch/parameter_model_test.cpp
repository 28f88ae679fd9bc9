// The architecture is described three times: the modules, expected_parameters (build_model.cpp,
// which refuses a model too large before allocating it) and the FLOP model of `s2s bench`
// (experiments/flops.cpp). These tests hold the two formulas against the model build_model
// really builds, for every scorer x decoder style x option that changes the count.

#include <gtest/gtest.h>
#include <torch/torch.h>

#include <string>
#include <vector>

#include "config/config.h"
#include "experiments/flops.h"
#include "model/build_model.h"

namespace s2s {
namespace {

constexpr int64_t kSrcVocab = 23, kTgtVocab = 31;

// One config: a scorer, a decoder style and the options that change the parameter count.
struct Variant {
  std::string scorer, style;
  bool tied = false, key_value = false, self_attention = false, learned_baseline = false;
  int64_t heads = 1, rank = 0, size = 0, layers = 1;
  std::string bridge = "tanh";
};

std::string describe(const Variant& v) {
  return v.scorer + "/" + v.style + (v.tied ? " tied" : "") + (v.key_value ? " kv" : "") +
         (v.self_attention ? " self" : "") + (v.learned_baseline ? " baseline" : "") +
         " heads=" + std::to_string(v.heads) + " rank=" + std::to_string(v.rank) +
         " size=" + std::to_string(v.size) + " layers=" + std::to_string(v.layers) +
         " bridge=" + v.bridge;
}

config::ModelConfig model_config(const Variant& v) {
  config::ModelConfig m;
  m.emb_size = 6;
  m.hidden_size = 8;
  m.attention.scorer = v.scorer;
  m.attention.heads = v.heads;
  m.attention.rank = v.rank;
  m.attention.size = v.size;
  m.attention.key_value = v.key_value;
  m.decoder.style = v.style;
  m.decoder.tie_embeddings = v.tied;
  m.decoder.layers = v.layers;
  m.decoder.bridge = v.bridge;
  m.encoder.layers = v.layers;
  m.encoder.self_attention = v.self_attention;
  m.encoder.self_attention_heads = 2;
  if (v.learned_baseline) m.attention.hard = "sample";
  return m;
}

// Every scorer the config accepts (the registry's and "none") with both decoder styles, each
// alone and with each option that changes the count; "none" takes no attention options.
std::vector<Variant> variants() {
  using Option = void (*)(Variant&);
  const std::vector<Option> any_scorer = {
      [](Variant&) {},
      [](Variant& v) { v.tied = true; },
      [](Variant& v) { v.self_attention = true; },
      [](Variant& v) { v.layers = 2; },
      [](Variant& v) { v.bridge = "zero"; },
  };
  const std::vector<Option> with_attention = {
      [](Variant& v) { v.key_value = true; },
      [](Variant& v) { v.heads = 2; },
      [](Variant& v) {
        v.key_value = true;
        v.heads = 2;
        v.size = 12;
      },
      [](Variant& v) { v.learned_baseline = true; },
  };
  std::vector<Variant> out;
  const auto add = [&](const Variant& base, const std::vector<Option>& options) {
    for (const auto option : options) {
      auto v = base;
      option(v);
      out.push_back(v);
    }
  };
  for (const auto& style : config::choice_names<config::DecoderStyle>()) {
    for (const auto& scorer : config::scorer_names()) {
      const Variant base{scorer, style};
      add(base, any_scorer);
      if (scorer != "none") add(base, with_attention);
    }
    out.push_back({"bilinear", style, false, false, false, false, 1, 3});  // low rank
  }
  return out;
}

int64_t numel_of(const torch::nn::Module& model, const std::vector<std::string>& names) {
  int64_t n = 0;
  const auto params = model.named_parameters();
  for (const auto& name : names) {
    const auto* p = params.find(name);
    EXPECT_NE(p, nullptr) << "no parameter " << name;
    if (p != nullptr) n += p->numel();
  }
  return n;
}

TEST(ParameterModelTest, ExpectedParametersEqualTheBuiltModel) {
  for (const auto& v : variants()) {
    SCOPED_TRACE(describe(v));
    const auto m = model_config(v);
    const config::ReinforceConfig reinforce;  // baseline "learned"
    torch::manual_seed(1);
    const auto model = model::build_model(m, kSrcVocab, kTgtVocab, reinforce);
    EXPECT_EQ(model::count_parameters(*model),
              static_cast<int64_t>(model::expected_parameters(m, kSrcVocab, kTgtVocab, reinforce)));
  }
}

// Without attention every term of the FLOP model is one weight matrix applied once per token,
// step or sentence, so its multiply-adds equal the matrix's size: the encoder's per source
// token, the decoder cells', the Luong combination's and the output layer's per decoder step,
// the bridge's per sentence.
TEST(ParameterModelTest, FlopModelTermsEqualTheBuiltWeights) {
  for (const auto& style : config::choice_names<config::DecoderStyle>()) {
    for (const bool tied : {false, true}) {
      for (const int64_t layers : {1, 2}) {
        Variant v{"none", style};
        v.tied = tied;
        v.layers = layers;
        SCOPED_TRACE(describe(v));
        const auto m = model_config(v);
        const auto model = model::build_model(m, kSrcVocab, kTgtVocab);
        std::vector<std::string> encoder,
            decoder{tied ? "decoder.pre_output.weight" : "decoder.output.weight"};
        if (tied) decoder.emplace_back("decoder.embedding.weight");  // E V, the tied output
        if (style == "luong") decoder.emplace_back("decoder.combine.weight");
        for (int64_t l = 0; l < layers; ++l) {
          const auto layer = std::to_string(l);
          for (const char* kind : {"weight_ih_l", "weight_hh_l"}) {
            encoder.push_back(std::string("encoder.rnn.") + kind + layer);
            encoder.push_back(std::string("encoder.rnn.") + kind + layer + "_reverse");
          }
          decoder.push_back("decoder.cells." + layer + ".weight_ih");
          decoder.push_back("decoder.cells." + layer + ".weight_hh");
        }
        const auto macs = [&](int64_t batch, int64_t src_tokens, int64_t steps) {
          return experiments::forward_macs(m, kTgtVocab, {batch, 1, src_tokens, steps});
        };
        EXPECT_EQ(macs(0, 1, 0), numel_of(*model, encoder));
        EXPECT_EQ(macs(0, 0, 1), numel_of(*model, decoder));
        EXPECT_EQ(macs(1, 0, 0), numel_of(*model, {"decoder.bridge.weight"}));
      }
    }
  }
}

}  // namespace
}  // namespace s2s
