#include "model/gru.h"

#include <ATen/autocast_mode.h>
#include <ATen/record_function.h>

#include <string>
#include <vector>

#include "model/dropout.h"
#include "model/gru_direction.h"

namespace s2s::model {

bool mixed_precision(const torch::Tensor& like) {
  return like.is_cuda() ? at::autocast::is_enabled() : at::autocast::is_cpu_enabled();
}

CpuAutocastOff::CpuAutocastOff() : was_enabled_(at::autocast::is_cpu_enabled()) {
  if (was_enabled_) at::autocast::set_cpu_enabled(false);
}

CpuAutocastOff::~CpuAutocastOff() {
  if (was_enabled_) at::autocast::set_cpu_enabled(true);
}

AutocastOff::AutocastOff()
    : cpu_(at::autocast::is_cpu_enabled()), gpu_(at::autocast::is_enabled()) {
  at::autocast::set_cpu_enabled(false);
  at::autocast::set_enabled(false);
}

AutocastOff::~AutocastOff() {
  at::autocast::set_cpu_enabled(cpu_);
  at::autocast::set_enabled(gpu_);
}

GruOutput bidirectional_gru(torch::nn::GRUImpl& rnn, const torch::Tensor& x,
                            const torch::Tensor& lengths, double dropout, bool training,
                            bool bf16_hidden) {
  RECORD_USER_SCOPE("s2s::gru");  // experiments/breakdown.h
  const int64_t batch = x.size(0), steps = x.size(1);
  const auto sorted = lengths.to(torch::kLong).sort(/*dim=*/0, /*descending=*/true);
  const auto order = std::get<1>(sorted).to(x.device());
  const auto unsort =
      torch::empty_like(order).scatter_(0, order, torch::arange(batch, order.options()));
  const auto len = std::get<0>(sorted).to(torch::kCPU).contiguous();
  const auto* l_data = len.data_ptr<int64_t>();
  std::vector<int64_t> active(static_cast<std::size_t>(steps));  // rows with length > t
  for (int64_t t = 0; t < steps; ++t) {
    int64_t n = 0;
    while (n < batch && l_data[n] > t) ++n;
    active[static_cast<std::size_t>(t)] = n;
  }
  auto params = rnn.named_parameters(/*recurse=*/false);
  auto input = x.index_select(0, order);
  torch::Tensor fwd_final, bwd_final;
  const int64_t layers = rnn.options.num_layers();
  for (int64_t l = 0; l < layers; ++l) {
    std::vector<torch::Tensor> states;
    for (const bool reverse : {false, true}) {
      const std::string suffix = "_l" + std::to_string(l) + (reverse ? "_reverse" : "");
      // Every step's input projection at once: one [B*S, I] x [I, 3H] product.
      const auto gi_all = torch::nn::functional::linear(input, params["weight_ih" + suffix],
                                                        params["bias_ih" + suffix]);
      auto out = gru_direction(gi_all, params["weight_hh" + suffix], params["bias_hh" + suffix],
                               active, reverse, bf16_hidden);
      states.push_back(out.states);
      (reverse ? bwd_final : fwd_final) = out.final;
    }
    input = torch::cat(states, /*dim=*/2);  // [B, S, 2H]
    if (l + 1 < layers && dropout > 0) {
      input = model::dropout(input, dropout, training);
    }
  }
  return {input.index_select(0, unsort),
          torch::cat({fwd_final, bwd_final}, /*dim=*/1).index_select(0, unsort)};
}

}  // namespace s2s::model
