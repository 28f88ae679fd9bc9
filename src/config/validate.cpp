// Range and choice rules of the config, one per line, checked once before anything is built.

#include <algorithm>
#include <filesystem>
#include <sstream>

#include "config/config.h"
#include "config/json_io.h"
#include "util/error.h"
#include "util/strings.h"

namespace s2s::config {
namespace {

template <class T>
std::string to_text(const T& value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

template <class T>
void require(bool ok, const char* key, const char* rule, const T& value) {
  if (!ok) throw ConfigError(std::string(key) + " " + rule + ", got " + to_text(value));
}

void require_choice(const char* key, const std::string& value,
                    const std::vector<std::string>& choices) {
  if (std::find(choices.begin(), choices.end(), value) != choices.end()) return;
  throw_unknown_choice(key, value, choices);
}

// A key whose values are a choice table (config/choices.h).
template <class E>
void require_choice(const char* key, const std::string& value) {
  parse_choice<E>(value, key);
}

bool is_device(const std::string& device) {
  if (device == "auto" || device == "cpu" || device == "cuda") return true;
  if (device.rfind("cuda:", 0) != 0 || device.size() == 5) return false;
  return std::all_of(device.begin() + 5, device.end(), [](char c) { return c >= '0' && c <= '9'; });
}

void validate_data(const DataConfig& d) {
  require_choice<CorpusFormat>("data.format", d.format);
  require_choice("data.tokenizer", d.tokenizer, tokenizer_names());
  require(d.max_len >= 0, "data.max_len", "must be >= 0 (0 = no limit)", d.max_len);
  require(d.max_line_bytes >= 1 && d.max_line_bytes <= kMaxLineBytes, "data.max_line_bytes",
          "must be in [1, 1073741824]", d.max_line_bytes);
  require(d.src_min_freq >= 1, "data.src_min_freq", "must be >= 1", d.src_min_freq);
  require(d.tgt_min_freq >= 1, "data.tgt_min_freq", "must be >= 1", d.tgt_min_freq);
  require(d.src_max_vocab == 0 || d.src_max_vocab > 4, "data.src_max_vocab",
          "must be 0 (no cap) or more than the 4 special tokens", d.src_max_vocab);
  require(d.tgt_max_vocab == 0 || d.tgt_max_vocab > 4, "data.tgt_max_vocab",
          "must be 0 (no cap) or more than the 4 special tokens", d.tgt_max_vocab);
  const auto& sp = d.sentencepiece;
  require(sp.vocab_size >= 16, "data.sentencepiece.vocab_size", "must be >= 16", sp.vocab_size);
  require_choice("data.sentencepiece.model_type", sp.model_type, {"unigram", "bpe"});
  require(sp.character_coverage > 0.0 && sp.character_coverage <= 1.0,
          "data.sentencepiece.character_coverage", "must be in (0, 1]", sp.character_coverage);
  require(sp.input_sentence_size >= 0, "data.sentencepiece.input_sentence_size",
          "must be >= 0 (0 = all)", sp.input_sentence_size);
  require(sp.model.empty() || sp.joint, "data.sentencepiece.model",
          "is one model for both languages: needs data.sentencepiece.joint = true", sp.model);
  if (corpus_format(d) == CorpusFormat::kParallel) {
    require(!d.src_ext.empty(), "data.src_ext", "must not be empty", "\"\"");
    require(!d.tgt_ext.empty(), "data.tgt_ext", "must not be empty", "\"\"");
    require(d.src_ext != d.tgt_ext, "data.tgt_ext", "must differ from data.src_ext", d.tgt_ext);
  }
}

void validate_model(const ModelConfig& m) {
  require(m.emb_size > 0, "model.emb_size", "must be > 0", m.emb_size);
  require(m.hidden_size > 0, "model.hidden_size", "must be > 0", m.hidden_size);
  require_choice("model.init", m.init, init_names());
  require(m.init_scale > 0, "model.init_scale", "must be > 0", m.init_scale);
  require(m.encoder.layers >= 1, "model.encoder.layers", "must be >= 1", m.encoder.layers);
  require(m.encoder.dropout >= 0 && m.encoder.dropout < 1, "model.encoder.dropout",
          "must be in [0, 1)", m.encoder.dropout);
  require(m.encoder.output_dropout >= 0 && m.encoder.output_dropout < 1,
          "model.encoder.output_dropout", "must be in [0, 1)", m.encoder.output_dropout);
  require(m.encoder.self_attention_heads >= 1, "model.encoder.self_attention_heads", "must be >= 1",
          m.encoder.self_attention_heads);
  require(!m.encoder.self_attention || (2 * m.hidden_size) % m.encoder.self_attention_heads == 0,
          "model.encoder.self_attention_heads",
          "must divide the encoder state size (2 * model.hidden_size)",
          m.encoder.self_attention_heads);
  require_choice<DecoderStyle>("model.decoder.style", m.decoder.style);
  require(m.decoder.layers >= 1, "model.decoder.layers", "must be >= 1", m.decoder.layers);
  require(m.decoder.dropout >= 0 && m.decoder.dropout < 1, "model.decoder.dropout",
          "must be in [0, 1)", m.decoder.dropout);
  require(m.decoder.output_dropout >= 0 && m.decoder.output_dropout < 1,
          "model.decoder.output_dropout", "must be in [0, 1)", m.decoder.output_dropout);
  require_choice<Bridge>("model.decoder.bridge", m.decoder.bridge);

  const AttentionConfig& a = m.attention;
  require_choice("model.attention.scorer", a.scorer, scorer_names());
  require_choice("model.attention.normalizer", a.normalizer, normalizer_names());
  require(a.size >= 0, "model.attention.size", "must be >= 0 (0 = decoder hidden size)", a.size);
  require(a.heads >= 1, "model.attention.heads", "must be >= 1", a.heads);
  // Heads split the attention size and the key/value size (encoder states 2H, or A with
  // key_value) into equal slices.
  const int64_t size = a.size > 0 ? a.size : m.hidden_size;
  const int64_t key_size = a.key_value ? size : 2 * m.hidden_size;
  if (size % a.heads != 0 || key_size % a.heads != 0) {
    throw ConfigError("model.attention.heads must divide the attention size (" +
                      std::to_string(size) + ") and the key size (" + std::to_string(key_size) +
                      "), got " + std::to_string(a.heads));
  }
  require_choice<HardAttention>("model.attention.hard", a.hard);
  require_choice("model.attention.hard_eval", a.hard_eval, {"argmax", "sample"});
  require(hard_attention(a) == HardAttention::kSoft || uses_attention(m), "model.attention.hard",
          "needs an attention scorer (model.attention.scorer is none)", a.hard);
  require(!a.coverage || uses_attention(m), "model.attention.coverage",
          "needs an attention scorer (model.attention.scorer is none)", "true");
  require_choice<LocalAttention>("model.attention.local", a.local);
  require(a.window >= 1 && a.window <= kMaxSrcLen, "model.attention.window",
          "must be in [1, 100000]", a.window);
  require(local_attention(a) == LocalAttention::kGlobal || uses_attention(m),
          "model.attention.local", "needs an attention scorer (model.attention.scorer is none)",
          a.local);
  require(a.rank >= 0, "model.attention.rank", "must be >= 0 (0 = full bilinear)", a.rank);
  require(a.rank == 0 || a.scorer == "bilinear", "model.attention.rank",
          "is only used by the bilinear scorer; set it to 0", a.rank);
}

void validate_training(const TrainingConfig& t) {
  require_choice("training.optimizer", t.optimizer, optimizer_names());
  require(t.learning_rate > 0, "training.learning_rate", "must be > 0", t.learning_rate);
  require(t.momentum >= 0 && t.momentum < 1, "training.momentum", "must be in [0, 1)", t.momentum);
  require(t.weight_decay >= 0, "training.weight_decay", "must be >= 0", t.weight_decay);
  require(t.clip_grad_norm >= 0, "training.clip_grad_norm", "must be >= 0 (0 = off)",
          t.clip_grad_norm);
  require(t.teacher_forcing >= 0 && t.teacher_forcing <= 1, "training.teacher_forcing",
          "must be in [0, 1]", t.teacher_forcing);
  require(t.label_smoothing >= 0 && t.label_smoothing < 1, "training.label_smoothing",
          "must be in [0, 1)", t.label_smoothing);
  require(t.batch_size >= 1, "training.batch_size", "must be >= 1", t.batch_size);
  require(t.coverage_loss >= 0, "training.coverage_loss", "must be >= 0 (0 = off)",
          t.coverage_loss);
  require_choice<BatchUnit>("training.batch_type", t.batch_type);
  require(t.bucket_batches >= 0, "training.bucket_batches", "must be >= 0", t.bucket_batches);
  require(t.epochs >= 1, "training.epochs", "must be >= 1", t.epochs);
  require(t.max_steps >= 0, "training.max_steps", "must be >= 0 (0 = no limit)", t.max_steps);
  require_choice("training.lr_schedule", t.lr_schedule, schedule_names());
  require(t.warmup_steps >= 0, "training.warmup_steps", "must be >= 0 (0 = no warm-up)",
          t.warmup_steps);
  require(t.lr_schedule != "inverse_sqrt" || t.warmup_steps >= 1, "training.warmup_steps",
          "must be >= 1 with lr_schedule \"inverse_sqrt\"", t.warmup_steps);
  require(t.lr_decay > 0 && t.lr_decay < 1, "training.lr_decay", "must be in (0, 1)", t.lr_decay);
  require(t.lr_patience >= 0, "training.lr_patience", "must be >= 0", t.lr_patience);
  require(t.min_lr >= 0, "training.min_lr", "must be >= 0", t.min_lr);
  require(t.validate_every >= 0, "training.validate_every", "must be >= 0 (0 = each epoch)",
          t.validate_every);
  require(t.log_every >= 1, "training.log_every", "must be >= 1", t.log_every);
  require(t.checkpoint_every >= 0, "training.checkpoint_every", "must be >= 0 (0 = off)",
          t.checkpoint_every);
  require(t.checkpoint_every_minutes >= 0, "training.checkpoint_every_minutes",
          "must be >= 0 (0 = off)", t.checkpoint_every_minutes);
  require(t.average_last == 0 || t.average_last >= 2, "training.average_last",
          "must be 0 (off) or >= 2", t.average_last);
  require(t.average_last == 0 || t.keep_step_checkpoints, "training.average_last",
          "needs training.keep_step_checkpoints = true", t.average_last);
  require(t.members >= 1 && t.members <= kMaxMembers, "training.members", "must be in [1, 16]",
          t.members);
  static_assert(kMaxMembers == 16, "the rule above names the bound");
  require_choice<StoppingMetric>("training.early_stopping_metric", t.early_stopping_metric);
  require(t.patience >= 0, "training.patience", "must be >= 0 (0 = off)", t.patience);
  require(t.num_samples >= 0, "training.num_samples", "must be >= 0", t.num_samples);
  require(t.threads >= 0 && t.threads <= 1024, "training.threads",
          "must be in [0, 1024] (0 = one per free core)", t.threads);
  require_choice<PrecisionMode>("training.precision", t.precision);
  require(precision_mode(t.precision, "training.precision") != PrecisionMode::kInt8,
          "training.precision",
          "must be auto, fp32 or bf16 (int8 is for decoding: evaluation.precision)", t.precision);
  require(t.dist_timeout_s > 0, "training.dist_timeout_s", "must be > 0", t.dist_timeout_s);
  const ReinforceConfig& r = t.reinforce;
  require_choice<ReinforceBaseline>("training.reinforce.baseline", r.baseline);
  require(r.baseline_decay >= 0 && r.baseline_decay < 1, "training.reinforce.baseline_decay",
          "must be in [0, 1)", r.baseline_decay);
  require(r.samples >= 1, "training.reinforce.samples", "must be >= 1", r.samples);
  require(reinforce_baseline(r) != ReinforceBaseline::kLeaveOneOut || r.samples >= 2,
          "training.reinforce.samples", "must be >= 2 for the leave_one_out baseline", r.samples);
  require(r.weight >= 0, "training.reinforce.weight", "must be >= 0", r.weight);
  require(r.entropy_weight >= 0, "training.reinforce.entropy_weight", "must be >= 0",
          r.entropy_weight);
  require(r.p_expect >= 0 && r.p_expect <= 1, "training.reinforce.p_expect", "must be in [0, 1]",
          r.p_expect);
  require_choice<ReinforceReward>("training.reinforce.reward", r.reward);
  const GuidedAlignmentConfig& g = t.guided_alignment;
  require(g.weight >= 0, "training.guided_alignment.weight", "must be >= 0 (0 = off)", g.weight);
  require_choice<GuidedAlignmentLoss>("training.guided_alignment.loss", g.loss);
  require(g.decay_steps >= 0, "training.guided_alignment.decay_steps",
          "must be >= 0 (0 = constant)", g.decay_steps);
  require_choice<AlignmentHeads>("training.guided_alignment.heads", g.heads);
}

void validate_evaluation(const EvaluationConfig& e) {
  require(e.beam_size >= 1 && e.beam_size <= kMaxBeamSize, "evaluation.beam_size",
          "must be in [1, 100]", e.beam_size);
  require(e.length_penalty >= 0, "evaluation.length_penalty", "must be >= 0", e.length_penalty);
  require(e.beam_prune >= 0, "evaluation.beam_prune", "must be >= 0", e.beam_prune);
  require(e.n_best >= 1 && e.n_best <= e.beam_size, "evaluation.n_best",
          "must be in [1, evaluation.beam_size]", e.n_best);
  // Bounds on the longest hypothesis, ratio x source + extra: beyond them a decoder would ask
  // for memory no machine has (Marian's max-length-factor defaults to 3).
  require(e.max_len_ratio > 0 && e.max_len_ratio <= 100, "evaluation.max_len_ratio",
          "must be in (0, 100]", e.max_len_ratio);
  require(e.max_len_extra >= 0 && e.max_len_extra <= 10000, "evaluation.max_len_extra",
          "must be in [0, 10000]", e.max_len_extra);
  require(e.batch_size >= 1, "evaluation.batch_size", "must be >= 1", e.batch_size);
  require_choice("evaluation.bleu_tokenize", e.bleu_tokenize, bleu_tokenizer_names());
  require(e.heatmaps >= 0, "evaluation.heatmaps", "must be >= 0", e.heatmaps);
  require(e.max_src_len >= 1 && e.max_src_len <= kMaxSrcLen, "evaluation.max_src_len",
          "must be in [1, 100000]", e.max_src_len);
  require_choice<PrecisionMode>("evaluation.precision", e.precision);
  require_choice<BeamRule>("evaluation.beam_rule", e.beam_rule);
}

void require_corpus(const DataConfig& d, const char* key, const std::string& path, bool needed) {
  if (path.empty()) {
    if (needed) throw ConfigError(std::string(key) + " must name a corpus");
    return;
  }
  std::vector<std::string> files;
  if (corpus_format(d) == CorpusFormat::kTsv) {
    files = {path};
  } else {
    files = {path + "." + d.src_ext, path + "." + d.tgt_ext};
  }
  for (const auto& file : files) {
    if (!std::filesystem::is_regular_file(file)) {
      throw ConfigError(std::string(key) + ": file not found: " + file);
    }
  }
}

void require_file(const char* key, const std::string& path) {
  if (!path.empty() && !std::filesystem::is_regular_file(path)) {
    throw ConfigError(std::string(key) + ": file not found: " + path);
  }
}

}  // namespace

const std::vector<std::string>& scorer_names() {
  static const std::vector<std::string> names = {"additive", "dot", "scaled_dot", "bilinear",
                                                 "none"};
  return names;
}

const std::vector<std::string>& normalizer_names() {
  static const std::vector<std::string> names = {"softmax", "sparsemax", "entmax15"};
  return names;
}

const std::vector<std::string>& init_names() {
  static const std::vector<std::string> names = {"xavier_uniform", "xavier_normal", "uniform",
                                                 "normal", "pytorch"};
  return names;
}

const std::vector<std::string>& optimizer_names() {
  static const std::vector<std::string> names = {"adam", "sgd"};
  return names;
}

const std::vector<std::string>& schedule_names() {
  static const std::vector<std::string> names = {"constant", "plateau", "inverse_sqrt", "cosine"};
  return names;
}

const std::vector<std::string>& bleu_tokenizer_names() {
  static const std::vector<std::string> names = {"none", "13a", "char", "intl"};
  return names;
}

std::string names_help(const std::vector<std::string>& names) { return util::join(names, " | "); }

const std::vector<std::string>& tokenizer_names() {
  static const std::vector<std::string> names = {"sentencepiece", "whitespace", "word"};
  return names;
}

bool uses_attention(const ModelConfig& model) { return model.attention.scorer != "none"; }

bool samples_attention(const ModelConfig& model) {
  return hard_attention(model.attention) == HardAttention::kSample;
}

void validate(const Config& c) {
  require(!c.run_dir.empty(), "run_dir", "must not be empty", "\"\"");
  require(c.seed >= 0, "seed", "must be >= 0", c.seed);
  if (!is_device(c.device)) {
    throw ConfigError("device: unknown value '" + c.device + "' (valid: auto, cpu, cuda, cuda:N)");
  }
  validate_data(c.data);
  validate_model(c.model);
  validate_training(c.training);
  require(c.training.coverage_loss == 0 || uses_attention(c.model), "training.coverage_loss",
          "needs an attention scorer (model.attention.scorer is none)", c.training.coverage_loss);
  const double guide = c.training.guided_alignment.weight;
  require(guide == 0 || uses_attention(c.model), "training.guided_alignment.weight",
          "needs an attention scorer (model.attention.scorer is none)", guide);
  require(guide == 0 || !c.data.train_alignments.empty(), "training.guided_alignment.weight",
          "needs data.train_alignments (the gold alignments of data.train)", guide);
  require(guide == 0 || !c.data.prepared, "data.prepared",
          "cannot be true with training.guided_alignment.weight > 0: guided alignment reads the "
          "training text",
          c.data.prepared);
  validate_evaluation(c.evaluation);
}

void validate_files(const Config& c) {
  require_corpus(c.data, "data.train", c.data.train, /*needed=*/true);
  require_corpus(c.data, "data.valid", c.data.valid, /*needed=*/true);
  require_corpus(c.data, "data.test", c.data.test, /*needed=*/false);
  require_file("data.train_alignments", c.data.train_alignments);
  require_file("data.valid_alignments", c.data.valid_alignments);
  require_file("data.test_alignments", c.data.test_alignments);
}

}  // namespace s2s::config
