#pragma once
// The run configuration: plain structs with defaults, one comment per field.
//
// Reading is strict (config/json_io.h): an unknown key, a wrong type or an out-of-range value
// is a ConfigError naming the full key path, raised before any tensor is allocated. Every
// struct lists its fields once, in a `visit_fields` function; reading, writing and
// `--set section.key=value` overrides all walk that one list, so they cannot disagree.

#include <cstdint>
#include <string>
#include <vector>

namespace s2s::config {

struct DataConfig {
  std::string format = "parallel";  // corpus reader: "parallel" (PREFIX.src_ext/.tgt_ext) or "tsv"
  std::string train;                // training corpus: parallel-file prefix or TSV file
  std::string valid;                // validation corpus (same format)
  std::string test;                 // test corpus (same format)
  std::string src_ext = "src";      // parallel format: extension of source files
  std::string tgt_ext = "tgt";      // parallel format: extension of target files
  std::string valid_alignments;     // gold alignments of valid (Pharaoh i-j), optional
  std::string test_alignments;      // gold alignments of test (Pharaoh i-j), optional
  std::string tokenizer = "word";   // "word" (splits punctuation) or "whitespace" (pre-tokenized)
  bool lowercase = false;           // lower-case both sides before tokenizing
  int64_t max_len = 50;             // drop training pairs longer than this (tokens); 0 = no limit
  int64_t src_min_freq = 1;         // source words seen fewer times become <unk>
  int64_t tgt_min_freq = 1;         // target words seen fewer times become <unk>
  int64_t src_max_vocab = 0;        // source vocabulary size cap incl. specials; 0 = no cap
  int64_t tgt_max_vocab = 0;        // target vocabulary size cap incl. specials; 0 = no cap
};

struct EncoderConfig {
  int64_t layers = 1;                // stacked bidirectional GRU layers
  double dropout = 0.0;              // dropout between GRU layers and on encoder outputs
  bool self_attention = false;       // multi-head self-attention over the GRU states
  int64_t self_attention_heads = 4;  // heads of that self-attention
};

struct DecoderConfig {
  std::string style = "bahdanau";  // "bahdanau" (query = previous state) or "luong"
  int64_t layers = 1;              // stacked GRU layers
  double dropout = 0.0;            // dropout before the output layer
  std::string bridge = "tanh";     // initial decoder state: "tanh" projection of encoder
                                   // final states, or "zero"
};

struct AttentionConfig {
  std::string scorer = "additive";   // additive | dot | scaled_dot | bilinear | none
  int64_t rank = 0;                  // bilinear only: low-rank (Uh)^T(Vq) with r = rank; 0 = full
  int64_t size = 0;                  // additive hidden size / projection size; 0 = decoder hidden
  bool key_value = false;            // separate key and value projections of encoder states
  int64_t heads = 1;                 // attention heads; must divide the attention size
  std::string hard = "none";         // hard attention in training: "none" (soft), "sample"
                                     // (s_t ~ a_t, trained with REINFORCE) or "argmax"
  std::string hard_eval = "argmax";  // hard attention at evaluation: "argmax" or "sample"
};

struct ModelConfig {
  int64_t emb_size = 128;               // source and target embedding size
  int64_t hidden_size = 256;            // GRU hidden size (encoder per direction, and decoder)
  std::string init = "xavier_uniform";  // xavier_uniform | xavier_normal | uniform | normal
  double init_scale = 0.1;              // uniform: U(-s, s); normal: N(0, s^2)
  EncoderConfig encoder;
  DecoderConfig decoder;
  AttentionConfig attention;
};

// REINFORCE for hard attention (Xu et al. 2015, sec. 4.1; Mnih et al. 2014). Defaults follow the
// Show, Attend and Tell code (arctic-captions): baseline decay 0.9, entropy weight 0.002,
// expected context with probability 0.5.
struct ReinforceConfig {
  std::string baseline = "moving_average";  // none | moving_average | learned | leave_one_out
  double baseline_decay = 0.9;      // moving average: b <- decay * b + (1 - decay) * mean(R)
  int64_t samples = 2;              // leave_one_out: K attention samples per sentence (>= 2)
  double weight = 1.0;              // lambda_r: weight of the REINFORCE term
  double entropy_weight = 0.002;    // lambda_e: weight of the attention entropy bonus
  double p_expect = 0.5;            // probability of using the expected (soft) context
  std::string reward = "sentence";  // "sentence": R = log p(y|s); "reward_to_go": per step
};

struct TrainingConfig {
  std::string optimizer = "adam";        // "adam" or "sgd"
  double learning_rate = 1e-3;           // initial learning rate
  double momentum = 0.0;                 // SGD momentum
  double weight_decay = 0.0;             // L2 penalty
  double clip_grad_norm = 1.0;           // clip the global gradient norm; 0 = no clipping
  double teacher_forcing = 1.0;          // probability of feeding the gold previous token
  double label_smoothing = 0.0;          // epsilon of label-smoothed cross-entropy
  int64_t batch_size = 64;               // sentences, or tokens when batch_type = "tokens"
  std::string batch_type = "sentences";  // "sentences" or "tokens" (padded tokens per batch)
  int64_t bucket_batches = 100;          // sort by length within pools of this many batches
  int64_t epochs = 10;                   // passes over the training data
  int64_t max_steps = 0;                 // stop after this many updates; 0 = no step limit
  std::string lr_schedule = "constant";  // "constant" or "plateau" (reduce on plateau)
  double lr_decay = 0.5;                 // plateau: multiply the learning rate by this
  int64_t lr_patience = 1;               // plateau: validations without improvement before decay
  double min_lr = 1e-6;                  // plateau: never below this
  int64_t validate_every = 0;            // validate every N steps; 0 = at the end of each epoch
  int64_t log_every = 50;                // log training loss every N steps
  int64_t checkpoint_every = 0;          // also save last.pt every N steps; 0 = off
  double checkpoint_every_minutes = 10;  // also save last.pt every N minutes; 0 = off
  std::string early_stopping_metric = "bleu";  // "bleu", "loss" or "ppl"
  int64_t patience = 0;       // stop after N validations without improvement; 0 = off
  int64_t num_samples = 3;    // sample translations printed at each validation
  int64_t threads = 0;        // intra-op threads; 0 = all cores
  ReinforceConfig reinforce;  // used when model.attention.hard = "sample"
};

struct EvaluationConfig {
  int64_t beam_size = 1;              // 1 = greedy search
  double length_penalty = 0.6;        // GNMT alpha in ((5 + len) / 6)^alpha
  int64_t n_best = 1;                 // hypotheses returned per sentence by beam search
  double max_len_ratio = 2.0;         // stop decoding after ratio * source length + max_len_extra
  int64_t max_len_extra = 10;         // see max_len_ratio
  bool replace_unk = false;           // replace <unk> by the most attended source word
  int64_t batch_size = 64;            // sentences per decoding batch
  std::string bleu_tokenize = "13a";  // sacreBLEU tokenizer: 13a | none | char | intl
  bool bleu_lowercase = false;        // case-insensitive BLEU
  int64_t heatmaps = 5;               // attention CSVs written for the first N test sentences
  int64_t max_src_len = 250;          // decoding cuts longer sources to this many tokens
};

struct Config {
  std::string name = "s2s";              // run name, used in logs
  std::string run_dir = "runs/default";  // where checkpoints, logs and outputs go
  int64_t seed = 42;                     // seeds weights, shuffling, dropout and sampling
  std::string device = "auto";           // "auto", "cpu", "cuda" or "cuda:N"
  DataConfig data;
  ModelConfig model;
  TrainingConfig training;
  EvaluationConfig evaluation;
};

// The field lists. `v(key, member)` for a value, `v.section(key, member)` for a nested struct.
template <class V>
void visit_fields(V& v, DataConfig& c) {
  v("format", c.format);
  v("train", c.train);
  v("valid", c.valid);
  v("test", c.test);
  v("src_ext", c.src_ext);
  v("tgt_ext", c.tgt_ext);
  v("valid_alignments", c.valid_alignments);
  v("test_alignments", c.test_alignments);
  v("tokenizer", c.tokenizer);
  v("lowercase", c.lowercase);
  v("max_len", c.max_len);
  v("src_min_freq", c.src_min_freq);
  v("tgt_min_freq", c.tgt_min_freq);
  v("src_max_vocab", c.src_max_vocab);
  v("tgt_max_vocab", c.tgt_max_vocab);
}

template <class V>
void visit_fields(V& v, EncoderConfig& c) {
  v("layers", c.layers);
  v("dropout", c.dropout);
  v("self_attention", c.self_attention);
  v("self_attention_heads", c.self_attention_heads);
}

template <class V>
void visit_fields(V& v, DecoderConfig& c) {
  v("style", c.style);
  v("layers", c.layers);
  v("dropout", c.dropout);
  v("bridge", c.bridge);
}

template <class V>
void visit_fields(V& v, AttentionConfig& c) {
  v("scorer", c.scorer);
  v("rank", c.rank);
  v("size", c.size);
  v("key_value", c.key_value);
  v("heads", c.heads);
  v("hard", c.hard);
  v("hard_eval", c.hard_eval);
}

template <class V>
void visit_fields(V& v, ReinforceConfig& c) {
  v("baseline", c.baseline);
  v("baseline_decay", c.baseline_decay);
  v("samples", c.samples);
  v("weight", c.weight);
  v("entropy_weight", c.entropy_weight);
  v("p_expect", c.p_expect);
  v("reward", c.reward);
}

template <class V>
void visit_fields(V& v, ModelConfig& c) {
  v("emb_size", c.emb_size);
  v("hidden_size", c.hidden_size);
  v("init", c.init);
  v("init_scale", c.init_scale);
  v.section("encoder", c.encoder);
  v.section("decoder", c.decoder);
  v.section("attention", c.attention);
}

template <class V>
void visit_fields(V& v, TrainingConfig& c) {
  v("optimizer", c.optimizer);
  v("learning_rate", c.learning_rate);
  v("momentum", c.momentum);
  v("weight_decay", c.weight_decay);
  v("clip_grad_norm", c.clip_grad_norm);
  v("teacher_forcing", c.teacher_forcing);
  v("label_smoothing", c.label_smoothing);
  v("batch_size", c.batch_size);
  v("batch_type", c.batch_type);
  v("bucket_batches", c.bucket_batches);
  v("epochs", c.epochs);
  v("max_steps", c.max_steps);
  v("lr_schedule", c.lr_schedule);
  v("lr_decay", c.lr_decay);
  v("lr_patience", c.lr_patience);
  v("min_lr", c.min_lr);
  v("validate_every", c.validate_every);
  v("log_every", c.log_every);
  v("checkpoint_every", c.checkpoint_every);
  v("checkpoint_every_minutes", c.checkpoint_every_minutes);
  v("early_stopping_metric", c.early_stopping_metric);
  v("patience", c.patience);
  v("num_samples", c.num_samples);
  v("threads", c.threads);
  v.section("reinforce", c.reinforce);
}

template <class V>
void visit_fields(V& v, EvaluationConfig& c) {
  v("beam_size", c.beam_size);
  v("length_penalty", c.length_penalty);
  v("n_best", c.n_best);
  v("max_len_ratio", c.max_len_ratio);
  v("max_len_extra", c.max_len_extra);
  v("replace_unk", c.replace_unk);
  v("batch_size", c.batch_size);
  v("bleu_tokenize", c.bleu_tokenize);
  v("bleu_lowercase", c.bleu_lowercase);
  v("heatmaps", c.heatmaps);
  v("max_src_len", c.max_src_len);
}

template <class V>
void visit_fields(V& v, Config& c) {
  v("name", c.name);
  v("run_dir", c.run_dir);
  v("seed", c.seed);
  v("device", c.device);
  v.section("data", c.data);
  v.section("model", c.model);
  v.section("training", c.training);
  v.section("evaluation", c.evaluation);
}

// The valid names of the keys that choose an interchangeable part. The parts' registries live
// above the config (model/scorer.h, model/init.h, train/optimizer.h, data/tokenizer.h); these
// torch-free copies let validation name them, and a test checks that they equal the registries.
const std::vector<std::string>& scorer_names();  // the scorer registry, then "none"
const std::vector<std::string>& init_names();
const std::vector<std::string>& optimizer_names();
const std::vector<std::string>& tokenizer_names();

// False for model.attention.scorer = "none": the model then has no attention at all.
bool uses_attention(const ModelConfig& model);
// True for hard attention that samples its positions in training (model.attention.hard =
// "sample"), which REINFORCE then trains.
bool samples_attention(const ModelConfig& model);

// The largest beam evaluation.beam_size and --beam accept: beyond it the work per sentence
// grows with no gain in quality.
constexpr int64_t kMaxBeamSize = 100;

// Checks every range and choice rule, one per line; throws ConfigError naming the key.
void validate(const Config& config);

// Checks that the corpus files named by the config exist (ConfigError naming the key).
void validate_files(const Config& config);

}  // namespace s2s::config
