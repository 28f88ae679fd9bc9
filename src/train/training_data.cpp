#include "train/training_data.h"

#include <ATen/record_function.h>

#include "train/guided_alignment.h"
#include "util/logging.h"

namespace s2s::train {

TrainingData prepare_training_data(const config::Config& config, const run::RunPaths* vocabularies,
                                   int64_t rank, int64_t world_size) {
  const auto& d = config.data;
  TrainingData t;
  // A resumed training (or an ensemble's later member) reads the SentencePiece models of a run.
  auto tokenizers = vocabularies != nullptr ? run::run_tokenizers(d, *vocabularies)
                                            : run::training_tokenizers(d, config.seed);
  t.src_tokenizer = std::move(tokenizers.src);
  t.tgt_tokenizer = std::move(tokenizers.tgt);
  t.train_text = data::load_corpus("train", run::corpus_spec(d, d.train), *t.src_tokenizer,
                                   *t.tgt_tokenizer, d.max_len);
  t.valid_text = data::tokenize_corpus(data::read_corpus(run::corpus_spec(d, d.valid)),
                                       *t.src_tokenizer, *t.tgt_tokenizer);
  if (vocabularies != nullptr) {
    t.src_vocab = data::Vocab::load(vocabularies->src_vocab());
    t.tgt_vocab = data::Vocab::load(vocabularies->tgt_vocab());
  } else if (run::vocab_from_pieces(*t.src_tokenizer, &t.src_vocab) &&
             run::vocab_from_pieces(*t.tgt_tokenizer, &t.tgt_vocab)) {
    util::logger("data")->info("vocabularies from the SentencePiece pieces");
  } else {
    t.src_vocab = data::Vocab::build(t.train_text.src, {d.src_min_freq, d.src_max_vocab});
    t.tgt_vocab = data::Vocab::build(t.train_text.tgt, {d.tgt_min_freq, d.tgt_max_vocab});
  }
  util::logger("data")->info("vocabulary: source {}, target {}", t.src_vocab.size(),
                             t.tgt_vocab.size());
  t.train = batching::encode_corpus(t.train_text, t.src_vocab, t.tgt_vocab);
  t.valid = batching::encode_corpus(t.valid_text, t.src_vocab, t.tgt_vocab);
  if (config.training.guided_alignment.weight > 0) {
    t.alignments = load_train_alignments(d, t.train_text, *t.src_tokenizer);
  }
  data::BatcherOptions b;
  b.batch_size = config.training.batch_size;
  b.unit = data::parse_batch_unit(config.training.batch_type);
  b.seed = static_cast<uint64_t>(config.seed);
  b.bucket_batches = config.training.bucket_batches;
  b.rank = rank;
  b.world_size = world_size;
  t.batcher = std::make_unique<data::Batcher>(t.train.src_lengths(), t.train.tgt_lengths(), b);
  return t;
}

batching::Batch training_batch(const TrainingData& data, const std::vector<std::size_t>& indices,
                               const torch::Device& device) {
  RECORD_USER_SCOPE("s2s::data");  // experiments/breakdown.h
  auto batch = batching::make_batch(data.train, indices, device);
  if (!data.alignments.empty()) {
    batch.alignment = gold_alignment_matrix(data.alignments, indices, batch.tgt_out.size(1),
                                            batch.src.size(1), device);
  }
  return batch;
}

}  // namespace s2s::train
