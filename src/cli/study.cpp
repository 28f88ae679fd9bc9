#include "cli/study.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <memory>
#include <sstream>
#include <variant>
#include <vector>

#include "cli/study_attention.h"
#include "config/json_io.h"
#include "util/error.h"
#include "util/fs.h"
#include "util/table.h"

namespace s2s::cli {
namespace {

using util::Table;

constexpr int kShownDigits = 4;  // significant digits on stdout
constexpr int kCsvDigits = 10;   // significant digits in CSV

void maybe_write_csv(const std::string& path, const Table& table) {
  if (path.empty()) return;
  util::write_file_atomic(path, util::format_csv(table, kCsvDigits));
  std::cout << "wrote " << path << "\n";
}

// ---- scaling ---------------------------------------------------------------------------------

Table scaling_table(const std::vector<experiments::ScalingRow>& rows) {
  Table t;
  t.header = {"D",
              "var_unscaled",
              "var_scaled",
              "max_w_unscaled",
              "max_w_scaled",
              "entropy_unscaled",
              "entropy_scaled",
              "jac_unscaled",
              "jac_scaled",
              "jac_med_unscaled",
              "jac_med_scaled"};
  for (const auto& r : rows) {
    t.rows.push_back({r.dim, r.var_unscaled, r.var_scaled, r.unscaled.max_weight,
                      r.scaled.max_weight, r.unscaled.entropy, r.scaled.entropy,
                      r.unscaled.jacobian_norm, r.scaled.jacobian_norm, r.unscaled.jacobian_median,
                      r.scaled.jacobian_median});
  }
  return t;
}

void print_scaling_legend(const experiments::ScalingOptions& o) {
  const auto n = static_cast<double>(o.keys);
  std::cout << "q, k ~ N(0, I_D); scores s_i = q.k_i (unscaled) or q.k_i / sqrt(D) (scaled); a = "
               "softmax(s) over n = "
            << o.keys << " keys; " << o.samples << " queries per D; seed " << o.seed << "\n"
            << "max_w: mean largest weight (uniform " << std::setprecision(kShownDigits) << 1.0 / n
            << ", one-hot 1); entropy: mean H(a) in nats (uniform ln n = " << std::log(n) << ")\n"
            << "jac: mean Frobenius norm ||J||_F of the softmax Jacobian J = da/ds = diag(a) - a "
               "a^T (uniform "
            << std::sqrt(n - 1.0) / n << ", one-hot 0); jac_med: its median over the queries\n\n";
}

// ---- init ------------------------------------------------------------------------------------

Table stack_table(const std::vector<experiments::StackRow>& rows) {
  Table t;
  t.header = {"init", "activation", "layer", "activation_var", "gradient_var"};
  for (const auto& r : rows) {
    t.rows.push_back({r.init, r.activation, r.layer, r.activation_var, r.gradient_var});
  }
  return t;
}

std::string training_status(const experiments::TrainingRow& r) {
  return r.failure ? "failed: " + *r.failure : std::string("ok");
}

Table training_table(const std::vector<experiments::TrainingRow>& rows) {
  Table t;
  t.header = {"setting",           "steps",           "valid_loss", "valid_bleu",
              "attention_entropy", "attention_max_w", "seconds",    "status"};
  for (const auto& r : rows) {
    t.rows.push_back({r.setting, r.steps, r.valid_loss, r.valid_bleu, r.attention_entropy,
                      r.attention_max_weight, std::round(r.seconds), training_status(r)});
  }
  return t;
}

// Both experiments in one CSV; a column that does not apply to a row is empty.
Table init_csv(const std::vector<experiments::StackRow>& stack,
               const std::vector<experiments::TrainingRow>& training) {
  Table t;
  t.header = {"experiment",      "setting", "activation", "layer",      "activation_var",
              "gradient_var",    "steps",   "valid_loss", "valid_bleu", "attention_entropy",
              "attention_max_w", "seconds", "status"};
  const std::string none;
  for (const auto& r : stack) {
    t.rows.push_back({std::string("stack"), r.init, r.activation, r.layer, r.activation_var,
                      r.gradient_var, none, none, none, none, none, none, std::string("ok")});
  }
  for (const auto& r : training) {
    t.rows.push_back({std::string("train"), r.setting, none, none, none, none, r.steps,
                      r.valid_loss, r.valid_bleu, r.attention_entropy, r.attention_max_weight,
                      r.seconds, training_status(r)});
  }
  return t;
}

void print_stack_legend(const experiments::StackOptions& o) {
  std::cout << "deep stack: h_l = f(h_{l-1} W_l^T), l = 1.." << o.depth << ", " << o.width << " -> "
            << o.width << " units, no biases; h_0 ~ N(0, I), batch " << o.batch
            << "; Loss = sum_b h_L[b].r, r ~ N(0, I) fixed; seed " << o.seed << "\n"
            << "activation_var = Var(h_l), gradient_var = Var(dLoss/dh_l); xavier_uniform: "
               "Var(w) = 2/(n_in+n_out); normal(s): N(0, s^2)\n\n";
}

void print_training_legend(const experiments::TrainingStudyOptions& o) {
  std::cout << "\ntraining: " << o.config << " with emb " << o.emb_size << ", hidden "
            << o.hidden_size << ", key_value attention of size " << o.attention_size << ", "
            << o.steps << " steps, seed " << o.seed
            << "; validation split: greedy BLEU, teacher-forced loss and attention\n\n";
}

void check_csv(const std::string& path) {
  if (path.empty()) return;
  const auto folder = std::filesystem::path(path).parent_path();
  if (!folder.empty() && !std::filesystem::is_directory(folder)) {
    throw UserError("--csv: folder not found: " + folder.string());
  }
}

}  // namespace

void setup_study(CLI::App& app) {
  CLI::App* study = app.add_subcommand(
      "study", "Experiments: why attention scales by 1/sqrt(D); attention variants side by side");
  study->require_subcommand(1);

  auto scaling = std::make_shared<StudyScalingArgs>();
  CLI::App* s = study->add_subcommand(
      "scaling", "Variance of q.k and softmax saturation, with and without 1/sqrt(D)");
  s->add_option("--dims", scaling->study.dims, "Key/query sizes D, comma-separated")
      ->delimiter(',')
      ->capture_default_str();
  s->add_option("--keys", scaling->study.keys, "Keys n per softmax")->capture_default_str();
  s->add_option("--samples", scaling->study.samples, "Queries per D")->capture_default_str();
  s->add_option("--seed", scaling->study.seed, "Random seed")->capture_default_str();
  s->add_option("--csv", scaling->csv, "Also write the rows as CSV to this file");
  s->footer(
      "jac_* is the mean (jac_med_*: the median) over the queries of the Frobenius norm of the "
      "softmax Jacobian J = da/ds = diag(a) - a a^T, the matrix that carries the gradient from the "
      "weights a back to the scores s: it is 0 for a one-hot softmax, sqrt(n-1)/n for a uniform "
      "one. A saturated softmax's mean is carried by the rare near-ties of the two largest "
      "scores; the median shows the typical query.");
  s->callback([scaling] { run_study_scaling(*scaling); });

  auto init = std::make_shared<StudyInitArgs>();
  CLI::App* i = study->add_subcommand(
      "init", "Xavier vs N(0,1) vs N(0,0.01) in a deep stack; dot vs scaled_dot trainings");
  i->add_option("--depth", init->stack.depth, "Layers L of the deep stack")->capture_default_str();
  i->add_option("--width", init->stack.width, "Units per layer")->capture_default_str();
  i->add_option("--seed", init->stack.seed, "Random seed (stack and trainings)")
      ->capture_default_str();
  i->add_option("--csv", init->csv, "Also write the rows as CSV to this file");
  i->add_option("--train-steps", init->training.steps, "Updates per training run")
      ->capture_default_str();
  i->add_option("--config", init->training.config, "Config for the corpus and defaults")
      ->capture_default_str();
  i->add_flag("--skip-training", init->skip_training, "Only the deep-stack experiment");
  i->footer(
      "CSV layout: experiment (stack | train), setting, then the stack columns (activation, "
      "layer, activation_var, gradient_var) and the training columns (steps, valid_loss, "
      "valid_bleu, attention_entropy, attention_max_w, seconds); a column that does not apply to "
      "a row is empty. Each training run takes about a minute per 100 steps on one thread.");
  i->callback([init] {
    init->training.seed = init->stack.seed;
    run_study_init(*init);
  });
  setup_study_attention(*study);
}

// Every size has a bound, checked before any work: what the tensors of the largest allowed
// options hold stays under about 1 GB of doubles.
constexpr double kMaxElements = 1.25e8;

void check_range(const std::string& flag, int64_t value, int64_t low, int64_t high) {
  if (value < low || value > high) {
    throw UserError(flag + ": must be in [" + std::to_string(low) + ", " + std::to_string(high) +
                    "], got " + std::to_string(value));
  }
}

void check_options(const StudyScalingArgs& o) {
  check_csv(o.csv);
  const auto& s = o.study;
  if (s.dims.empty()) throw UserError("--dims: give at least one dimension");
  for (const int64_t d : s.dims) {
    if (d < 1) throw UserError("--dims: every dimension must be >= 1, got " + std::to_string(d));
    check_range("--dims", d, 1, 65536);
  }
  check_range("--keys", s.keys, 2, 100000);
  check_range("--samples", s.samples, 2, 10000000);
  const auto largest = *std::max_element(s.dims.begin(), s.dims.end());
  if (static_cast<double>(s.samples) * static_cast<double>(s.keys) * static_cast<double>(largest) >
      kMaxElements) {
    throw UserError("--samples x --keys x --dims: " + std::to_string(s.samples) + " x " +
                    std::to_string(s.keys) + " x " + std::to_string(largest) +
                    " values are too many (at most 1.25e8)");
  }
}

void check_options(const StudyInitArgs& o) {
  check_csv(o.csv);
  const auto& s = o.stack;
  check_range("--depth", s.depth, 1, 10000);
  check_range("--width", s.width, 1, 8192);
  // The stack keeps every layer's activations [B, W] for the backward pass.
  if (static_cast<double>(s.depth) * static_cast<double>(s.batch) * static_cast<double>(s.width) >
      kMaxElements) {
    throw UserError("--depth x --width: " + std::to_string(s.depth) + " layers of " +
                    std::to_string(s.width) +
                    " units hold too many activations (at most 1.25e8 "
                    "values for a batch of " +
                    std::to_string(s.batch) + ")");
  }
  if (o.skip_training) return;
  const auto steps = o.training.steps;
  if (steps < 1) throw UserError("--train-steps: must be >= 1, got " + std::to_string(steps));
  config::load_config(o.training.config);  // a missing or broken config fails before any work
}

void run_study_scaling(const StudyScalingArgs& args) {
  check_options(args);
  const auto table = scaling_table(experiments::scaling_study(args.study));
  print_scaling_legend(args.study);
  std::cout << util::format_table(table, kShownDigits);
  maybe_write_csv(args.csv, table);
}

void run_study_init(const StudyInitArgs& args) {
  check_options(args);
  const auto stack = experiments::stack_study(args.stack);
  print_stack_legend(args.stack);
  std::cout << util::format_table(stack_table(stack), kShownDigits) << std::flush;
  std::vector<experiments::TrainingRow> training;
  if (!args.skip_training) {
    training = experiments::training_study(args.training);
    print_training_legend(args.training);
    std::cout << util::format_table(training_table(training), kShownDigits);
  }
  maybe_write_csv(args.csv, init_csv(stack, training));
}

}  // namespace s2s::cli
