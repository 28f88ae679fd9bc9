#include "train/training_data.h"

#include <ATen/record_function.h>

#include <numeric>

#include "run/prepare.h"
#include "train/guided_alignment.h"
#include "util/logging.h"

namespace s2s::train {
namespace {

data::BatcherOptions batcher_options(const config::Config& config, int64_t rank,
                                     int64_t world_size) {
  data::BatcherOptions b;
  b.batch_size = config.training.batch_size;
  b.unit = data::parse_batch_unit(config.training.batch_type);
  b.seed = static_cast<uint64_t>(config.seed);
  b.bucket_batches = config.training.bucket_batches;
  b.rank = rank;
  b.world_size = world_size;
  return b;
}

// data.prepared: the tokenizers, vocabularies and pairs of the prepared corpus, batched a window
// at a time (data/batcher.h: WindowBatcher).
void map_prepared(const config::Config& config, const run::RunPaths* vocabularies, int64_t rank,
                  int64_t world_size, TrainingData* t) {
  auto prepared = run::open_prepared(config);
  if (vocabularies != nullptr) run::check_vocabularies(prepared, *vocabularies);
  t->src_tokenizer = std::move(prepared.tokenizers.src);
  t->tgt_tokenizer = std::move(prepared.tokenizers.tgt);
  t->src_vocab = std::move(prepared.src_vocab);
  t->tgt_vocab = std::move(prepared.tgt_vocab);
  t->prepared = prepared.corpus;
  const auto& corpus = *t->prepared;
  data::WindowLengths lengths;
  lengths.size = corpus.size();
  lengths.read = [&corpus](std::size_t first, std::size_t last, std::vector<int64_t>* src,
                           std::vector<int64_t>* tgt) {
    for (std::size_t i = first; i < last; ++i) {
      src->push_back(corpus.src_length(i) + 1);  // </s>
      tgt->push_back(corpus.tgt_length(i) + 1);
    }
  };
  lengths.release = [&corpus](std::size_t first, std::size_t last) { corpus.release(first, last); };
  const auto& h = corpus.header();
  const double mean = (h["src_tokens"].get<double>() + h["tgt_tokens"].get<double>()) /
                          (2.0 * static_cast<double>(std::max<std::size_t>(corpus.size(), 1))) +
                      1.0;
  const auto options = batcher_options(config, rank, world_size);
  t->batcher = std::make_unique<data::WindowBatcher>(std::move(lengths), options,
                                                     data::window_examples(options, mean));
}

}  // namespace

namespace {

// The training split read, tokenized and held in memory, with its vocabularies and batcher.
void load_in_memory(const config::Config& config, const run::RunPaths* vocabularies, int64_t rank,
                    int64_t world_size, TrainingData* t) {
  const auto& d = config.data;
  // A resumed training (or an ensemble's later member) reads the SentencePiece models of a run.
  auto tokenizers = vocabularies != nullptr ? run::run_tokenizers(d, *vocabularies)
                                            : run::training_tokenizers(d, config.seed);
  t->src_tokenizer = std::move(tokenizers.src);
  t->tgt_tokenizer = std::move(tokenizers.tgt);
  t->train_text = data::load_corpus("train", run::corpus_spec(d, d.train), *t->src_tokenizer,
                                    *t->tgt_tokenizer, d.max_len);
  if (vocabularies != nullptr) {
    t->src_vocab = data::Vocab::load(vocabularies->src_vocab());
    t->tgt_vocab = data::Vocab::load(vocabularies->tgt_vocab());
  } else if (run::vocab_from_pieces(*t->src_tokenizer, &t->src_vocab) &&
             run::vocab_from_pieces(*t->tgt_tokenizer, &t->tgt_vocab)) {
    util::logger("data")->info("vocabularies from the SentencePiece pieces");
  } else {
    t->src_vocab = data::Vocab::build(t->train_text.src, {d.src_min_freq, d.src_max_vocab});
    t->tgt_vocab = data::Vocab::build(t->train_text.tgt, {d.tgt_min_freq, d.tgt_max_vocab});
  }
  t->train = batching::encode_corpus(t->train_text, t->src_vocab, t->tgt_vocab);
  if (config.training.guided_alignment.weight > 0) {
    t->alignments = load_train_alignments(d, t->train_text, *t->src_tokenizer);
  }
  t->batcher = std::make_unique<data::Batcher>(t->train.src_lengths(), t->train.tgt_lengths(),
                                               batcher_options(config, rank, world_size));
}

}  // namespace

TrainingData prepare_training_data(const config::Config& config, const run::RunPaths* vocabularies,
                                   int64_t rank, int64_t world_size) {
  const auto& d = config.data;
  TrainingData t;
  if (d.prepared) {
    map_prepared(config, vocabularies, rank, world_size, &t);
  } else {
    load_in_memory(config, vocabularies, rank, world_size, &t);
  }
  util::logger("data")->info("vocabulary: source {}, target {}", t.src_vocab.size(),
                             t.tgt_vocab.size());
  t.valid_text = data::tokenize_corpus(data::read_corpus(run::corpus_spec(d, d.valid)),
                                       *t.src_tokenizer, *t.tgt_tokenizer);
  t.valid = batching::encode_corpus(t.valid_text, t.src_vocab, t.tgt_vocab);
  return t;
}

std::pair<int64_t, int64_t> training_pair_lengths(const TrainingData& data, std::size_t i) {
  if (data.prepared) {
    return {data.prepared->src_length(i) + 1, data.prepared->tgt_length(i) + 2};
  }
  return {static_cast<int64_t>(data.train.src[i].size()),
          static_cast<int64_t>(data.train.tgt[i].size())};
}

namespace {

// The pairs `indices` of a prepared corpus as a small encoded corpus, in that order.
batching::EncodedCorpus gather_prepared(const data::PreparedCorpus& corpus,
                                        const std::vector<std::size_t>& indices) {
  batching::EncodedCorpus rows;
  rows.src.resize(indices.size());
  rows.tgt.resize(indices.size());
  for (std::size_t k = 0; k < indices.size(); ++k) {
    corpus.append_src(indices[k], &rows.src[k]);
    rows.src[k].push_back(data::Vocab::kEos);
    rows.tgt[k].push_back(data::Vocab::kBos);
    corpus.append_tgt(indices[k], &rows.tgt[k]);
    rows.tgt[k].push_back(data::Vocab::kEos);
  }
  return rows;
}

}  // namespace

batching::Batch training_batch(const TrainingData& data, const std::vector<std::size_t>& indices,
                               const torch::Device& device) {
  RECORD_USER_SCOPE("s2s::data");  // experiments/breakdown.h
  if (data.prepared) {
    std::vector<std::size_t> rows(indices.size());
    std::iota(rows.begin(), rows.end(), std::size_t{0});
    auto batch = batching::make_batch(gather_prepared(*data.prepared, indices), rows, device);
    batch.indices = indices;
    return batch;
  }
  auto batch = batching::make_batch(data.train, indices, device);
  if (!data.alignments.empty()) {
    batch.alignment = gold_alignment_matrix(data.alignments, indices, batch.tgt_out.size(1),
                                            batch.src.size(1), device);
  }
  return batch;
}

}  // namespace s2s::train
