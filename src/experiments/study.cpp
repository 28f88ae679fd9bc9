#include "experiments/study.h"

#include <ATen/CPUGeneratorImpl.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>

#include "checkpoint/load_run.h"
#include "config/json_io.h"
#include "eval/alignment.h"
#include "eval/splits.h"
#include "train/trainer.h"
#include "util/error.h"

namespace s2s::experiments {
namespace {

namespace fs = std::filesystem;

constexpr int64_t kChunkElements = int64_t{1} << 22;  // k of one draw: [m, n, D] <= 16 MiB
constexpr int64_t kJacobianChunk = 256;               // rows per J [256, n, n]

torch::Generator seeded_generator(int64_t seed, int64_t stream) {
  // Distinct streams (one per D) from one seed; a row never depends on the other rows.
  constexpr uint64_t kStride = 1000003;
  return at::detail::createCPUGenerator(static_cast<uint64_t>(seed) * kStride +
                                        static_cast<uint64_t>(stream));
}

double mean_of(const torch::Tensor& t) { return t.mean().item<double>(); }

}  // namespace

// ---- scaling -------------------------------------------------------------------------------

torch::Tensor draw_scores(int64_t dim, int64_t keys, int64_t samples, torch::Generator& generator) {
  const int64_t chunk = std::max<int64_t>(1, kChunkElements / (keys * dim));
  std::vector<torch::Tensor> chunks;
  for (int64_t start = 0; start < samples; start += chunk) {
    const int64_t m = std::min(chunk, samples - start);
    const auto q = torch::randn({m, dim, 1}, generator);               // [m, D, 1]
    const auto k = torch::randn({m, keys, dim}, generator);            // [m, n, D]
    chunks.push_back(torch::bmm(k, q).squeeze(2).to(torch::kDouble));  // [m, n]
  }
  return torch::cat(chunks);  // [M, n]
}

torch::Tensor softmax_jacobian(const torch::Tensor& weights) {
  // J = diag(a) - a a^T: [M, n, n]
  return torch::diag_embed(weights) - weights.unsqueeze(2) * weights.unsqueeze(1);
}

SoftmaxStats softmax_stats(const torch::Tensor& scores) {
  const auto log_a = torch::log_softmax(scores, /*dim=*/1);  // [M, n], finite even where a = 0
  const auto a = log_a.exp();
  SoftmaxStats stats;
  stats.max_weight = mean_of(std::get<0>(a.max(/*dim=*/1)));
  stats.entropy = mean_of(-(a * log_a).sum(/*dim=*/1));
  std::vector<torch::Tensor> norms;  // ||J||_F of every row, [rows] per chunk
  for (const auto& rows : a.split(kJacobianChunk)) {
    norms.push_back(softmax_jacobian(rows).pow(2).sum({1, 2}).sqrt());
  }
  const auto all = torch::cat(norms);  // [M]
  stats.jacobian_norm = mean_of(all);
  stats.jacobian_median = all.median().item<double>();
  return stats;
}

std::vector<ScalingRow> scaling_study(const ScalingOptions& options) {
  torch::manual_seed(static_cast<uint64_t>(options.seed));
  std::vector<ScalingRow> rows;
  for (const int64_t dim : options.dims) {
    auto generator = seeded_generator(options.seed, dim);
    const auto scores = draw_scores(dim, options.keys, options.samples, generator);  // [M, n]
    const auto scaled = scores / std::sqrt(static_cast<double>(dim));
    ScalingRow row;
    row.dim = dim;
    row.var_unscaled = scores.var().item<double>();
    row.var_scaled = scaled.var().item<double>();
    row.unscaled = softmax_stats(scores);
    row.scaled = softmax_stats(scaled);
    rows.push_back(row);
  }
  return rows;
}

// ---- init: a deep linear stack ---------------------------------------------------------------

const std::vector<std::string>& stack_inits() {
  static const std::vector<std::string> names = {"xavier_uniform", "normal(1)", "normal(0.01)"};
  return names;
}

const std::vector<std::string>& stack_activations() {
  static const std::vector<std::string> names = {"linear", "tanh"};
  return names;
}

std::vector<int64_t> layers_to_report(int64_t depth) {
  std::vector<int64_t> layers;
  for (const int64_t l : {int64_t{1}, depth / 4, depth / 2, depth}) {
    if (l >= 1 && (layers.empty() || l > layers.back())) layers.push_back(l);
  }
  return layers;
}

torch::Tensor init_weight(const std::string& init, int64_t n_out, int64_t n_in,
                          torch::Generator& generator) {
  const auto options = torch::TensorOptions().dtype(torch::kDouble);
  if (init == "xavier_uniform") {
    // U(-a, a) has variance a^2 / 3 = 2 / (n_in + n_out).
    const double a = std::sqrt(6.0 / static_cast<double>(n_in + n_out));
    return (torch::rand({n_out, n_in}, generator, options) * 2.0 - 1.0) * a;
  }
  if (init == "normal(1)") return torch::randn({n_out, n_in}, generator, options);
  if (init == "normal(0.01)") return torch::randn({n_out, n_in}, generator, options) * 0.01;
  throw std::invalid_argument("init_weight: unknown init '" + init + "'");
}

namespace {

// One (init, activation) stack: rows at `layers`.
std::vector<StackRow> run_stack(const StackOptions& o, const std::string& init,
                                const std::string& activation, const std::vector<int64_t>& layers) {
  auto generator = seeded_generator(o.seed, /*stream=*/0);
  const auto options = torch::TensorOptions().dtype(torch::kDouble);
  const auto x = torch::randn({o.batch, o.width}, generator, options).requires_grad_(true);
  const auto r = torch::randn({o.width}, generator, options);  // [W]
  std::vector<torch::Tensor> h;                                // h_1..h_L, each [B, W]
  torch::Tensor current = x;
  for (int64_t l = 1; l <= o.depth; ++l) {
    const auto z = current.matmul(init_weight(init, o.width, o.width, generator).t());
    current = activation == "tanh" ? torch::tanh(z) : z;
    h.push_back(current);
  }
  const auto loss = current.matmul(r).sum();  // sum_b h_L[b] · r
  const auto grads = torch::autograd::grad({loss}, h);
  std::vector<StackRow> rows;
  for (const int64_t l : layers) {
    const auto i = static_cast<std::size_t>(l - 1);
    rows.push_back({init, activation, l, h[i].var().item<double>(), grads[i].var().item<double>()});
  }
  return rows;
}

}  // namespace

std::vector<StackRow> stack_study(const StackOptions& options, const std::vector<int64_t>& layers) {
  torch::manual_seed(static_cast<uint64_t>(options.seed));
  const auto report = layers.empty() ? layers_to_report(options.depth) : layers;
  for (const int64_t l : report) {
    TORCH_CHECK(l >= 1 && l <= options.depth, "stack_study: layer ", l, " outside 1..",
                options.depth);
  }
  std::vector<StackRow> rows;
  for (const auto& init : stack_inits()) {
    for (const auto& activation : stack_activations()) {
      const auto stack = run_stack(options, init, activation, report);
      rows.insert(rows.end(), stack.begin(), stack.end());
    }
  }
  return rows;
}

// ---- init: short trainings of the real model -------------------------------------------------

namespace {

// A temporary directory, removed with everything in it when the owner goes out of scope.
class TempDir {
 public:
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "s2s-study-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) {
      throw std::runtime_error("cannot create a temporary directory like " + pattern);
    }
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

struct TrainingSetting {
  std::string name, scorer, init;
  double init_scale;
};

std::vector<TrainingSetting> training_settings(bool normal_init) {
  std::vector<TrainingSetting> settings = {{"dot", "dot", "xavier_uniform", 0.1},
                                           {"scaled_dot", "scaled_dot", "xavier_uniform", 0.1}};
  if (normal_init) settings.push_back({"dot+normal(1)", "dot", "normal", 1.0});
  return settings;
}

config::Config study_config(const TrainingStudyOptions& o, const TrainingSetting& setting,
                            const std::string& run_dir) {
  config::Config c = config::load_config(o.config);
  c.name = "study-" + setting.scorer;
  c.run_dir = run_dir;
  c.seed = o.seed;
  c.training.members = 1;  // each setting is one model (the config may train an ensemble)
  c.model.emb_size = o.emb_size;
  c.model.hidden_size = o.hidden_size;
  c.model.init = setting.init;
  c.model.init_scale = setting.init_scale;
  c.model.attention.scorer = setting.scorer;
  c.model.attention.key_value = true;
  c.model.attention.size = o.attention_size;
  c.model.attention.heads = 1;
  c.model.attention.hard = "none";  // soft attention: the study compares scorers only
  c.training.max_steps = o.steps;
  c.training.validate_every = o.steps;
  c.training.log_every = o.steps;
  c.training.num_samples = 0;
  c.training.threads = o.threads;
  c.evaluation.heatmaps = 0;
  config::validate(c);
  return c;
}

// Mean entropy and largest weight of the attention rows of the run's validation split, teacher
// forced through its last checkpoint. attention per sentence: [T + 1, m, S + 1].
void attention_stats(const std::string& run_dir, TrainingRow& row) {
  auto run = checkpoint::load_run(run_dir, "last");
  const auto split = eval::load_split(run, "valid");
  const auto encoded = batching::encode_corpus(split.corpus, run.src_vocab, run.tgt_vocab);
  const auto forced = eval::teacher_forced_scores(
      run.model, encoded, run.config.evaluation.batch_size, run.device, /*keep_attention=*/true);
  eval::EntropyStats entropy;
  double max_sum = 0.0;
  for (const auto& a : forced.attention) {
    entropy += eval::attention_entropy(a);
    // Largest weight of each head, averaged over heads, summed over target steps.
    max_sum += a.amax(/*dim=*/2).mean(/*dim=*/1).sum().item<double>();
  }
  row.attention_entropy = entropy.mean();
  row.attention_max_weight = max_sum / static_cast<double>(std::max<int64_t>(entropy.steps, 1));
}

TrainingRow train_setting(const TrainingStudyOptions& o, const TrainingSetting& setting,
                          const fs::path& dir) {
  TrainingRow row;
  row.setting = setting.name;
  const auto run_dir = (dir / setting.scorer).string() + "-" + setting.init;
  const auto start = std::chrono::steady_clock::now();
  try {
    train::Trainer trainer(study_config(o, setting, run_dir), train::TrainOptions{});
    const auto summary = trainer.train();
    row.steps = summary.steps;
    if (summary.best) {
      row.valid_loss = summary.best->loss;
      row.valid_bleu = summary.best->bleu;
    }
    attention_stats(run_dir, row);
  } catch (const std::runtime_error& e) {
    if (dynamic_cast<const UserError*>(&e) != nullptr) throw;
    row.failure = e.what();  // divergence: the trainer stops at a non-finite loss
  }
  row.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return row;
}

}  // namespace

std::vector<TrainingRow> training_study(const TrainingStudyOptions& options) {
  const TempDir dir;
  std::vector<TrainingRow> rows;
  for (const auto& setting : training_settings(options.normal_init)) {
    rows.push_back(train_setting(options, setting, dir.path()));
  }
  return rows;
}

}  // namespace s2s::experiments
