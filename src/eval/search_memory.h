#pragma once
// The start-up check of a search's memory (model/memory_model.h): validation in `train`,
// `evaluate`, `translate` and `attention` refuse a search that cannot fit, naming the keys and
// flags that size it, before any sentence is decoded.

#include <torch/torch.h>

#include <cstdint>
#include <string>

#include "config/config.h"
#include "eval/search.h"

namespace s2s::eval {

// Throws ConfigError when decoding batches of `batch_size` sentences (`sentences` in all; 0:
// not known in advance) of up to `longest_source` tokens (with </s>) with `search` needs more
// than the memory available (on the CPU; other devices and an unreadable /proc/meminfo pass).
// `what`: "validation", "decoding test", ... An ensemble of `members` models holds each one's
// activations (sized here by `config`'s model, the first member's).
void check_search_memory(const config::Config& config, int64_t tgt_vocab,
                         const SearchOptions& search, int64_t batch_size, std::size_t sentences,
                         int64_t longest_source, torch::Device device, const std::string& what,
                         int64_t members = 1);

// The longest source decoding will see among `sources`, cut to evaluation.max_src_len, with
// </s>.
int64_t longest_source(const std::vector<std::vector<std::string>>& sources, int64_t max_src_len);

}  // namespace s2s::eval
