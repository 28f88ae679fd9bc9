#include "cli/bench.h"

#include <spdlog/fmt/fmt.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "checkpoint/checkpoint.h"
#include "config/json_io.h"
#include "device/device.h"
#include "device/precision.h"
#include "experiments/bench.h"
#include "experiments/breakdown.h"
#include "experiments/machine.h"
#include "model/build_model.h"
#include "platform/openblas.h"
#include "run/run_dir.h"
#include "train/training_data.h"
#include "util/error.h"
#include "util/logging.h"

namespace s2s::cli {
namespace {

// A unit of work (a training step, a decoded sentence) and where its time went, per unit.
struct Observed {
  std::string unit;
  experiments::ShareSeconds seconds{};  // per unit
  double total() const {
    double t = 0;
    for (const double s : seconds) t += s;
    return t;
  }
};

// The shares a Breakdown collected over `wall` seconds of `units` units.
Observed observed(const std::string& unit, const experiments::Breakdown& b, double wall,
                  int64_t units) {
  Observed o{unit, b.seconds(wall)};
  for (auto& s : o.seconds) s /= static_cast<double>(std::max<int64_t>(units, 1));
  return o;
}

// What one scorer measured.
struct ScorerReport {
  std::string scorer;
  int64_t params = 0, src_vocab = 0, tgt_vocab = 0;
  experiments::TrainBenchResult train;
  std::optional<experiments::DecodeBenchResult> greedy, beam;
  double peak_rss_mib = 0.0;
  std::vector<Observed> breakdown;  // --breakdown: training step, greedy and beam sentences
};

// What the whole process measured, shared by every scorer's report.
struct MachineReport {
  double startup_s = 0.0;          // process start -> first training update
  double probe_gflops = 0.0;       // practical peak of an fp32 matrix product
  double probe_bf16_gflops = 0.0;  // and of a bf16 one
  double blas_check_gflops = 0.0;  // the 256 x 256 sanity check
  std::string device;
  int64_t threads = 0;
  device::Precision train_precision = device::Precision::kFp32,
                    eval_precision = device::Precision::kFp32;
  std::string precision_note;  // why that precision
  // The probe of the training's precision: what its FLOP rate is read against.
  double matching_probe() const {
    return train_precision == device::Precision::kBf16 ? probe_bf16_gflops : probe_gflops;
  }
};

void check_options(const BenchArgs& o) {
  const auto fail = [](const std::string& flag, const std::string& rule, int64_t value) {
    throw UserError(flag + " must be " + rule + ", got " + std::to_string(value));
  };
  if (o.steps < 1) fail("--steps", ">= 1", o.steps);
  if (o.warmup < 0) fail("--warmup", ">= 0", o.warmup);
  if (o.decode_sentences < 0) fail("--decode-sentences", ">= 0", o.decode_sentences);
  if (o.beam < 1 || o.beam > config::kMaxBeamSize) fail("--beam", "in [1, 100]", o.beam);
  if (!o.weights.empty() && !std::filesystem::is_regular_file(o.weights)) {
    throw InputError("--weights: checkpoint not found: " + o.weights);
  }
}

// The config with `scorer`, checked by the same rules as a config file.
config::Config with_scorer(const config::Config& base, const std::string& scorer) {
  config::Config c = base;
  c.model.attention.scorer = scorer;
  config::validate(c);
  return c;
}

// A second pass of what bench_one timed, observed: training steps from the current weights
// (before --weights are loaded, as the timed pass), then decoding.
std::vector<Observed> observe_training(const config::Config& c, const train::TrainingData& data,
                                       model::Seq2Seq& model, torch::Device device,
                                       const MachineReport& m, const BenchArgs& o) {
  experiments::Breakdown b;
  const auto t =
      experiments::bench_training(c, data, model, device, m.train_precision, {o.steps, 0});
  return {observed("training step", b, t.seconds, t.steps)};
}

Observed observe_decoding(const config::Config& c, const train::TrainingData& data,
                          const model::Seq2Seq& model, torch::Device device, const MachineReport& m,
                          const BenchArgs& o, int64_t beam) {
  experiments::Breakdown b;
  const auto d = experiments::bench_decoding(model, data, c.evaluation, beam, o.decode_sentences,
                                             device, m.eval_precision);
  return observed(beam == 1 ? "greedy sentence" : fmt::format("beam{} sentence", beam), b,
                  d.seconds, d.sentences);
}

ScorerReport bench_one(const config::Config& c, const train::TrainingData& data,
                       torch::Device device, const MachineReport& m, const BenchArgs& o) {
  ScorerReport r;
  r.scorer = c.model.attention.scorer;
  device::seed_everything(c.seed);  // every scorer starts from the same seed and batches
  auto model = model::build_model(c.model, data.src_vocab.size(), data.tgt_vocab.size(),
                                  c.training.reinforce);
  model->to(device);
  r.params = model::count_parameters(*model);
  r.src_vocab = data.src_vocab.size();
  r.tgt_vocab = data.tgt_vocab.size();
  r.train =
      experiments::bench_training(c, data, model, device, m.train_precision, {o.steps, o.warmup});
  if (o.breakdown) r.breakdown = observe_training(c, data, model, device, m, o);
  if (!o.weights.empty()) {
    checkpoint::load_checkpoint(
        o.weights, *model, /*optimizer=*/nullptr,
        run::model_signature(c.model, r.src_vocab, r.tgt_vocab,
                             model::has_learned_baseline(c.model, c.training.reinforce)));
    model->to(device);  // loading puts tensors on the device they were saved from
  }
  if (o.decode_sentences > 0) {
    r.greedy = experiments::bench_decoding(model, data, c.evaluation, 1, o.decode_sentences, device,
                                           m.eval_precision);
    if (o.beam > 1) {
      r.beam = experiments::bench_decoding(model, data, c.evaluation, o.beam, o.decode_sentences,
                                           device, m.eval_precision);
    }
    if (o.breakdown) {
      r.breakdown.push_back(observe_decoding(c, data, model, device, m, o, 1));
      if (o.beam > 1) r.breakdown.push_back(observe_decoding(c, data, model, device, m, o, o.beam));
    }
  }
  r.peak_rss_mib = experiments::peak_rss_mib();
  util::logger("bench")->info("{}: {} parameters, {:.0f} tgt tok/s, greedy {:.1f} sent/s", r.scorer,
                              r.params, static_cast<double>(r.train.tgt_tokens) / r.train.seconds,
                              r.greedy ? r.greedy->sentences_per_s() : 0.0);
  return r;
}

double rounded(double value, int digits) {
  const double scale = std::pow(10.0, digits);
  return std::round(value * scale) / scale;
}

// Training GFLOP/s achieved: 3 x 2 x MACs (forward + backward at twice the forward, 2 FLOPs per
// multiply-add; experiments/flops.cpp) per second.
double train_gflops(const experiments::TrainBenchResult& t) {
  return 6.0 * static_cast<double>(t.forward_macs) / t.seconds / 1e9;
}

void put_decode(nlohmann::ordered_json& j, const std::string& name,
                const std::optional<experiments::DecodeBenchResult>& d) {
  if (!d) {
    j[name + "_s"] = nullptr;
    j[name + "_sentences_per_s"] = nullptr;
    j[name + "_mean_length"] = nullptr;
    j[name + "_rows_per_sentence"] = nullptr;
    return;
  }
  j[name + "_s"] = rounded(d->seconds, 3);
  j[name + "_sentences_per_s"] = rounded(d->sentences_per_s(), 2);
  j[name + "_mean_length"] =
      rounded(static_cast<double>(d->output_tokens) / static_cast<double>(d->sentences), 2);
  j[name + "_rows_per_sentence"] =
      rounded(static_cast<double>(d->rows) / static_cast<double>(d->sentences), 2);
}

nlohmann::ordered_json report_json(const ScorerReport& r, const MachineReport& m,
                                   const config::Config& c, const BenchArgs& o) {
  const auto& t = r.train;
  nlohmann::ordered_json j;
  j["scorer"] = r.scorer;
  j["config"] = o.config;
  j["device"] = m.device;
  j["threads"] = m.threads;
  j["precision"] = device::to_string(m.train_precision);
  j["decode_precision"] = device::to_string(m.eval_precision);
  j["params"] = r.params;
  j["src_vocab"] = r.src_vocab;
  j["tgt_vocab"] = r.tgt_vocab;
  j["batch_size"] = c.training.batch_size;
  j["startup_s"] = rounded(m.startup_s, 3);
  j["warmup_steps"] = o.warmup;
  j["steps"] = t.steps;
  j["tgt_tokens"] = t.tgt_tokens;
  j["train_s"] = rounded(t.seconds, 3);
  j["tgt_tokens_per_s"] = rounded(static_cast<double>(t.tgt_tokens) / t.seconds, 1);
  j["mean_loss"] = rounded(t.mean_loss, 4);
  j["macs_per_tgt_token"] = t.forward_macs / std::max<int64_t>(t.tgt_tokens, 1);
  j["train_gflop_per_s"] = rounded(train_gflops(t), 2);
  j["probe_gflop_per_s"] = rounded(m.probe_gflops, 2);
  j["probe_bf16_gflop_per_s"] = rounded(m.probe_bf16_gflops, 2);
  // Against the probe of the training's own precision.
  j["fraction_of_peak"] = rounded(train_gflops(t) / m.matching_probe(), 4);
  j["decode_sentences"] = r.greedy ? r.greedy->sentences : 0;
  put_decode(j, "greedy", r.greedy);
  j["beam_size"] = o.beam;
  put_decode(j, "beam", r.beam);
  if (!r.breakdown.empty()) {
    auto& out = j["breakdown_ms"];  // per unit, by share (experiments/breakdown.h)
    for (const auto& b : r.breakdown) {
      auto& unit = out[b.unit];
      for (std::size_t i = 0; i < experiments::kShares; ++i) {
        unit[experiments::share_name(static_cast<experiments::Share>(i))] =
            rounded(1000.0 * b.seconds[i], 4);
      }
    }
  }
  j["peak_rss_mib"] = rounded(r.peak_rss_mib, 1);
  j["blas_check_gflop_per_s"] = rounded(m.blas_check_gflops, 2);
  j["blas_kernels"] = platform::openblas_kernels();
  return j;
}

std::string format_rate(const std::optional<experiments::DecodeBenchResult>& d) {
  return d ? fmt::format("{:.1f}", d->sentences_per_s()) : std::string("-");
}

void print_table(const std::vector<ScorerReport>& reports, const MachineReport& m,
                 const BenchArgs& o) {
  std::cout << fmt::format(
      "device {}, {} threads, training in {}; startup {:.2f} s; probes fp32 {:.1f}, bf16 {:.1f} "
      "GFLOP/s\n",
      m.device, m.threads, m.precision_note, m.startup_s, m.probe_gflops, m.probe_bf16_gflops);
  std::cout << fmt::format("{:<11} {:>10} {:>12} {:>9} {:>7} {:>10} {:>10} {:>9}\n", "scorer",
                           "params", "tgt tok/s", "GFLOP/s", "% peak", "greedy/s",
                           fmt::format("beam{}/s", o.beam), "peak MiB");
  for (const auto& r : reports) {
    const double gflops = train_gflops(r.train);
    std::cout << fmt::format("{:<11} {:>10} {:>12.1f} {:>9.2f} {:>7.1f} {:>10} {:>10} {:>9.0f}\n",
                             r.scorer, r.params,
                             static_cast<double>(r.train.tgt_tokens) / r.train.seconds, gflops,
                             100.0 * gflops / m.matching_probe(), format_rate(r.greedy),
                             format_rate(r.beam), r.peak_rss_mib);
  }
  for (const auto& r : reports) {
    for (const auto& b : r.breakdown) {
      std::cout << fmt::format("{} {}: {:.3f} ms: {}\n", r.scorer, b.unit, 1000.0 * b.total(),
                               experiments::format_shares(b.seconds));
    }
  }
}

}  // namespace

void setup_bench(CLI::App& app) {
  auto args = std::make_shared<BenchArgs>();
  auto* sub = app.add_subcommand("bench", "Measure training and decoding speed of a config");
  sub->add_option("-c,--config", args->config, "JSON config file")->required();
  sub->add_option("--set", args->overrides, "Override a config value: section.key=value")
      ->take_all();
  sub->add_option("--steps", args->steps, "Timed training updates")->capture_default_str();
  sub->add_option("--warmup", args->warmup, "Untimed updates before them")->capture_default_str();
  sub->add_option("--decode-sentences", args->decode_sentences,
                  "Decode the first M validation sentences (0: no decoding)")
      ->capture_default_str();
  sub->add_option("--beam", args->beam, "Also time beam search with this K (1: greedy only)")
      ->capture_default_str();
  sub->add_option("--weights", args->weights,
                  "Decode with the weights of this checkpoint (trained on the same config)");
  sub->add_option("--scorers", args->scorers,
                  "Attention scorers to measure: 'all' or a comma-separated list "
                  "(default: the config's)");
  sub->add_flag("--json", args->json, "One JSON object per scorer on stdout");
  sub->add_flag("--breakdown", args->breakdown,
                "Also show where a training step and a decoded sentence spend their time "
                "(matrix products, attention, GRU, loss, optimizer, ...), from a second pass");
  sub->callback([args] { run_bench(*args); });
}

std::vector<std::string> bench_scorers(const std::string& list, const std::string& configured) {
  const auto& valid = config::scorer_names();
  if (list.empty()) return {configured};
  if (list == "all") return valid;
  std::vector<std::string> out;
  std::istringstream names(list);
  for (std::string name; std::getline(names, name, ',');) {
    if (std::find(valid.begin(), valid.end(), name) == valid.end()) {
      std::string names_text = "all";
      for (const auto& v : valid) names_text += ", " + v;
      throw ConfigError("--scorers: unknown scorer '" + name + "' (valid: " + names_text + ")");
    }
    out.push_back(name);
  }
  return out;
}

void run_bench(const BenchArgs& args) {
  check_options(args);
  const config::Config base = config::load_config(args.config, args.overrides);
  std::vector<config::Config> configs;
  for (const auto& scorer : bench_scorers(args.scorers, base.model.attention.scorer)) {
    configs.push_back(with_scorer(base, scorer));
  }
  if (!args.weights.empty() && configs.size() > 1) {
    throw UserError("--weights: a checkpoint fits one scorer; with --scorers list just one");
  }
  config::validate_files(base);
  util::logger("device")->info("{}", device::set_threads(base.training.threads));
  MachineReport machine;
  machine.blas_check_gflops = device::check_blas_speed();
  const auto device = device::resolve_device(base.device);
  machine.device = device.str();
  machine.threads = torch::get_num_threads();
  const auto capabilities = device::detect_capabilities(device);
  const auto train =
      device::choose_precision(base.training.precision, capabilities, "training.precision");
  machine.train_precision = train.precision;
  machine.precision_note = train.description;
  machine.eval_precision =
      device::choose_precision(base.evaluation.precision, capabilities).precision;
  const auto data = train::prepare_training_data(base);
  std::vector<ScorerReport> reports;
  for (std::size_t i = 0; i < configs.size(); ++i) {
    if (i > 0)
      experiments::reset_peak_rss();  // each scorer's own peak (the first includes the data)
    reports.push_back(bench_one(configs[i], data, device, machine, args));
  }
  machine.startup_s = reports.front().train.first_step_at;
  machine.probe_gflops = experiments::matmul_probe_gflops(device, torch::kFloat);
  machine.probe_bf16_gflops = experiments::matmul_probe_gflops(device, torch::kBFloat16);
  if (!args.json) {
    print_table(reports, machine, args);
    return;
  }
  for (std::size_t i = 0; i < reports.size(); ++i) {
    std::cout << report_json(reports[i], machine, configs[i], args).dump() << "\n";
  }
}

}  // namespace s2s::cli
