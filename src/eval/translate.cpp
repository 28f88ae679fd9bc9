#include "eval/translate.h"

#include <algorithm>
#include <numeric>

#include "checkpoint/load_run.h"
#include "model/int8_linear.h"

namespace s2s::eval {

TranslateOptions translate_options(const config::EvaluationConfig& e) {
  TranslateOptions o;
  o.search.beam_size = e.beam_size;
  o.search.length_penalty = e.length_penalty;
  o.search.beam_rule = config::beam_rule(e);
  o.search.beam_prune = e.beam_prune;
  o.search.n_best = 1;
  o.search.max_len_ratio = e.max_len_ratio;
  o.search.max_len_extra = e.max_len_extra;
  o.batch_size = e.batch_size;
  o.replace_unk = e.replace_unk;
  return o;
}

Translator::Translator(Ensemble models, const data::Vocab& src_vocab, const data::Vocab& tgt_vocab,
                       const data::Tokenizer& src_tokenizer, const data::Tokenizer& tgt_tokenizer,
                       torch::Device device)
    : models_(std::move(models)),
      src_vocab_(src_vocab),
      tgt_vocab_(tgt_vocab),
      src_tokenizer_(src_tokenizer),
      tgt_tokenizer_(tgt_tokenizer),
      device_(device) {}

Translator::Translator(const checkpoint::LoadedRun& run)
    : Translator(Ensemble(run.members), run.src_vocab, run.tgt_vocab, *run.src_tokenizer,
                 *run.tgt_tokenizer, run.device) {}

std::vector<Translation> Translator::translate_tokens(
    const std::vector<std::vector<std::string>>& sources, const TranslateOptions& options) const {
  std::vector<std::vector<int64_t>> ids;
  std::vector<int64_t> lengths;
  ids.reserve(sources.size());
  for (const auto& s : sources) {
    ids.push_back(src_vocab_.encode(s, /*add_bos=*/false, /*add_eos=*/true));
    lengths.push_back(static_cast<int64_t>(s.size()));  // 0 = empty input, not decoded
  }
  std::vector<Translation> out(sources.size());
  for (auto& t : out) t.n_best = {Candidate{}};  // empty inputs stay so
  const device::AutocastGuard autocast(device_, options.precision);
  const model::Int8Scope int8(options.precision == device::Precision::kInt8);
  std::size_t done = sources.size();
  for (const auto& l : lengths) done -= l > 0 ? 1 : 0;
  for (const auto& indices : length_sorted_batches(lengths, options.batch_size)) {
    const auto batch = batching::make_source_batch(ids, indices, device_);
    const auto hypotheses = search(models_, batch, options.search);
    for (std::size_t r = 0; r < indices.size(); ++r) {
      const auto i = indices[r];
      // search returns at least one hypothesis per row: </s> is always allowed.
      out[i] = finish(sources[i], hypotheses[r].front(), options.replace_unk);
      out[i].n_best.clear();
      for (const auto& h : hypotheses[r]) {
        const auto tokens = tgt_vocab_.decode(h.tokens);
        out[i].n_best.push_back({tgt_tokenizer_.detokenize(tokens), h.score, h.normalized_score});
      }
      out[i].n_best.front().text = out[i].text;  // with <unk> replaced, as the best is
    }
    done += indices.size();
    if (options.progress) options.progress(done, sources.size());
  }
  return out;
}

std::vector<Translation> Translator::translate_lines(const std::vector<std::string>& lines,
                                                     const TranslateOptions& options) const {
  std::vector<std::vector<std::string>> sources;
  sources.reserve(lines.size());
  for (const auto& line : lines) sources.push_back(src_tokenizer_.tokenize(line));
  return translate_tokens(sources, options);
}

Translation Translator::finish(const std::vector<std::string>& source, const Hypothesis& hypothesis,
                               bool replace_unk) const {
  Translation t;
  t.source = source;
  t.tokens = tgt_vocab_.decode(hypothesis.tokens);
  if (replace_unk) {
    t.tokens = replace_unknown(t.tokens, hypothesis.tokens, source, hypothesis.attention);
  }
  t.text = tgt_tokenizer_.detokenize(t.tokens);
  t.score = hypothesis.score;
  t.attention = hypothesis.attention;
  return t;
}

std::vector<std::string> texts(const std::vector<Translation>& translations) {
  std::vector<std::string> out;
  out.reserve(translations.size());
  for (const auto& t : translations) out.push_back(t.text);
  return out;
}

std::vector<std::string> replace_unknown(std::vector<std::string> tokens,
                                         const std::vector<int64_t>& ids,
                                         const std::vector<std::string>& source,
                                         const torch::Tensor& attention) {
  // Search never emits <pad> or <s>, so decoded tokens and ids line up one to one.
  if (!attention.defined() || source.empty() || tokens.size() != ids.size()) return tokens;
  const auto n_src = static_cast<int64_t>(source.size());
  // [T + 1, m, S + 1] -> mean over heads, real source positions only: [T + 1, S]
  const auto weights = attention.mean(/*dim=*/1).slice(/*dim=*/1, 0, n_src);
  const auto best = weights.argmax(/*dim=*/1).to(torch::kCPU, torch::kLong).contiguous();
  const auto* data = best.data_ptr<int64_t>();
  for (std::size_t t = 0; t < tokens.size(); ++t) {
    if (ids[t] == data::Vocab::kUnk) tokens[t] = source[static_cast<std::size_t>(data[t])];
  }
  return tokens;
}

std::vector<std::vector<std::size_t>> length_sorted_batches(const std::vector<int64_t>& lengths,
                                                            int64_t batch_size) {
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < lengths.size(); ++i) {
    if (lengths[i] > 0) order.push_back(i);
  }
  std::stable_sort(order.begin(), order.end(),
                   [&lengths](std::size_t a, std::size_t b) { return lengths[a] > lengths[b]; });
  std::vector<std::vector<std::size_t>> batches;
  const auto size = static_cast<std::size_t>(std::max<int64_t>(batch_size, 1));
  for (std::size_t start = 0; start < order.size(); start += size) {
    const auto end = std::min(order.size(), start + size);
    batches.emplace_back(order.begin() + static_cast<std::ptrdiff_t>(start),
                         order.begin() + static_cast<std::ptrdiff_t>(end));
  }
  return batches;
}

}  // namespace s2s::eval
