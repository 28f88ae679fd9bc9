#include "train/memory_check.h"

#include <spdlog/fmt/fmt.h>

#include <algorithm>

#include "eval/search_memory.h"
#include "eval/translate.h"
#include "model/build_model.h"
#include "model/memory_model.h"
#include "util/error.h"
#include "util/system.h"

namespace s2s::train {
namespace {

struct LargestBatch {
  model::BatchExtent extent;
  double bytes = 0.0;
};

// The first epoch's batch whose activations are largest (later epochs mix the same lengths).
LargestBatch largest_batch(const config::Config& config, const TrainingData& data) {
  LargestBatch largest;
  const auto tgt_vocab = static_cast<int64_t>(data.tgt_vocab.size());
  const auto epoch = data.batcher->epoch(0);
  for (std::size_t k = 0; k < epoch->size(); ++k) {
    const auto& indices = epoch->batch(k);
    model::BatchExtent extent{static_cast<int64_t>(indices.size()), 0, 0};
    for (const auto i : indices) {
      const auto [src, tgt] = training_pair_lengths(data, i);
      extent.src_len = std::max(extent.src_len, src);
      extent.tgt_len = std::max(extent.tgt_len, tgt);
    }
    const double bytes = model::training_step_bytes(config.model, tgt_vocab, extent);
    if (bytes > largest.bytes) largest = {extent, bytes};
  }
  return largest;
}

}  // namespace

void check_memory(const config::Config& config, const TrainingData& data, torch::Device device) {
  const double available = util::available_memory_bytes();
  if (!device.is_cpu() || available <= 0) return;
  // Weights, gradients and Adam's two moments: four float copies of every parameter.
  const double parameters = model::expected_parameters(
      config.model, data.src_vocab.size(), data.tgt_vocab.size(), config.training.reinforce);
  const double weights = 4.0 * 4.0 * parameters;
  const auto& m = config.model;
  if (weights > available) {
    throw ConfigError(fmt::format(
        "model.emb_size = {}, model.hidden_size = {} (vocabularies {} and {}) give {:.3g} "
        "parameters: {} for weights, gradients and optimizer state, more than the {} of memory "
        "available",
        m.emb_size, m.hidden_size, data.src_vocab.size(), data.tgt_vocab.size(), parameters,
        util::format_bytes(weights), util::format_bytes(available)));
  }
  const auto batch = largest_batch(config, data);
  if (weights + batch.bytes > available) {
    const auto& t = config.training;
    throw ConfigError(fmt::format(
        "the largest training batch, {} sentences of up to {} source and {} target tokens "
        "(data.max_len = {}{}, training.batch_size = {} {}), needs about {} of activations "
        "besides {} for the weights, more than the {} of memory available; lower data.max_len "
        "or training.batch_size",
        batch.extent.batch, batch.extent.src_len, batch.extent.tgt_len, config.data.max_len,
        config.data.max_len == 0 ? ": no limit" : "", t.batch_size, t.batch_type,
        util::format_bytes(batch.bytes), util::format_bytes(weights),
        util::format_bytes(available)));
  }
  const auto& e = config.evaluation;
  auto search = eval::translate_options(e).search;
  search.keep_attention = e.replace_unk;  // as the validator decodes
  eval::check_search_memory(config, static_cast<int64_t>(data.tgt_vocab.size()), search,
                            e.batch_size, data.valid_text.size(),
                            eval::longest_source(data.valid_text.src, e.max_src_len), device,
                            "validation");
}

}  // namespace s2s::train
