#pragma once
// A fixed batch of `rows` sentence pairs over a vocabulary of `vocab` ids (4 and up are words;
// 2 is <s>, 3 is </s>), of source lengths 3 to 6, for tests that need real shapes and padding
// but no corpus.

#include <torch/torch.h>

#include <cstdint>
#include <numeric>
#include <vector>

#include "batching/batch.h"

namespace s2s::test_support {

inline batching::Batch toy_batch(int64_t vocab, int rows = 8) {
  std::vector<std::vector<int64_t>> src, tgt;
  for (int i = 0; i < rows; ++i) {
    const int64_t n = 3 + i % 4;
    std::vector<int64_t> s, t = {2};
    for (int64_t j = 0; j < n; ++j) {
      s.push_back(4 + (i * 7 + j * 3) % (vocab - 4));
      t.push_back(4 + (i * 5 + j) % (vocab - 4));
    }
    s.push_back(3);
    t.push_back(3);
    src.push_back(s);
    tgt.push_back(t);
  }
  const batching::EncodedCorpus corpus{src, tgt};
  std::vector<std::size_t> indices(static_cast<std::size_t>(rows));
  std::iota(indices.begin(), indices.end(), std::size_t{0});
  return batching::make_batch(corpus, indices, torch::kCPU);
}

}  // namespace s2s::test_support
