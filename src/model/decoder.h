#pragma once
// GRU decoder, one step at a time, in one of two arrangements:
//
// bahdanau (Bahdanau et al. 2015, sec. 3.1; the arrangement of the seed article):
//   c_t, a_t = attend(query = s_{t-1})          previous state is the query
//   s_t      = GRU([e(y_{t-1}); c_t], s_{t-1})  context fed into the GRU input
//   features = [s_t; c_t; e(y_{t-1})]           what the output layer sees
// luong (Luong et al. 2015, sec. 3, with input feeding, sec. 3.3):
//   s_t      = GRU([e(y_{t-1}); h~_{t-1}], s_{t-1})
//   c_t, a_t = attend(query = s_t)              current state is the query
//   h~_t     = tanh(W_c [c_t; s_t])             attentional hidden state = features
// logits_t = W_out output_dropout(features_t), or with tie_embeddings
// Emb tanh(W_p output_dropout(features_t)) + b: applied by the caller, for all steps at once when
// it can. `dropout` acts on e(y_{t-1}) (the same mask for the GRU input and the features, as
// the reference PyTorch implementations do) and between GRU layers.
//
// Without attention (scorer "none") c_t is the fixed encoder summary [fwd_S; bwd_1] at every step
// (Cho et al. 2014), the baseline that shows what attention adds.
//
// Shapes: B batch, S source length, E embedding size, H decoder hidden, L layers,
// C context size, m attention heads.

#include <torch/torch.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/attention.h"
#include "model/encoder.h"
#include "model/gru_cell.h"
#include "model/int8_linear.h"

namespace s2s::model {

// Where attention sits in the decoder step (see above), and the initial decoder state: a tanh
// projection of the encoder summary, or zeros (model.decoder.style and bridge,
// config/choices.h).
using config::Bridge;
using config::DecoderStyle;

struct DecoderOptions {
  DecoderOptions(int64_t vocab_size, int64_t emb_size, int64_t hidden_size, int64_t encoder_size)
      : vocab_size_(vocab_size),
        emb_size_(emb_size),
        hidden_size_(hidden_size),
        encoder_size_(encoder_size) {}
  TORCH_ARG(int64_t, vocab_size);
  TORCH_ARG(int64_t, emb_size);
  TORCH_ARG(int64_t, hidden_size);
  TORCH_ARG(int64_t, encoder_size);  // size of one encoder state (2 x encoder hidden)
  TORCH_ARG(DecoderStyle, style) = DecoderStyle::kBahdanau;
  TORCH_ARG(int64_t, layers) = 1;
  TORCH_ARG(double, dropout) = 0.0;         // on the embeddings and between GRU layers
  TORCH_ARG(double, output_dropout) = 0.0;  // on the output layer's input
  TORCH_ARG(Bridge, bridge) = Bridge::kTanh;
  TORCH_ARG(bool, tie_embeddings) = false;  // the output layer reuses the embedding matrix
  TORCH_ARG(int64_t, pad_id) = 0;
  TORCH_ARG(std::optional<AttentionOptions>, attention) = std::nullopt;  // nullopt = no attention
};

// Everything the decoder reads from the source, fixed for the whole sentence.
struct DecoderMemory {
  AttentionMemory attention;    // undefined tensors without attention
  torch::Tensor summary;        // [B, 2He] encoder summary: the context without attention
  std::vector<StepCell> cells;  // the GRU cells' weights for this batch's steps (model/gru_cell.h)
  DecoderMemory index_select(const torch::Tensor& index) const;
  DecoderMemory head(int64_t n) const;  // the first n rows, as views
};

// What changes from step to step.
struct DecoderState {
  torch::Tensor hidden;  // [L, B, H]
  torch::Tensor feed;    // luong: h~_{t-1} [B, H]; bahdanau: undefined
  // Coverage attention: c_t = sum_{tau<t} a_tau [B, m, S], the attention so far; else undefined.
  torch::Tensor coverage;
  int64_t step = 0;  // target steps taken: t of the next step (local-m's window center)
  DecoderState index_select(const torch::Tensor& index) const;
  DecoderState head(int64_t n) const;  // the first n rows, as views
};

struct StepOutput {
  torch::Tensor features;   // [B, F] input of the output layer
  torch::Tensor attention;  // [B, m, S]; undefined without attention
  torch::Tensor log_prob;   // hard attention: [B] log-probability of the chosen positions
  torch::Tensor entropy;    // hard attention: [B] entropy of the attention distributions
  torch::Tensor query;      // hard attention: [B, H] the attention query, detached (it does not
                            // depend on this step's sample: the learned baseline's input)
};

class DecoderImpl : public torch::nn::Module {
 public:
  explicit DecoderImpl(const DecoderOptions& options);

  DecoderMemory prepare(const EncoderOutput& encoded);
  DecoderState initial_state(const EncoderOutput& encoded);
  // prev [B] token ids; advances `state` by one step: step_embedded(embed(prev), ...).
  StepOutput step(const torch::Tensor& prev, DecoderState& state, const DecoderMemory& memory);
  // tokens [...] -> e(tokens) [..., E] with dropout: teacher forcing embeds every step's input
  // at once, so the embedding's backward runs once per batch instead of once per step.
  torch::Tensor embed(const torch::Tensor& tokens);
  // embedded [B, E] = embed(prev).
  StepOutput step_embedded(const torch::Tensor& embedded, DecoderState& state,
                           const DecoderMemory& memory);
  // features [..., F] -> logits [..., V]
  torch::Tensor logits(const torch::Tensor& features);

  bool has_attention() const { return !attention.is_empty(); }
  int64_t heads() const { return has_attention() ? attention->heads() : 0; }
  const DecoderOptions& options() const { return options_; }

  torch::nn::Embedding embedding{nullptr};
  torch::nn::ModuleList cells;  // one GRUCell per layer
  Attention attention{nullptr};

 private:
  // query [B, Dq] -> context [B, C]; the attention weights (and hard-attention terms) go to `out`,
  // and they are added to the state's coverage.
  torch::Tensor attend(const torch::Tensor& query, const DecoderMemory& memory, DecoderState& state,
                       StepOutput& out);

  DecoderOptions options_;
  int64_t context_size_;
  torch::nn::Linear bridge_{nullptr};      // tanh bridge: [B, 2He] -> [B, L * H]
  torch::nn::Linear combine_{nullptr};     // luong: W_c
  torch::nn::Linear output_{nullptr};      // W_out (untied)
  torch::nn::Linear pre_output_{nullptr};  // tied: W_p [F -> E]
  torch::Tensor output_bias_;              // tied: b [V]
  torch::nn::Dropout dropout_{nullptr}, output_dropout_{nullptr};
  // int8 decoding (model/int8_linear.h): the int8 forms of the output layer (W_out, or W_p and
  // Emb when tied) and of each layer's W_ih and W_hh, made when a decoding first needs them.
  struct Int8Products {
    std::shared_ptr<Int8Weight> output, pre_output;
    std::vector<std::shared_ptr<Int8Weight>> ih, hh;
  };
  Int8Products int8_;
};
TORCH_MODULE(Decoder);

}  // namespace s2s::model
