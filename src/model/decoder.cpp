#include "model/decoder.h"

#include <cmath>

#include "model/dropout.h"
#include "model/gru.h"

namespace s2s::model {
namespace {

torch::Tensor select_or_undefined(const torch::Tensor& t, int64_t dim, const torch::Tensor& index) {
  return t.defined() ? t.index_select(dim, index) : t;
}

}  // namespace

DecoderMemory DecoderMemory::index_select(const torch::Tensor& index) const {
  DecoderMemory out;
  if (attention.projected.tensor.defined()) out.attention = attention.index_select(index);
  out.summary = summary.index_select(0, index);
  out.cells = cells;
  return out;
}

DecoderMemory DecoderMemory::head(int64_t n) const {
  DecoderMemory out;
  if (attention.projected.tensor.defined()) out.attention = attention.head(n);
  out.summary = summary.narrow(0, 0, n);
  out.cells = cells;
  return out;
}

DecoderState DecoderState::head(int64_t n) const {
  const auto rows = [n](const torch::Tensor& t) { return t.defined() ? t.narrow(0, 0, n) : t; };
  return {hidden.narrow(1, 0, n), rows(feed), rows(coverage), step};
}

DecoderState DecoderState::index_select(const torch::Tensor& index) const {
  return {hidden.index_select(1, index), select_or_undefined(feed, 0, index),
          select_or_undefined(coverage, 0, index), step};
}

DecoderImpl::DecoderImpl(const DecoderOptions& o) : options_(o) {
  const bool luong = o.style() == DecoderStyle::kLuong;
  embedding = register_module(
      "embedding",
      torch::nn::Embedding(
          torch::nn::EmbeddingOptions(o.vocab_size(), o.emb_size()).padding_idx(o.pad_id())));
  if (o.attention()) {
    attention = register_module("attention", Attention(*o.attention()));
    context_size_ = attention->context_size();
  } else {
    context_size_ = o.encoder_size();
  }
  const int64_t input_size = o.emb_size() + (luong ? o.hidden_size() : context_size_);
  cells = register_module("cells", torch::nn::ModuleList());
  for (int64_t l = 0; l < o.layers(); ++l) {
    cells->push_back(torch::nn::GRUCell(l == 0 ? input_size : o.hidden_size(), o.hidden_size()));
  }
  if (o.bridge() == Bridge::kTanh) {
    bridge_ = register_module("bridge",
                              torch::nn::Linear(o.encoder_size(), o.layers() * o.hidden_size()));
  }
  int64_t feature_size = o.hidden_size() + context_size_ + o.emb_size();
  if (luong) {
    combine_ = register_module(
        "combine",
        torch::nn::Linear(torch::nn::LinearOptions(context_size_ + o.hidden_size(), o.hidden_size())
                              .bias(false)));
    feature_size = o.hidden_size();
  }
  if (o.tie_embeddings()) {
    // The embeddings are now also the output matrix. At LibTorch's N(0, 1) a logit,
    // sum_j Emb_yj tanh(u_j) over E terms, has a variance of E * E[tanh(u)^2]: a standard
    // deviation of several nats (Multi30k, E = 256: a first loss of 21.8 against log V = 8.3),
    // and the first hundreds of updates go to undoing it. At N(0, 1/E) (fairseq's embedding
    // init) the variance is E[tanh(u)^2] < 1, as an untied output layer starts. model.init
    // schemes other than "pytorch" replace this, as they replace every layer's own.
    torch::NoGradGuard no_grad;
    embedding->weight.normal_(0.0, 1.0 / std::sqrt(static_cast<double>(o.emb_size())));
    embedding->weight[o.pad_id()].zero_();
    pre_output_ = register_module("pre_output", torch::nn::Linear(feature_size, o.emb_size()));
    output_bias_ = register_parameter("output_bias", torch::zeros({o.vocab_size()}));
  } else {
    output_ = register_module("output", torch::nn::Linear(feature_size, o.vocab_size()));
  }
  int8_.output = std::make_shared<Int8Weight>();
  int8_.pre_output = std::make_shared<Int8Weight>();
  for (int64_t l = 0; l < o.layers(); ++l) {
    int8_.ih.push_back(std::make_shared<Int8Weight>());
    int8_.hh.push_back(std::make_shared<Int8Weight>());
  }
  dropout_ = register_module("dropout", torch::nn::Dropout(o.dropout()));
  output_dropout_ = register_module("output_dropout", torch::nn::Dropout(o.output_dropout()));
}

DecoderMemory DecoderImpl::prepare(const EncoderOutput& encoded) {
  const bool bf16 = mixed_precision(encoded.states);  // the cells' products (model/gru_cell.h)
  DecoderMemory memory;
  // The key projections under the caller's autocast: once a batch, they pay in bf16.
  if (has_attention()) memory.attention = attention->prepare(encoded.states, encoded.mask);
  const CpuAutocastOff fp32_on_cpu;
  for (std::size_t l = 0; l < cells->size(); ++l) {
    memory.cells.push_back(
        share_cell(cells->at<torch::nn::GRUCellImpl>(l), bf16 && !int8_decoding()));
    if (int8_decoding()) {
      memory.cells.back().int8_ih = int8_.ih[l];
      memory.cells.back().int8_hh = int8_.hh[l];
    }
  }
  memory.summary = encoded.final;
  return memory;
}

DecoderState DecoderImpl::initial_state(const EncoderOutput& encoded) {
  const CpuAutocastOff fp32_on_cpu;
  const int64_t batch = encoded.final.size(0), layers = options_.layers();
  const int64_t hidden = options_.hidden_size();
  DecoderState state;
  if (bridge_) {
    // s_0 = tanh(W_s [fwd_S; bwd_1]) (Bahdanau et al. 2015, A.2.2), one slice per layer.
    state.hidden = torch::tanh(bridge_(encoded.final))
                       .view({batch, layers, hidden})
                       .transpose(0, 1)
                       .contiguous();
  } else {
    state.hidden = torch::zeros({layers, batch, hidden}, encoded.final.options());
  }
  if (options_.style() == DecoderStyle::kLuong)
    state.feed = torch::zeros({batch, hidden}, encoded.final.options());
  if (has_attention() && attention->options().coverage()) {
    state.coverage =
        torch::zeros({batch, heads(), encoded.states.size(1)}, encoded.final.options());
  }
  return state;
}

torch::Tensor DecoderImpl::attend(const torch::Tensor& query, const DecoderMemory& memory,
                                  DecoderState& state, StepOutput& out) {
  auto attended = attention->forward(query, memory.attention, state.coverage, state.step);
  if (state.coverage.defined()) state.coverage = state.coverage + attended.weights;
  out.attention = attended.weights;
  out.log_prob = attended.log_prob;
  out.entropy = attended.entropy;
  if (attended.log_prob.defined()) out.query = query.detach();
  return attended.context;
}

torch::Tensor DecoderImpl::embed(const torch::Tensor& tokens) {
  const CpuAutocastOff fp32_on_cpu;
  return dropout(dropout_, embedding(tokens));
}

StepOutput DecoderImpl::step(const torch::Tensor& prev, DecoderState& state,
                             const DecoderMemory& memory) {
  return step_embedded(embed(prev), state, memory);
}

StepOutput DecoderImpl::step_embedded(const torch::Tensor& embedded, DecoderState& state,
                                      const DecoderMemory& memory) {
  const CpuAutocastOff fp32_on_cpu;  // bf16 only in logits() on a CPU (model/gru.h)
  const bool luong = options_.style() == DecoderStyle::kLuong;
  StepOutput out;
  torch::Tensor context = memory.summary;  // used as is without attention
  if (!luong && has_attention()) {
    context = attend(state.hidden[options_.layers() - 1], memory, state, out);
  }
  auto x = torch::cat({embedded, luong ? state.feed : context}, /*dim=*/1);
  std::vector<torch::Tensor> hidden;
  hidden.reserve(cells->size());
  for (std::size_t l = 0; l < cells->size(); ++l) {
    auto h = gru_cell_step(memory.cells[l], x, state.hidden[static_cast<int64_t>(l)]);
    x = l + 1 < cells->size() ? dropout(dropout_, h) : h;
    hidden.push_back(h);
  }
  state.hidden = torch::stack(hidden);
  const auto& top = hidden.back();  // s_t [B, H]
  if (luong) {
    if (has_attention()) context = attend(top, memory, state, out);
    state.feed = torch::tanh(combine_(torch::cat({context, top}, /*dim=*/1)));
    out.features = state.feed;
  } else {
    out.features = torch::cat({top, context, embedded}, /*dim=*/1);
  }
  ++state.step;
  return out;
}

torch::Tensor DecoderImpl::logits(const torch::Tensor& features) {
  if (int8_decoding()) {  // eval mode: no dropout
    if (!pre_output_) return int8_.output->linear(features, output_->weight, output_->bias);
    const auto projected =
        torch::tanh(int8_.pre_output->linear(features, pre_output_->weight, pre_output_->bias));
    return int8_.output->linear(projected, embedding->weight, output_bias_);
  }
  if (!pre_output_) return output_(dropout(output_dropout_, features));
  // Tied (Press & Wolf 2017): logits = Emb tanh(W_p f + b_p) + b, Emb [V, E] the target
  // embeddings, so a word's input and output vectors are one; the [F x V] product becomes
  // [F x E] + [E x V].
  const auto projected = torch::tanh(pre_output_(dropout(output_dropout_, features)));  // [..., E]
  return torch::nn::functional::linear(projected, embedding->weight, output_bias_);
}

}  // namespace s2s::model
