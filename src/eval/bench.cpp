#include "eval/bench.h"

#include <algorithm>
#include <chrono>
#include <vector>

#include "eval/translate.h"

namespace s2s::eval {

DecodeBenchResult bench_decoding(const model::Seq2Seq& model, const train::BenchData& data,
                                 const config::EvaluationConfig& evaluation, int64_t beam,
                                 int64_t sentences, torch::Device device) {
  const auto n = std::min(data.valid_sources.size(), static_cast<std::size_t>(sentences));
  const std::vector<std::vector<std::string>> sources(
      data.valid_sources.begin(), data.valid_sources.begin() + static_cast<std::ptrdiff_t>(n));
  auto options = translate_options(evaluation);
  options.search.beam_size = beam;
  options.search.keep_attention = evaluation.replace_unk;  // as validation does
  const Translator translator(model, data.src_vocab, data.tgt_vocab, *data.src_tokenizer,
                              *data.tgt_tokenizer, device);
  std::vector<Translation> translations;
  const auto start = std::chrono::steady_clock::now();
  {
    c10::InferenceMode inference;  // no autograd bookkeeping at all (search adds NoGradGuard)
    translations = translator.translate_tokens(sources, options);
  }
  DecodeBenchResult r;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  r.sentences = static_cast<int64_t>(n);
  for (const auto& t : translations) r.output_tokens += static_cast<int64_t>(t.tokens.size());
  return r;
}

}  // namespace s2s::eval
