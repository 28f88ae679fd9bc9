#include "train/bench.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <limits>
#include <sstream>

#include "data/corpus.h"
#include "train/loss.h"
#include "train/optimizer.h"
#include "train/run_dir.h"
#include "util/error.h"

namespace s2s::train {
namespace {

using Clock = std::chrono::steady_clock;

// Fallback origin of process_uptime_s() where /proc cannot be read: static initialization.
const Clock::time_point kStaticInit = Clock::now();

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// CUDA runs asynchronously: a timer must wait for the queued kernels.
void synchronize(torch::Device device) {
  if (device.is_cuda()) torch::cuda::synchronize(device.index());
}

// The first `count` batches of the training order: epoch 0, then 1, ...
std::vector<std::vector<std::size_t>> first_batches(const data::Batcher& batcher, int64_t count) {
  std::vector<std::vector<std::size_t>> out;
  const auto wanted = static_cast<std::size_t>(count);
  for (int64_t epoch = 0; out.size() < wanted; ++epoch) {
    auto batches = batcher.epoch_batches(epoch);
    if (batches.empty()) throw InputError("bench: the training corpus gives no batch");
    for (auto& b : batches) {
      if (out.size() == wanted) break;
      out.push_back(std::move(b));
    }
  }
  return out;
}

// One update exactly as Trainer::train_step does it for soft attention; returns the loss.
double update(model::Seq2Seq& model, torch::optim::Optimizer& optimizer, const Batch& batch,
              const config::TrainingConfig& t) {
  model->train();
  optimizer.zero_grad();
  const auto out = model->forward(batch.src, batch.src_lengths, batch.tgt_in, t.teacher_forcing);
  const auto loss = sequence_loss(out.logits, out.token_index, batch.tgt_out, t.label_smoothing);
  const double value = loss.loss.item<double>();  // the trainer checks it before backward
  loss.loss.backward();
  if (t.clip_grad_norm > 0) {
    torch::nn::utils::clip_grad_norm_(model->parameters(), t.clip_grad_norm);
  }
  optimizer.step();
  return value;
}

// Multiply-adds of the attention for one batch (see forward_macs): the key side once per
// padded source position, the query side once per decoder step and row.
struct AttentionMacs {
  int64_t per_source_position = 0;  // x B S
  int64_t per_step = 0;             // x decoder steps
  int64_t context_size = 0;         // C: the size of the context the decoder reads
};

AttentionMacs attention_macs(const config::ModelConfig& m, int64_t src_len) {
  const auto& a = m.attention;
  const int64_t memory = 2 * m.hidden_size;                  // Dm
  const int64_t size = a.size > 0 ? a.size : m.hidden_size;  // A
  const int64_t heads = a.heads;                             // m
  const int64_t key = a.key_value ? size : memory;           // Dk = Dv
  const bool dot = a.scorer == "dot" || a.scorer == "scaled_dot";
  const bool project_query = heads > 1 || (dot && m.hidden_size != key);   // W_q: H -> Dk
  const int64_t head_query = project_query ? key / heads : m.hidden_size;  // dq per head
  AttentionMacs r;
  r.context_size = key;
  if (a.key_value) r.per_source_position += 2 * memory * size;  // K = H W_k, V = H W_v
  if (project_query) r.per_step += m.hidden_size * key;
  if (heads > 1) r.per_step += key * key;  // W_o over the concatenated contexts
  r.per_step += src_len * key;             // context = sum_i a_i v_i
  if (a.scorer == "additive") {            // v^T tanh(W k + U q), hidden A/m per head
    r.per_source_position += key * size / heads;
    r.per_step += head_query * size + src_len * size;
  } else if (dot) {  // k^T q (the 1/sqrt(D) scale is folded into the keys: no multiply-add)
    r.per_step += src_len * key;
  } else if (a.scorer == "bilinear" && a.rank > 0) {  // (U k)^T (V q)
    r.per_source_position += key * a.rank;
    r.per_step += heads * (head_query * a.rank + src_len * a.rank);
  } else if (a.scorer == "bilinear") {  // (W^T k)^T q
    r.per_source_position += key * head_query;
    r.per_step += heads * src_len * head_query;
  }
  return r;
}

}  // namespace

BenchData prepare_bench_data(const config::Config& config) {
  const auto& d = config.data;
  BenchData b;
  b.src_tokenizer = make_config_tokenizer(d);
  b.tgt_tokenizer = make_config_tokenizer(d);
  const auto train_text = data::load_corpus("train", corpus_spec(d, d.train), *b.src_tokenizer,
                                            *b.tgt_tokenizer, d.max_len);
  const auto valid_text = data::tokenize_corpus(data::read_corpus(corpus_spec(d, d.valid)),
                                                *b.src_tokenizer, *b.tgt_tokenizer);
  b.src_vocab = data::Vocab::build(train_text.src, {d.src_min_freq, d.src_max_vocab});
  b.tgt_vocab = data::Vocab::build(train_text.tgt, {d.tgt_min_freq, d.tgt_max_vocab});
  b.train = encode_corpus(train_text, b.src_vocab, b.tgt_vocab);
  b.valid_sources = valid_text.src;
  data::BatcherOptions o;
  o.batch_size = config.training.batch_size;
  o.unit = data::parse_batch_unit(config.training.batch_type);
  o.seed = static_cast<uint64_t>(config.seed);
  o.bucket_batches = config.training.bucket_batches;
  b.batcher = std::make_unique<data::Batcher>(b.train.src_lengths(), b.train.tgt_lengths(), o);
  return b;
}

TrainBenchResult bench_training(const config::Config& config, const BenchData& data,
                                model::Seq2Seq& model, torch::Device device,
                                const TrainBenchOptions& options) {
  if (config.model.attention.hard == "sample") {
    throw ConfigError(
        "bench: model.attention.hard = 'sample' trains with REINFORCE, which the "
        "benchmark does not time (valid: none, argmax)");
  }
  const auto batches = first_batches(*data.batcher, options.warmup + options.steps);
  auto optimizer = make_optimizer(config.training, model->parameters());
  TrainBenchResult r;
  r.first_step_at = process_uptime_s();
  const auto warmup = static_cast<std::size_t>(options.warmup);
  for (std::size_t i = 0; i < warmup; ++i) {
    update(model, *optimizer, make_batch(data.train, batches[i], device), config.training);
  }
  for (std::size_t i = warmup; i < batches.size(); ++i) {
    r.forward_macs +=
        forward_macs(config.model, data.tgt_vocab.size(), batch_shape(data.train, batches[i]));
  }
  synchronize(device);
  double loss_sum = 0.0;
  const auto start = Clock::now();
  for (std::size_t i = warmup; i < batches.size(); ++i) {
    const auto batch = make_batch(data.train, batches[i], device);
    loss_sum += update(model, *optimizer, batch, config.training);
    r.tgt_tokens += batch.target_tokens;
  }
  synchronize(device);
  r.seconds = seconds_since(start);
  r.steps = options.steps;
  r.mean_loss = loss_sum / static_cast<double>(std::max<int64_t>(options.steps, 1));
  return r;
}

BatchShape batch_shape(const EncodedCorpus& corpus, const std::vector<std::size_t>& indices) {
  BatchShape s;
  s.batch = static_cast<int64_t>(indices.size());
  for (const auto i : indices) {
    const auto src = static_cast<int64_t>(corpus.src[i].size());
    s.src_len = std::max(s.src_len, src);
    s.src_tokens += src;
    // Targets are stored as <s> y_1 .. y_n </s>; the decoder runs one step per token after <s>.
    s.tgt_steps += static_cast<int64_t>(corpus.tgt[i].size()) - 1;
  }
  return s;
}

// Multiply-adds (MACs) of one forward pass. E embedding, H hidden, L layers, V target
// vocabulary, Dm = 2H encoder state, A attention size, m heads, C context size, B S T the batch
// shape, n the real source tokens. Embedding lookups, additions, nonlinearities and softmaxes
// count as free; a matrix [p, q] times a vector costs p q.
//   encoder biGRU:  n x 2 directions x 3 gates x H (I + H) per layer (input and hidden
//                   products), I = E for the first layer and 2H above; packed, so padding is free
//   self-attention: B S 4 Dm^2 (W_q W_k W_v W_o) + B S^2 2 Dm (scores and mixing), if on
//   bridge:         B Dm L H (tanh bridge)
//   attention:      key side once per padded source position (B S), query projection and
//                   scorer x S once per decoder step; see attention_macs
//   decoder GRU:    3H (I + H) per layer and step, I = E + C (bahdanau) or E + H (luong) first,
//                   H above
//   luong combine:  (C + H) H per step
//   output layer:   F V per step, F = H + C + E (bahdanau) or H (luong)
// The decoder runs one step per real target token (n_t rows at step t; padding is skipped).
// Training counts backward as twice the forward (input and weight gradients), and 2 FLOPs per
// MAC, so training FLOPs = 3 x 2 x MACs.
int64_t forward_macs(const config::ModelConfig& m, int64_t tgt_vocab, const BatchShape& s) {
  const int64_t E = m.emb_size, H = m.hidden_size, Dm = 2 * H;
  int64_t macs = 0;
  for (int64_t l = 0; l < m.encoder.layers; ++l) {
    macs += s.src_tokens * 2 * 3 * H * ((l == 0 ? E : Dm) + H);
  }
  if (m.encoder.self_attention) macs += s.batch * s.src_len * (4 * Dm * Dm + 2 * s.src_len * Dm);
  if (m.decoder.bridge == "tanh") macs += s.batch * Dm * m.decoder.layers * H;
  AttentionMacs att;
  att.context_size = Dm;  // without attention the context is the encoder summary
  if (m.attention.scorer != "none") att = attention_macs(m, s.src_len);
  macs += s.batch * s.src_len * att.per_source_position;
  const int64_t C = att.context_size;
  const bool luong = m.decoder.style == "luong";
  int64_t per_step = att.per_step;
  for (int64_t l = 0; l < m.decoder.layers; ++l) {
    per_step += 3 * H * ((l == 0 ? E + (luong ? H : C) : H) + H);
  }
  if (luong) per_step += (C + H) * H;
  per_step += (luong ? H : H + C + E) * tgt_vocab;
  return macs + s.tgt_steps * per_step;
}

double matmul_probe_gflops(torch::Device device, int64_t n, int64_t repeats) {
  constexpr int64_t kMinRepeats = 3;
  constexpr double kBudgetSeconds = 2.0;
  torch::NoGradGuard no_grad;
  const auto options = torch::TensorOptions().dtype(torch::kFloat).device(device);
  const auto a = torch::full({n, n}, 0.5, options), b = torch::full({n, n}, 0.25, options);
  auto c = torch::mm(a, b);  // warm-up: threads, caches
  synchronize(device);
  double best = std::numeric_limits<double>::infinity();
  const auto start = Clock::now();
  for (int64_t i = 0; i < repeats; ++i) {
    const auto t0 = Clock::now();
    torch::mm_out(c, a, b);
    synchronize(device);
    best = std::min(best, seconds_since(t0));
    if (i + 1 >= kMinRepeats && seconds_since(start) > kBudgetSeconds) break;
  }
  const auto size = static_cast<double>(n);
  return 2.0 * size * size * size / best / 1e9;  // n^3 multiply-adds, 2 FLOPs each
}

double peak_rss_mib() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmHWM:", 0) != 0) continue;
    std::istringstream fields(line.substr(6));
    double kib = 0.0;
    fields >> kib;  // "VmHWM:    123456 kB"
    return kib / 1024.0;
  }
  return 0.0;
}

void reset_peak_rss() {
  std::ofstream clear_refs("/proc/self/clear_refs");
  if (clear_refs) clear_refs << "5";  // 5: reset the peak resident set size (Linux >= 4.0)
}

double process_uptime_s() {
  // /proc/self/stat field 22 is the start time in clock ticks after boot; the command name
  // (field 2, in parentheses) may hold spaces, so count fields after its closing ')'.
  std::ifstream stat_file("/proc/self/stat"), uptime_file("/proc/uptime");
  std::string stat;
  double uptime = 0.0;
  const long ticks_per_second = sysconf(_SC_CLK_TCK);
  if (std::getline(stat_file, stat) && (uptime_file >> uptime) && ticks_per_second > 0) {
    std::istringstream fields(stat.substr(stat.rfind(')') + 1));
    std::string field;
    for (int i = 3; i <= 22 && fields >> field; ++i) {
      if (i == 22) return uptime - std::stod(field) / static_cast<double>(ticks_per_second);
    }
  }
  return seconds_since(kStaticInit);
}

}  // namespace s2s::train
