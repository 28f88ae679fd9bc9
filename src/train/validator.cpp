#include "train/validator.h"

#include <algorithm>

#include "data/corpus.h"
#include "eval/scores.h"
#include "eval/splits.h"
#include "eval/translate.h"
#include "metrics/bleu.h"
#include "run/run_dir.h"
#include "util/logging.h"
#include "util/progress.h"

namespace s2s::train {

Validator::Validator(const config::Config& config, const TrainingData& data, torch::Device device,
                     device::Precision precision)
    : evaluation_(config.evaluation),
      num_samples_(config.training.num_samples),
      data_(data),
      device_(device),
      precision_(precision) {
  const auto& d = config.data;
  const auto origin = data::describe(run::corpus_spec(d, d.valid));
  const auto max_len = evaluation_.max_src_len;
  sources_ = eval::bounded_sources(data_.valid_text.src, max_len, [&](std::size_t i) {
    return origin + ":" + std::to_string(data_.valid_text.lines[i]);
  });
  const auto keep = eval::pairs_within(data_.valid_text, max_len);
  if (keep.size() < data_.valid_text.size()) {
    util::logger("data")->warn(
        "valid: {} of {} pairs longer than evaluation.max_src_len = {} tokens left out of the "
        "validation loss",
        data_.valid_text.size() - keep.size(), data_.valid_text.size(), max_len);
  }
  forced_ = batching::encode_corpus(data::select_pairs(data_.valid_text, keep), data_.src_vocab,
                                    data_.tgt_vocab);
}

ValidationResult Validator::validate(model::Seq2Seq& model) const {
  ValidationResult r;
  const auto forced = eval::teacher_forced_scores(model, forced_, evaluation_.batch_size, device_,
                                                  /*keep_attention=*/false, precision_);
  r.loss = forced.loss();
  r.ppl = forced.perplexity();
  // Greedy search, as Joey NMT validates: the beam is for the final evaluation.
  auto options = eval::translate_options(evaluation_);
  options.search.beam_size = 1;
  options.precision = precision_;
  util::ProgressLog progress("valid", "decoding valid");
  options.progress = [&](std::size_t done, std::size_t total) { progress.update(done, total); };
  options.search.keep_attention = evaluation_.replace_unk;
  const eval::Translator translator(model, data_.src_vocab, data_.tgt_vocab, *data_.src_tokenizer,
                                    *data_.tgt_tokenizer, device_);
  const auto hypotheses = eval::texts(translator.translate_tokens(sources_, options));
  const auto& references = data_.valid_text.tgt_raw;
  const auto bleu = metrics::corpus_bleu(hypotheses, references, eval::bleu_options(evaluation_));
  r.bleu = bleu.score;
  r.bleu_signature = bleu.signature();
  const auto n = std::min<std::size_t>(static_cast<std::size_t>(num_samples_), hypotheses.size());
  for (std::size_t i = 0; i < n; ++i) {
    util::logger("valid")->info("example {}: {}", i + 1, references[i]);
    util::logger("valid")->info("  hypothesis: {}", hypotheses[i]);
  }
  return r;
}

}  // namespace s2s::train
