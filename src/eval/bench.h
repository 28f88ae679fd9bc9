#pragma once
// Decoding speed, measured on the path `s2s translate` and validation take (Translator: encode,
// sort by length, batch by evaluation.batch_size, search, detokenize), under inference mode.

#include <torch/torch.h>

#include <cstdint>

#include "config/config.h"
#include "model/seq2seq.h"
#include "train/bench.h"

namespace s2s::eval {

struct DecodeBenchResult {
  int64_t sentences = 0;      // sentences translated
  int64_t output_tokens = 0;  // hypothesis tokens, </s> excluded: the work depends on them
  double seconds = 0.0;       // wall time of the whole translation
  double sentences_per_s() const { return static_cast<double>(sentences) / seconds; }
};

// Translates the first `sentences` validation sources of `data` with beam size `beam` (1 =
// greedy search) and the rest of `evaluation` (length limits, length penalty, batch size).
DecodeBenchResult bench_decoding(const model::Seq2Seq& model, const train::BenchData& data,
                                 const config::EvaluationConfig& evaluation, int64_t beam,
                                 int64_t sentences, torch::Device device);

}  // namespace s2s::eval
