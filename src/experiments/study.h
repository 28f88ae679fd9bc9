#pragma once
// Experiments behind `s2s study`: the classic questions about dot-product attention answered
// by measurement rather than by argument.
//
// scaling: why Vaswani et al. (2017, eq. 1) divide q·k by sqrt(D). For q, k with i.i.d. N(0, 1)
//   entries, Var(q·k) = sum_d Var(q_d k_d) = D, so the scores' spread grows as sqrt(D); a
//   softmax over spread-out scores saturates (one weight near 1) and its Jacobian
//   J = diag(a) - a a^T (d a / d s) vanishes, so almost no gradient reaches the scores.
//   Dividing by sqrt(D) keeps Var = 1 whatever D.
// init: whether initialization alone can keep variances at O(1), through a deep stack of
//   linear layers (Glorot & Bengio 2010: Xavier, Var(w) = 2 / (n_in + n_out)), and in short
//   trainings of the real model with `dot` against `scaled_dot`.
//
// Every experiment is deterministic from its seed: all draws come from torch Generators seeded
// from it (and torch::manual_seed(seed) for anything drawing from the global generator).

#include <torch/torch.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace s2s::experiments {

// ---- scaling -------------------------------------------------------------------------------

struct ScalingOptions {
  std::vector<int64_t> dims = {16, 32, 64, 128, 256, 512, 1024};  // key/query sizes D
  int64_t keys = 64;                                              // n keys per softmax
  int64_t samples = 2000;                                         // M queries per D
  int64_t seed = 1;
};

// Means over M softmax distributions a = softmax(s) over n keys.
struct SoftmaxStats {
  double max_weight = 0.0;     // mean of max_i a_i; 1/n uniform, 1 saturated
  double entropy = 0.0;        // mean of H(a) = -sum_i a_i ln a_i, nats; at most ln n
  double jacobian_norm = 0.0;  // mean of ||J||_F, J = diag(a) - a a^T; sqrt(n-1)/n uniform
  // Median of ||J||_F: the mean of a saturated softmax is carried by the rare near-ties of the
  // two largest scores, the median by the typical query.
  double jacobian_median = 0.0;
};

struct ScalingRow {
  int64_t dim = 0;            // D
  double var_unscaled = 0.0;  // empirical Var(q·k), expected D
  double var_scaled = 0.0;    // empirical Var(q·k / sqrt(D)), expected 1
  SoftmaxStats unscaled, scaled;
};

// One row per options.dims entry, in order. A row depends only on (seed, D), not on which
// other dims are asked for.
std::vector<ScalingRow> scaling_study(const ScalingOptions& options);

// q [M, D], k [M, n, D] with N(0, 1) entries -> unscaled scores s = k q [M, n] (double).
torch::Tensor draw_scores(int64_t dim, int64_t keys, int64_t samples, torch::Generator& generator);

// scores [M, n] -> statistics of a = softmax(scores) over the n keys.
SoftmaxStats softmax_stats(const torch::Tensor& scores);

// a [M, n] (rows on the simplex) -> J [M, n, n], J_ij = d a_i / d s_j = a_i (delta_ij - a_j).
torch::Tensor softmax_jacobian(const torch::Tensor& weights);

// ---- init: a deep linear stack ---------------------------------------------------------------

struct StackOptions {
  int64_t depth = 20;   // L layers
  int64_t width = 256;  // W units, every layer W -> W
  int64_t batch = 256;  // B inputs x ~ N(0, I)
  int64_t seed = 1;
};

// The initializations compared: Xavier-uniform, N(0, 1) and N(0, 0.01^2) (standard deviations
// 1 and 0.01, as model.init = normal with init_scale 1.0 and 0.01).
const std::vector<std::string>& stack_inits();
// "linear" (f(z) = z) and "tanh".
const std::vector<std::string>& stack_activations();

struct StackRow {
  std::string init;           // one of stack_inits()
  std::string activation;     // one of stack_activations()
  int64_t layer = 0;          // l in 1..L
  double activation_var = 0;  // Var(h_l) over batch and units
  double gradient_var = 0;    // Var(dLoss/dh_l) over batch and units
};

// h_0 = x [B, W]; z_l = h_{l-1} W_l^T, h_l = f(z_l) for l = 1..L (no biases);
// Loss = sum_b h_L[b] · r with r ~ N(0, I) fixed, so dLoss/dh_L = r. Rows for every init and
// activation at layers `layers` (1-based; layers_to_report(L) if empty). Each (init, activation)
// pair draws x, r and the weights from a generator seeded with options.seed, so the two
// activations of one init share their weights.
std::vector<StackRow> stack_study(const StackOptions& options,
                                  const std::vector<int64_t>& layers = {});

// 1, L/4, L/2, L without repeats (at least 1).
std::vector<int64_t> layers_to_report(int64_t depth);

// One [n_out, n_in] weight: xavier_uniform U(-a, a), a = sqrt(6 / (n_in + n_out)), so that
// Var(w) = 2 / (n_in + n_out); "normal(1)" N(0, 1); "normal(0.01)" N(0, 0.01^2).
torch::Tensor init_weight(const std::string& init, int64_t n_out, int64_t n_in,
                          torch::Generator& generator);

// ---- init: short trainings of the real model -------------------------------------------------

struct TrainingStudyOptions {
  // Corpus and defaults, overridden below: the batch-64, Adam 10^-3 job of the study figures
  // in docs/attention.md (configs/default.json now trains a shorter cosine recipe).
  std::string config = "configs/default_long.json";
  int64_t steps = 300;  // updates per run, validation at the end
  int64_t seed = 1;     // config seed of every run
  int64_t emb_size = 64;
  int64_t hidden_size = 128;
  int64_t attention_size = 128;  // key/value projection size (key_value on)
  int64_t threads = 1;
  bool normal_init = true;  // also train `dot` with init normal, init_scale 1.0
};

struct TrainingRow {
  std::string setting;  // "dot", "scaled_dot", "dot+normal(1)"
  int64_t steps = 0;
  double seconds = 0.0;
  std::optional<std::string> failure;  // why the run stopped early (divergence); no scores then
  double valid_loss = 0.0;             // teacher-forced NLL per token at the end
  double valid_bleu = 0.0;             // greedy BLEU on the validation split
  double attention_entropy = 0.0;      // mean H(a_t) over validation target steps, nats
  double attention_max_weight = 0.0;   // mean max_i a_{t,i} over the same steps
};

// Trains each setting in a temporary run directory (deleted afterwards) with key_value
// attention of size attention_size, heatmaps off; the attention statistics come from the last
// checkpoint, teacher-forced on the validation split.
std::vector<TrainingRow> training_study(const TrainingStudyOptions& options);

}  // namespace s2s::experiments
