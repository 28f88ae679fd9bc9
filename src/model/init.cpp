#include "model/init.h"

#include "util/error.h"

namespace s2s::model {
namespace {

bool is_gru_weight(const std::string& name) {
  return name.find("weight_ih") != std::string::npos || name.find("weight_hh") != std::string::npos;
}

void init_matrix(torch::Tensor w, const std::string& method, double scale) {
  if (method == "xavier_uniform") {
    torch::nn::init::xavier_uniform_(w);
  } else if (method == "xavier_normal") {
    torch::nn::init::xavier_normal_(w);
  } else if (method == "uniform") {
    torch::nn::init::uniform_(w, -scale, scale);
  } else if (method == "normal") {
    torch::nn::init::normal_(w, 0.0, scale);
  } else {
    throw ConfigError("model.init: unknown value '" + method +
                      "' (valid: xavier_uniform, xavier_normal, uniform, normal)");
  }
}

}  // namespace

void initialize(torch::nn::Module& model, const std::string& method, double scale) {
  torch::NoGradGuard no_grad;
  for (auto& item : model.named_parameters()) {
    const std::string& name = item.key();
    auto& p = item.value();
    if (p.dim() == 1) {
      // Biases start at zero; other vectors (LayerNorm gains) keep their own initialization.
      if (name.size() >= 4 && name.compare(name.size() - 4, 4, "bias") == 0) p.zero_();
    } else if (is_gru_weight(name)) {
      // [3H, I] = [W_r; W_z; W_n]: each gate block is its own matrix.
      for (auto& gate : p.chunk(3, /*dim=*/0)) init_matrix(gate, method, scale);
    } else {
      init_matrix(p, method, scale);
    }
  }
  for (auto& module : model.modules()) {
    if (auto* emb = module->as<torch::nn::EmbeddingImpl>()) {
      if (emb->options.padding_idx()) emb->weight[*emb->options.padding_idx()].zero_();
    }
  }
}

}  // namespace s2s::model
