#include "model/init.h"

#include "util/strings.h"

namespace s2s::model {
namespace {

bool is_gru_weight(const std::string& name) {
  return name.find("weight_ih") != std::string::npos || name.find("weight_hh") != std::string::npos;
}

void xavier_uniform(torch::Tensor w, double) { torch::nn::init::xavier_uniform_(w); }
void xavier_normal(torch::Tensor w, double) { torch::nn::init::xavier_normal_(w); }
void uniform(torch::Tensor w, double scale) { torch::nn::init::uniform_(w, -scale, scale); }
void normal(torch::Tensor w, double scale) { torch::nn::init::normal_(w, 0.0, scale); }

}  // namespace

const std::vector<InitScheme>& init_registry() {
  static const std::vector<InitScheme> registry = {
      {"xavier_uniform", xavier_uniform},
      {"xavier_normal", xavier_normal},
      {"uniform", uniform},
      {"normal", normal},
      {"pytorch", nullptr},  // each layer's own initialization, as LibTorch constructs it
  };
  return registry;
}

std::vector<std::string> init_names() {
  std::vector<std::string> names;
  for (const auto& scheme : init_registry()) names.emplace_back(scheme.name);
  return names;
}

void initialize(torch::nn::Module& model, const std::string& method, double scale) {
  const InitScheme* scheme = nullptr;
  for (const auto& s : init_registry()) {
    if (method == s.name) scheme = &s;
  }
  TORCH_CHECK(scheme != nullptr, "unknown init scheme '", method,
              "' (valid: ", util::join(init_names(), ", "), ")");
  if (scheme->init == nullptr) return;
  torch::NoGradGuard no_grad;
  for (auto& item : model.named_parameters()) {
    const std::string& name = item.key();
    auto& p = item.value();
    if (p.dim() == 1) {
      // Biases start at zero; other vectors (LayerNorm gains) keep their own initialization.
      if (name.size() >= 4 && name.compare(name.size() - 4, 4, "bias") == 0) p.zero_();
    } else if (is_gru_weight(name)) {
      // [3H, I] = [W_r; W_z; W_n]: each gate block is its own matrix.
      for (auto& gate : p.chunk(3, /*dim=*/0)) scheme->init(gate, scale);
    } else {
      scheme->init(p, scale);
    }
  }
  for (auto& module : model.modules()) {
    if (auto* emb = module->as<torch::nn::EmbeddingImpl>()) {
      if (emb->options.padding_idx()) emb->weight[*emb->options.padding_idx()].zero_();
    }
  }
}

}  // namespace s2s::model
