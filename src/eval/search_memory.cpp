#include "eval/search_memory.h"

#include <spdlog/fmt/fmt.h>

#include <algorithm>

#include "model/memory_model.h"
#include "util/error.h"
#include "util/system.h"

namespace s2s::eval {

void check_search_memory(const config::Config& config, int64_t tgt_vocab,
                         const SearchOptions& search, int64_t batch_size, std::size_t sentences,
                         int64_t longest_source, torch::Device device, const std::string& what,
                         int64_t members) {
  if (sentences > 0) batch_size = std::min(batch_size, static_cast<int64_t>(sentences));
  const int64_t steps = max_target_length(search, longest_source);
  const bool attention = search.keep_attention && config::uses_attention(config.model);
  const double needed = static_cast<double>(members) *
                        model::search_bytes(config.model, tgt_vocab, batch_size, search.beam_size,
                                            longest_source, steps, attention);
  const double available = util::available_memory_bytes();
  if (!device.is_cpu() || available <= 0 || needed <= available) return;
  throw ConfigError(fmt::format(
      "{} needs about {}: {} sentences (evaluation.batch_size) x {} hypotheses "
      "(evaluation.beam_size, --beam) of up to {} steps (evaluation.max_len_ratio, "
      "max_len_extra) over {} source tokens (evaluation.max_src_len), more than the {} of memory "
      "available; lower one of them",
      what, util::format_bytes(needed), batch_size, search.beam_size, steps, longest_source,
      util::format_bytes(available)));
}

int64_t longest_source(const std::vector<std::vector<std::string>>& sources, int64_t max_src_len) {
  std::size_t longest = 0;
  for (const auto& s : sources) longest = std::max(longest, s.size());
  return std::min(static_cast<int64_t>(longest), max_src_len) + 1;  // + </s>
}

}  // namespace s2s::eval
