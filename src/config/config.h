#pragma once
// The run configuration: plain structs with defaults.
//
// Reading is strict (config/json_io.h): an unknown key, a wrong type or an out-of-range value
// is a ConfigError naming the full key path, raised before any tensor is allocated. Every
// struct lists its fields once, with what each means, in a `visit_fields` function below;
// reading, writing, `--set section.key=value` overrides and `s2s config --template` all walk
// that one list, so they cannot disagree.

#include <cstdint>
#include <string>
#include <vector>

#include "config/choices.h"

namespace s2s::config {

// data.tokenizer = "sentencepiece": subword pieces from a SentencePiece model that `train`
// trains on the training split (or reads from `model`) and keeps in the run directory.
struct SentencePieceConfig {
  int64_t vocab_size = 8000;
  std::string model_type = "unigram";
  double character_coverage = 1.0;
  bool joint = true;
  std::string model;
  int64_t input_sentence_size = 1000000;
};

struct DataConfig {
  std::string format = "parallel";
  std::string train;
  std::string valid;
  std::string test;
  std::string src_ext = "src";
  std::string tgt_ext = "tgt";
  std::string train_alignments;
  std::string valid_alignments;
  std::string test_alignments;
  std::string tokenizer = "word";
  bool lowercase = false;
  int64_t max_len = 50;
  int64_t max_line_bytes = 1 << 20;
  int64_t src_min_freq = 1;
  int64_t tgt_min_freq = 1;
  int64_t src_max_vocab = 0;
  int64_t tgt_max_vocab = 0;
  bool prepared = false;
  std::string prepared_dir;
  SentencePieceConfig sentencepiece;
};

struct EncoderConfig {
  int64_t layers = 1;
  double dropout = 0.0;
  double output_dropout = 0.0;
  bool self_attention = false;
  int64_t self_attention_heads = 4;
};

struct DecoderConfig {
  std::string style = "bahdanau";
  int64_t layers = 1;
  double dropout = 0.0;
  double output_dropout = 0.0;
  std::string bridge = "tanh";
  bool tie_embeddings = false;
};

struct AttentionConfig {
  std::string scorer = "additive";
  std::string normalizer = "softmax";
  bool coverage = false;
  std::string local = "none";
  int64_t window = 10;
  int64_t rank = 0;
  int64_t size = 0;
  bool key_value = false;
  int64_t heads = 1;
  std::string hard = "none";
  std::string hard_eval = "argmax";
};

struct ModelConfig {
  int64_t emb_size = 128;
  int64_t hidden_size = 256;
  std::string init = "pytorch";
  double init_scale = 0.1;
  EncoderConfig encoder;
  DecoderConfig decoder;
  AttentionConfig attention;
};

// REINFORCE for hard attention (Xu et al. 2015, sec. 4.1; Mnih et al. 2014). Decay, entropy
// weight and the expected context with probability 0.5 follow the Show, Attend and Tell code
// (arctic-captions); the baseline, the reward per token and the normalization are what learned
// best on the bundled corpus (docs/attention.md "Hard attention").
struct ReinforceConfig {
  std::string baseline = "learned";
  double baseline_decay = 0.9;
  int64_t samples = 2;
  double weight = 1.0;
  double entropy_weight = 0.002;
  double p_expect = 0.5;
  std::string reward = "token";
  bool normalize = true;
};

// Guided alignment (Chen et al. 2016; Marian's --guided-alignment): a loss between the
// attention and the gold alignments of data.train_alignments (train/attention_loss.h).
struct GuidedAlignmentConfig {
  double weight = 0.0;
  std::string loss = "ce";
  int64_t decay_steps = 0;
  std::string heads = "mean";
};

struct TrainingConfig {
  std::string optimizer = "adam";
  double learning_rate = 1e-3;
  double momentum = 0.0;
  double weight_decay = 0.0;
  double clip_grad_norm = 1.0;
  double teacher_forcing = 1.0;
  double label_smoothing = 0.0;
  double coverage_loss = 0.0;
  int64_t batch_size = 64;
  std::string batch_type = "sentences";
  int64_t bucket_batches = 100;
  int64_t epochs = 10;
  int64_t max_steps = 0;
  std::string lr_schedule = "constant";
  int64_t warmup_steps = 0;
  double lr_decay = 0.5;
  int64_t lr_patience = 1;
  double min_lr = 1e-6;
  int64_t validate_every = 0;
  int64_t log_every = 50;
  int64_t checkpoint_every = 0;
  double checkpoint_every_minutes = 10;
  bool keep_step_checkpoints = false;
  int64_t average_last = 0;
  int64_t members = 1;
  std::string early_stopping_metric = "bleu";
  int64_t patience = 0;
  int64_t num_samples = 3;
  int64_t threads = 0;
  std::string precision = "auto";
  double dist_timeout_s = 600;
  ReinforceConfig reinforce;
  GuidedAlignmentConfig guided_alignment;
};

struct EvaluationConfig {
  int64_t beam_size = 1;
  double length_penalty = 0.6;
  std::string beam_rule = "shrink";
  double beam_prune = 0.0;
  int64_t n_best = 1;
  double max_len_ratio = 2.0;
  int64_t max_len_extra = 10;
  bool replace_unk = false;
  int64_t batch_size = 64;
  std::string bleu_tokenize = "13a";
  bool bleu_lowercase = false;
  bool chrf_lowercase = false;
  int64_t heatmaps = 5;
  int64_t max_src_len = 250;
  std::string precision = "auto";
};

struct Config {
  std::string name = "s2s";
  std::string run_dir = "runs/default";
  int64_t seed = 42;
  std::string device = "auto";
  DataConfig data;
  ModelConfig model;
  TrainingConfig training;
  EvaluationConfig evaluation;
};

// The valid names of the keys that choose an interchangeable part. The parts' registries live
// above the config (model/scorer.h, model/init.h, train/optimizer.h, train/schedule.h,
// data/tokenizer.h, metrics/sacre_tokenizers.h); these torch-free copies let validation and
// the template name them, and one test (tests/torch/registry_test.cpp) holds them equal to the
// registries.
const std::vector<std::string>& scorer_names();      // the scorer registry, then "none"
const std::vector<std::string>& normalizer_names();  // model/normalizer.h
const std::vector<std::string>& init_names();
const std::vector<std::string>& optimizer_names();
const std::vector<std::string>& schedule_names();
const std::vector<std::string>& tokenizer_names();
const std::vector<std::string>& bleu_tokenizer_names();
// "a | b | c", for help texts.
std::string names_help(const std::vector<std::string>& names);

// The field lists, each field with what it means: `v(key, member, doc)` for a value,
// `v.section(key, member)` for a nested struct.
template <class V>
void visit_fields(V& v, DataConfig& c) {
  v("format", c.format, "corpus reader: " + choice_help<CorpusFormat>());
  v("train", c.train,
    "training corpus: parallel-file prefix or TSV file, relative to the config file");
  v("valid", c.valid, "validation corpus (same format)");
  v("test", c.test, "test corpus (same format)");
  v("src_ext", c.src_ext, "parallel format: extension of source files");
  v("tgt_ext", c.tgt_ext, "parallel format: extension of target files");
  v("train_alignments", c.train_alignments,
    "gold alignments of train (Pharaoh i-j), for training.guided_alignment; relative to the "
    "config file");
  v("valid_alignments", c.valid_alignments,
    "gold alignments of valid (Pharaoh i-j), optional; relative to the config file");
  v("test_alignments", c.test_alignments,
    "gold alignments of test (Pharaoh i-j), optional; relative to the config file");
  v("tokenizer", c.tokenizer, "one of " + names_help(tokenizer_names()) + " (data/tokenizer.h)");
  v("lowercase", c.lowercase, "lower-case both sides before tokenizing");
  v("max_len", c.max_len, "drop training pairs longer than this (tokens); 0 = no limit");
  v("max_line_bytes", c.max_line_bytes,
    "refuse a corpus line longer than this (bytes), naming its file and line");
  v("src_min_freq", c.src_min_freq, "source words seen fewer times become <unk>");
  v("tgt_min_freq", c.tgt_min_freq, "target words seen fewer times become <unk>");
  v("src_max_vocab", c.src_max_vocab, "source vocabulary size cap incl. specials; 0 = no cap");
  v("tgt_max_vocab", c.tgt_max_vocab, "target vocabulary size cap incl. specials; 0 = no cap");
  v("prepared", c.prepared,
    "train from a prepared corpus: token ids made once (s2s prepare, or train on first use) and "
    "read through mmap, in bounded memory; false: read and tokenize the text at every start");
  v("prepared_dir", c.prepared_dir,
    "where prepared corpora are kept; \"\" = beside the training data (TRAIN.prepared/); "
    "relative to the config file");
  v.section("sentencepiece", c.sentencepiece);
}

template <class V>
void visit_fields(V& v, SentencePieceConfig& c) {
  v("vocab_size", c.vocab_size, "pieces per model (SentencePiece's vocab_size)");
  v("model_type", c.model_type, "\"unigram\" or \"bpe\"");
  v("character_coverage", c.character_coverage, "share of characters the pieces cover, (0, 1]");
  v("joint", c.joint, "one model for both languages; false: one per language");
  v("model", c.model,
    "an existing .model file to use instead of training one (joint); relative to the config");
  v("input_sentence_size", c.input_sentence_size,
    "train on a seeded sample of this many sentences; 0 = all");
}

template <class V>
void visit_fields(V& v, EncoderConfig& c) {
  v("layers", c.layers, "stacked bidirectional GRU layers");
  v("dropout", c.dropout, "dropout on the source embeddings and between GRU layers");
  v("output_dropout", c.output_dropout, "dropout on the encoder states (attention keys, values)");
  v("self_attention", c.self_attention, "multi-head self-attention over the GRU states");
  v("self_attention_heads", c.self_attention_heads, "heads of that self-attention");
}

template <class V>
void visit_fields(V& v, DecoderConfig& c) {
  v("style", c.style, choice_help<DecoderStyle>());
  v("layers", c.layers, "stacked GRU layers");
  v("dropout", c.dropout, "dropout on the target embeddings and between GRU layers");
  v("output_dropout", c.output_dropout, "dropout on the output layer's input [s_t; c_t; e(y)]");
  v("bridge", c.bridge, "initial decoder state: " + choice_help<Bridge>());
  v("tie_embeddings", c.tie_embeddings,
    "output layer = the target embeddings: logits = Emb tanh(W_p features) + b (Press & Wolf "
    "2017), fewer parameters and a smaller output product");
}

template <class V>
void visit_fields(V& v, AttentionConfig& c) {
  v("scorer", c.scorer, "attention scorer: " + names_help(scorer_names()));
  v("normalizer", c.normalizer,
    "scores to weights: " + names_help(normalizer_names()) +
        " (sparsemax and entmax15 give exact zeros; docs/attention.md#normalizers)");
  v("local", c.local,
    "where attention may look (Luong et al. 2015): " + choice_help<LocalAttention>());
  v("window", c.window, "local attention: D, the window's half width (2D + 1 positions)");
  v("coverage", c.coverage,
    "feed the coverage c_ti = sum_{tau<t} a_tau,i (past attention) to the scorer: keys k_i + "
    "c_ti w (Tu et al. 2016)");
  v("rank", c.rank, "bilinear only: low-rank (Uh)^T(Vq) with r = rank; 0 = full");
  v("size", c.size, "additive hidden size / projection size; 0 = decoder hidden");
  v("key_value", c.key_value, "separate key and value projections of encoder states");
  v("heads", c.heads, "attention heads; must divide the attention size");
  v("hard", c.hard, "hard attention in training: " + choice_help<HardAttention>());
  v("hard_eval", c.hard_eval, "hard attention at evaluation: \"argmax\" or \"sample\"");
}

template <class V>
void visit_fields(V& v, ReinforceConfig& c) {
  v("baseline", c.baseline, choice_help<ReinforceBaseline>());
  v("baseline_decay", c.baseline_decay, "moving average: b <- decay * b + (1 - decay) * mean(R)");
  v("samples", c.samples, "leave_one_out: K attention samples per sentence (>= 2)");
  v("weight", c.weight, "lambda_r: weight of the REINFORCE term");
  v("entropy_weight", c.entropy_weight, "lambda_e: weight of the attention entropy bonus");
  v("p_expect", c.p_expect, "probability of using the expected (soft) context");
  v("reward", c.reward, "what step t is credited with: " + choice_help<ReinforceReward>());
  v("normalize", c.normalize, "divide the advantage by its running root mean square");
}

template <class V>
void visit_fields(V& v, GuidedAlignmentConfig& c) {
  v("weight", c.weight,
    "lambda: weight of the loss between attention and data.train_alignments, per target token "
    "(docs/attention.md#guided-alignment); 0 = off");
  v("loss", c.loss,
    choice_help<GuidedAlignmentLoss>() +
        "; G: the gold alignment, each target word's row normalized to sum 1");
  v("decay_steps", c.decay_steps,
    "lambda falls linearly to 0 at this update, lambda (1 - step / decay_steps); 0 = constant");
  v("heads", c.heads, "multi-head attention: " + choice_help<AlignmentHeads>());
}

template <class V>
void visit_fields(V& v, ModelConfig& c) {
  v("emb_size", c.emb_size, "source and target embedding size");
  v("hidden_size", c.hidden_size, "GRU hidden size (encoder per direction, and decoder)");
  v("init", c.init, "weight initialization: " + names_help(init_names()) + " (model/init.h)");
  v("init_scale", c.init_scale, "uniform: U(-s, s); normal: N(0, s^2)");
  v.section("encoder", c.encoder);
  v.section("decoder", c.decoder);
  v.section("attention", c.attention);
}

template <class V>
void visit_fields(V& v, TrainingConfig& c) {
  v("optimizer", c.optimizer, names_help(optimizer_names()));
  v("learning_rate", c.learning_rate, "initial learning rate");
  v("momentum", c.momentum, "SGD momentum");
  v("weight_decay", c.weight_decay, "L2 penalty");
  v("clip_grad_norm", c.clip_grad_norm, "clip the global gradient norm; 0 = no clipping");
  v("teacher_forcing", c.teacher_forcing, "probability of feeding the gold previous token");
  v("label_smoothing", c.label_smoothing, "epsilon of label-smoothed cross-entropy");
  v("coverage_loss", c.coverage_loss,
    "lambda of the coverage loss lambda sum_t sum_i min(a_ti, c_ti), c_t = sum_{tau<t} a_tau, per "
    "target token, mean over heads (See et al. 2017); 0 = off");
  v("batch_size", c.batch_size, "sentences, or tokens when batch_type = \"tokens\"");
  v("batch_type", c.batch_type, choice_help<BatchUnit>());
  v("bucket_batches", c.bucket_batches, "sort by length within pools of this many batches");
  v("epochs", c.epochs, "passes over the training data");
  v("max_steps", c.max_steps, "stop after this many updates; 0 = no step limit");
  v("lr_schedule", c.lr_schedule,
    "learning-rate schedule after the warm-up: " + names_help(schedule_names()) +
        " (train/schedule.h gives each one's formula)");
  v("warmup_steps", c.warmup_steps,
    "raise the learning rate linearly from lr / warmup_steps over this many updates (any "
    "schedule; inverse_sqrt needs it); 0 = none");
  v("lr_decay", c.lr_decay, "plateau: multiply the learning rate by this");
  v("lr_patience", c.lr_patience, "plateau: validations without improvement before decay");
  v("min_lr", c.min_lr, "plateau: never below this; cosine: the rate of the last update");
  v("validate_every", c.validate_every, "validate every N steps; 0 = at the end of each epoch");
  v("log_every", c.log_every, "log training loss every N steps");
  v("checkpoint_every", c.checkpoint_every, "also save last.pt every N steps; 0 = off");
  v("checkpoint_every_minutes", c.checkpoint_every_minutes,
    "also save last.pt every N minutes; 0 = off");
  v("keep_step_checkpoints", c.keep_step_checkpoints,
    "also keep checkpoints/step_<N>.pt of each validation");
  v("average_last", c.average_last,
    "at the end, average the newest N step checkpoints into checkpoints/average_last.pt and "
    "decode the test split with it (needs keep_step_checkpoints); 0 = off");
  v("members", c.members,
    "train N models one after another, member k in run_dir/member<k> with seed + k - 1 and "
    "member 1's tokenizers, and decode the test split with their ensemble; 1 = one model");
  v("early_stopping_metric", c.early_stopping_metric, choice_help<StoppingMetric>());
  v("patience", c.patience, "stop after N validations without improvement; 0 = off");
  v("num_samples", c.num_samples, "sample translations printed at each validation");
  v("threads", c.threads,
    "intra-op threads (also for evaluation and translation); 0 = one per core other processes "
    "leave free, following the load");
  v("precision", c.precision, choice_help<PrecisionMode>());
  v("dist_timeout_s", c.dist_timeout_s,
    "several processes: how long a rank waits for the others (rendezvous, each collective) "
    "before it stops with an error");
  v.section("reinforce", c.reinforce);
  v.section("guided_alignment", c.guided_alignment);
}

template <class V>
void visit_fields(V& v, EvaluationConfig& c) {
  v("beam_size", c.beam_size, "1 = greedy search");
  v("length_penalty", c.length_penalty, "GNMT alpha in ((5 + len) / 6)^alpha");
  v("beam_rule", c.beam_rule, "what ends a beam hypothesis: " + choice_help<BeamRule>());
  v("beam_prune", c.beam_prune,
    "> 0: beam search drops prefixes more than this many nats below their sentence's best "
    "(faster, no longer the K best); 0 = off");
  v("n_best", c.n_best, "hypotheses per sentence that s2s translate prints (<= beam_size)");
  v("max_len_ratio", c.max_len_ratio, "stop decoding after ratio * source length + max_len_extra");
  v("max_len_extra", c.max_len_extra, "see max_len_ratio");
  v("replace_unk", c.replace_unk, "replace <unk> by the most attended source word");
  v("batch_size", c.batch_size, "sentences per decoding batch");
  v("bleu_tokenize", c.bleu_tokenize, "sacreBLEU tokenizer: " + names_help(bleu_tokenizer_names()));
  v("bleu_lowercase", c.bleu_lowercase, "case-insensitive BLEU (sacreBLEU's -lc)");
  v("chrf_lowercase", c.chrf_lowercase, "case-insensitive chrF (sacreBLEU's --chrf-lowercase)");
  v("heatmaps", c.heatmaps, "attention CSVs written for the first N test sentences");
  v("precision", c.precision, "decoding and scoring: " + choice_help<PrecisionMode>());
  v("max_src_len", c.max_src_len, "decoding cuts longer sources to this many tokens");
}

template <class V>
void visit_fields(V& v, Config& c) {
  v("name", c.name, "run name, used in logs");
  v("run_dir", c.run_dir,
    "where checkpoints, logs and outputs go, relative to the working directory");
  v("seed", c.seed, "seeds weights, shuffling, dropout and sampling");
  v("device", c.device, choice_help<DeviceKind>());
  v.section("data", c.data);
  v.section("model", c.model);
  v.section("training", c.training);
  v.section("evaluation", c.evaluation);
}

// False for model.attention.scorer = "none": the model then has no attention at all.
bool uses_attention(const ModelConfig& model);
// True for hard attention that samples its positions in training (model.attention.hard =
// "sample"), which REINFORCE then trains.
bool samples_attention(const ModelConfig& model);

// The largest beam evaluation.beam_size and --beam accept: beyond it the work per sentence
// grows with no gain in quality.
constexpr int64_t kMaxBeamSize = 100;
// The largest data.max_line_bytes (1 GiB) and evaluation.max_src_len: bounds on what one line may
// cost before its tokens are counted.
constexpr int64_t kMaxLineBytes = int64_t{1} << 30;
constexpr int64_t kMaxSrcLen = 100000;
// The most models training.members trains: each is a whole training, and an ensemble decodes
// every member at each step.
constexpr int64_t kMaxMembers = 16;

// Checks every range and choice rule, one per line; throws ConfigError naming the key.
void validate(const Config& config);

// Checks that the corpus files named by the config exist (ConfigError naming the key).
void validate_files(const Config& config);

}  // namespace s2s::config
