#include "eval/splits.h"

#include <cmath>

#include "checkpoint/load_run.h"
#include "eval/pieces.h"
#include "eval/search.h"
#include "eval/translate.h"
#include "loss/loss.h"
#include "model/int8_linear.h"
#include "run/run_dir.h"
#include "util/error.h"
#include "util/logging.h"

namespace s2s::eval {
namespace {

// The config keys of a split: corpus and gold alignments.
struct SplitKeys {
  const std::string* corpus;
  const std::string* alignments;
};

SplitKeys split_keys(const config::DataConfig& data, const std::string& name) {
  if (name == "test") return {&data.test, &data.test_alignments};
  if (name == "valid") return {&data.valid, &data.valid_alignments};
  std::string valid;
  for (const auto& n : split_names()) valid += (valid.empty() ? "" : ", ") + n;
  throw UserError("unknown split '" + name + "' (valid: " + valid + ")");
}

// Row `row` of a batch's attention [B, T, m, S] (on the CPU) sliced to its real target steps and
// source positions; a compact copy, so the batch tensor can be freed.
torch::Tensor sentence_attention(const torch::Tensor& attention, int64_t row, int64_t steps,
                                 int64_t sources) {
  return attention.select(0, row).slice(0, 0, steps).slice(/*dim=*/2, 0, sources).contiguous();
}

}  // namespace

const std::vector<std::string>& split_names() {
  static const std::vector<std::string> names = {"test", "valid"};
  return names;
}

Split load_split(const config::Config& config, const std::string& name,
                 const data::Tokenizer& src_tokenizer, const data::Tokenizer& tgt_tokenizer) {
  const auto keys = split_keys(config.data, name);
  if (keys.corpus->empty()) {
    throw ConfigError("split '" + name + "' is not configured: data." + name +
                      " is empty in the run's config");
  }
  const auto spec = run::corpus_spec(config.data, *keys.corpus);
  Split split;
  split.name = name;
  split.description = data::describe(spec);
  split.files = data::corpus_files(spec);
  split.pairs = data::read_corpus(spec);
  split.corpus = data::tokenize_corpus(split.pairs, src_tokenizer, tgt_tokenizer);
  split.alignments = *keys.alignments;
  split.pieces = src_tokenizer.has_pieces();
  split.lowercase = config.data.lowercase;
  util::logger("eval")->info("{}: {} sentences from {}", name, split.corpus.size(),
                             split.description);
  return split;
}

Split load_split(const checkpoint::LoadedRun& run, const std::string& name) {
  return load_split(run.config, name, *run.src_tokenizer, *run.tgt_tokenizer);
}

std::vector<Alignment> load_split_alignments(const Split& split) {
  if (split.alignments.empty()) return {};
  auto gold = read_alignments(split.alignments);
  if (gold.size() != split.corpus.size()) {
    throw InputError(split.alignments + ": " + std::to_string(gold.size()) +
                     " alignment lines for " + std::to_string(split.corpus.size()) +
                     " sentences of " + split.description);
  }
  // Gold links index words; with pieces, the word tokenizer's words of the same lines.
  const auto words = [&](const std::string& text, const std::vector<std::string>& tokens) {
    return split.pieces ? words_of(text, split.lowercase).size() : tokens.size();
  };
  for (std::size_t i = 0; i < gold.size(); ++i) {
    check_alignment(gold[i], static_cast<int64_t>(words(split.pairs[i].src, split.corpus.src[i])),
                    static_cast<int64_t>(words(split.pairs[i].tgt, split.corpus.tgt[i])),
                    split.alignments + ":" + std::to_string(i + 1));
  }
  return gold;
}

std::vector<std::vector<std::string>> bounded_sources(
    const std::vector<std::vector<std::string>>& sources, int64_t max_len,
    const std::function<std::string(std::size_t)>& where) {
  constexpr std::size_t kNamed = 5;  // cut lines named one by one; the rest are counted
  const auto limit = static_cast<std::size_t>(max_len);
  std::vector<std::vector<std::string>> out;
  out.reserve(sources.size());
  std::size_t cut = 0;
  for (std::size_t i = 0; i < sources.size(); ++i) {
    const auto& s = sources[i];
    if (s.size() <= limit) {
      out.push_back(s);
      continue;
    }
    if (cut++ < kNamed) {
      util::logger("eval")->warn(
          "{}: source of {} tokens cut to its first {} (evaluation.max_src_len)", where(i),
          s.size(), limit);
    }
    out.emplace_back(s.begin(), s.begin() + static_cast<std::ptrdiff_t>(limit));
  }
  if (cut > kNamed) {
    util::logger("eval")->warn("{} more sources cut to {} tokens (evaluation.max_src_len)",
                               cut - kNamed, limit);
  }
  return out;
}

std::vector<std::size_t> pairs_within(const data::TokenizedCorpus& corpus, int64_t max_len) {
  const auto limit = static_cast<std::size_t>(max_len);
  std::vector<std::size_t> keep;
  keep.reserve(corpus.size());
  for (std::size_t i = 0; i < corpus.size(); ++i) {
    if (corpus.src[i].size() <= limit && corpus.tgt[i].size() <= limit) keep.push_back(i);
  }
  return keep;
}

std::string sentence_origin(const Split& split, std::size_t i) {
  return split.description + ":" + std::to_string(split.corpus.lines[i]);
}

double ForcedScores::loss() const {
  return tokens == 0 ? 0.0 : nll_sum / static_cast<double>(tokens);
}

double ForcedScores::perplexity() const { return std::exp(loss()); }

namespace {

// The members' teacher-forced pass over one batch, combined as decoding combines them
// (eval/ensemble.h): logits [N, V] are the log of the mean probability (normalized, so the
// loss's log-softmax leaves them unchanged), attention [B, T, m, S] the members' mean. One
// member's forward is returned as it is.
model::ForwardOutput ensemble_forward(const Ensemble& models, const batching::Batch& batch,
                                      bool keep_attention) {
  std::vector<model::ForwardOutput> outputs;
  for (auto m : models.members()) {
    outputs.push_back(m->forward(batch.src, batch.src_lengths, batch.tgt_in,
                                 /*teacher_forcing=*/1.0, keep_attention));
  }
  if (outputs.size() == 1) return outputs.front();
  std::vector<torch::Tensor> log_probs, attention;
  for (const auto& o : outputs) {
    // Every member orders the rows the same way: by the batch's target lengths.
    TORCH_CHECK(o.token_index.equal(outputs.front().token_index), "ensemble rows differ");
    log_probs.push_back(torch::log_softmax(o.logits.to(torch::kFloat), /*dim=*/-1));
    attention.push_back(o.attention);
  }
  model::ForwardOutput out;
  out.logits = log_mean_probability(log_probs);
  out.token_index = outputs.front().token_index;
  out.attention = mean_attention(attention, /*head_dim=*/2);
  return out;
}

}  // namespace

ForcedScores teacher_forced_scores(const Ensemble& models, const batching::EncodedCorpus& corpus,
                                   int64_t batch_size, const torch::Device& device,
                                   bool keep_attention, device::Precision precision) {
  torch::NoGradGuard no_grad;
  const device::AutocastGuard autocast(device, precision);
  const model::Int8Scope int8(precision == device::Precision::kInt8);
  const EnsembleEvalMode eval_mode(models.members());
  ForcedScores out;
  if (keep_attention) out.attention.resize(corpus.size());
  const auto src_lengths = corpus.src_lengths(), tgt_lengths = corpus.tgt_lengths();
  for (const auto& indices : length_sorted_batches(src_lengths, batch_size)) {
    const auto batch = batching::make_batch(corpus, indices, device);
    const auto forward = ensemble_forward(models, batch, keep_attention);
    const auto loss = loss::sequence_loss(forward.logits, forward.token_index, batch.tgt_out,
                                          /*label_smoothing=*/0.0);
    out.nll_sum += loss.nll_sum;
    out.tokens += loss.tokens;
    if (!keep_attention || !forward.attention.defined()) continue;
    const auto attention = forward.attention.to(torch::kCPU, torch::kFloat);  // [B, T, m, S]
    for (std::size_t r = 0; r < indices.size(); ++r) {
      const auto i = indices[r];
      out.attention[i] =
          sentence_attention(attention, static_cast<int64_t>(r), tgt_lengths[i], src_lengths[i]);
    }
  }
  return out;
}

}  // namespace s2s::eval
