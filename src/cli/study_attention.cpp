#include "cli/study_attention.h"

#include <chrono>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>

#include "checkpoint/average.h"
#include "cli/report.h"
#include "cli/train.h"
#include "config/choices.h"
#include "config/json_io.h"
#include "train/trainer.h"
#include "util/error.h"
#include "util/fs.h"
#include "util/strings.h"
#include "util/table.h"

namespace s2s::cli {
namespace {

namespace fs = std::filesystem;
using util::Table;

constexpr int kShownDigits = 4;
constexpr int kCsvDigits = 10;

// One trained combination.
struct StudyRow {
  std::string scorer, normalizer, variant, run_dir;
  double bleu = 0.0, chrf = 0.0;
  std::optional<double> aer;  // when the test split has gold alignments
  double entropy = 0.0, zeros = 0.0;
  int64_t parameters = 0;
  double tokens_per_s = 0.0, minutes = 0.0;
};

void check_names(const char* flag, const std::vector<std::string>& given,
                 const std::vector<std::string>& valid) {
  if (given.empty()) throw UserError(std::string(flag) + ": give at least one name");
  for (const auto& name : given) {
    if (std::find(valid.begin(), valid.end(), name) == valid.end()) {
      throw UserError(std::string(flag) + ": unknown name '" + name +
                      "' (valid: " + util::join(valid, ", ") + ")");
    }
  }
}

std::vector<std::string> variant_names() {
  std::vector<std::string> names;
  for (const auto& v : study_variants()) names.emplace_back(v.name);
  return names;
}

std::string run_name(const std::string& scorer, const std::string& normalizer,
                     const std::string& variant) {
  return scorer + "-" + normalizer + "-" + variant;
}

// The test scores a training wrote (test.scores.json): AER, entropy and zeros.
void read_attention_scores(const std::string& path, StudyRow& row) {
  const auto json = nlohmann::json::parse(util::read_file(path));
  if (json.contains("aer")) row.aer = json["aer"].get<double>();
  row.entropy = json.value("attention_entropy", 0.0);
  row.zeros = json.value("attention_zeros", 0.0);
}

StudyRow train_combination(const StudyAttentionArgs& args, const config::Config& config,
                           StudyRow row) {
  const auto start = std::chrono::steady_clock::now();
  train::TrainOptions options;
  options.overwrite = args.overwrite;
  options.config_file = args.config;
  train::Trainer trainer(config, options);
  const auto summary = trainer.train();
  const std::string checkpoint = summary.averaged.empty() ? "best" : checkpoint::kTrainingAverage;
  const auto test = run_test(config, trainer.paths(), checkpoint);
  row.run_dir = trainer.paths().dir;
  row.bleu = test.scores->bleu;
  row.chrf = test.scores->chrf;
  read_attention_scores(test.scores->scores_path, row);
  row.parameters = summary.parameters;
  row.tokens_per_s = static_cast<double>(summary.tokens) / std::max(summary.seconds, 1e-9);
  row.minutes =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() / 60.0;
  return row;
}

Table study_table(const std::vector<StudyRow>& rows) {
  Table t;
  t.header = {"scorer",  "normalizer", "variant",    "test_bleu",    "chrf",   "aer",
              "entropy", "zeros",      "parameters", "tokens_per_s", "minutes"};
  for (const auto& r : rows) {
    const util::Cell aer = r.aer ? util::Cell(*r.aer) : util::Cell(std::string("-"));
    t.rows.push_back({r.scorer, r.normalizer, r.variant, r.bleu, r.chrf, aer, r.entropy, r.zeros,
                      r.parameters, std::round(r.tokens_per_s), r.minutes});
  }
  return t;
}

void print_legend(const StudyAttentionArgs& args, const config::Config& first) {
  std::cout << "\nstudy attention: " << args.config << ", seed " << first.seed << ", "
            << (args.steps > 0 ? std::to_string(args.steps) + " updates"
                               : std::string("the config's budget"))
            << " per run; test split decoded with beam " << first.evaluation.beam_size << "\n"
            << "aer: teacher-forced attention argmax against the gold (lower is better); "
               "entropy: mean H(a_t) in nats; zeros: share of weights exactly 0; tokens_per_s: "
               "training target tokens per second (validation included)\n\n";
}

}  // namespace

const std::vector<StudyVariant>& study_variants() {
  static const std::vector<StudyVariant> variants = {
      {"none", "the scorer and normalizer alone",
       [](config::Config&, const StudyAttentionArgs&) {}},
      {"coverage", "model.attention.coverage (Tu et al. 2016)",
       [](config::Config& c, const StudyAttentionArgs&) { c.model.attention.coverage = true; }},
      {"local_m", "model.attention.local = local_m, window --window",
       [](config::Config& c, const StudyAttentionArgs& a) {
         c.model.attention.local = "local_m";
         c.model.attention.window = a.window;
       }},
      {"local_p", "model.attention.local = local_p, window --window",
       [](config::Config& c, const StudyAttentionArgs& a) {
         c.model.attention.local = "local_p";
         c.model.attention.window = a.window;
       }},
      {"guided", "training.guided_alignment.weight = --guide-weight (needs data.train_alignments)",
       [](config::Config& c, const StudyAttentionArgs& a) {
         if (c.data.train_alignments.empty()) {
           throw UserError("--variants guided: " + a.config +
                           " names no data.train_alignments (the gold of data.train)");
         }
         c.training.guided_alignment.weight = a.guide_weight;
       }},
  };
  return variants;
}

config::Config study_attention_config(const StudyAttentionArgs& args, const std::string& scorer,
                                      const std::string& normalizer, const std::string& variant) {
  config::Config c = config::load_config(args.config);
  c.name = "study-attention-" + run_name(scorer, normalizer, variant);
  c.run_dir = (fs::path(args.out) / run_name(scorer, normalizer, variant)).string();
  c.training.members = 1;
  c.model.attention.scorer = scorer;
  c.model.attention.normalizer = normalizer;
  if (args.steps > 0) c.training.max_steps = args.steps;
  for (const auto& v : study_variants()) {
    if (variant == v.name) v.apply(c, args);
  }
  config::validate(c);
  config::validate_files(c);
  if (c.data.test.empty()) {
    throw UserError("--config: " + args.config + " names no data.test (the study scores it)");
  }
  return c;
}

void run_study_attention(const StudyAttentionArgs& args) {
  check_names("--scorers", args.scorers, config::scorer_names());
  check_names("--normalizers", args.normalizers, config::normalizer_names());
  check_names("--variants", args.variants, variant_names());
  if (args.steps < 0) throw UserError("--steps: must be >= 0 (0 = the config's budget)");
  if (args.guide_weight <= 0) throw UserError("--guide-weight: must be > 0");
  if (!args.csv.empty()) util::check_output_file("--csv", args.csv, "study.csv");
  // Every combination's config first: a refusal comes before any training.
  std::vector<std::pair<config::Config, StudyRow>> grid;
  for (const auto& s : args.scorers) {
    for (const auto& n : args.normalizers) {
      for (const auto& v : args.variants) {
        auto c = study_attention_config(args, s, n, v);
        if (!args.overwrite && fs::exists(c.run_dir)) {
          throw UserError("--out: " + c.run_dir +
                          " exists (an earlier study); pass --overwrite to train it again, or "
                          "choose another --out");
        }
        StudyRow row;
        row.scorer = s;
        row.normalizer = n;
        row.variant = v;
        grid.emplace_back(std::move(c), row);
      }
    }
  }
  util::make_output_dir("--out", args.out);
  std::vector<StudyRow> rows;
  for (const auto& [combination, row] : grid) {
    rows.push_back(train_combination(args, combination, row));
  }
  const auto table = study_table(rows);
  print_legend(args, grid.front().first);
  std::cout << util::format_table(table, kShownDigits) << std::flush;  // before the report's log
  ReportArgs report;
  for (const auto& r : rows) report.runs.push_back(r.run_dir);
  report.out = (fs::path(args.out) / "report.html").string();
  std::cout << "report: " << run_report(report) << " (the runs side by side)\n";
  if (!args.csv.empty()) {
    util::write_file_atomic(args.csv, util::format_csv(table, kCsvDigits));
    std::cout << "wrote " << args.csv << "\n";
  }
}

void setup_study_attention(CLI::App& study) {
  auto args = std::make_shared<StudyAttentionArgs>();
  CLI::App* a = study.add_subcommand(
      "attention", "Normalizers, coverage, local and guided attention trained side by side");
  a->add_option("--config", args->config, "Config for the corpus, model and defaults")
      ->capture_default_str();
  a->add_option("--scorers", args->scorers, "Scorers: " + util::join(config::scorer_names(), ", "))
      ->delimiter(',')
      ->capture_default_str();
  a->add_option("--normalizers", args->normalizers,
                "Normalizers: " + util::join(config::normalizer_names(), ", "))
      ->delimiter(',')
      ->capture_default_str();
  std::string variants_help = "Variants:";
  for (const auto& v : study_variants()) {
    variants_help += std::string(" ") + v.name + " (" + v.help + ");";
  }
  a->add_option("--variants", args->variants, variants_help)->delimiter(',')->capture_default_str();
  a->add_option("--steps", args->steps, "Updates per run; 0 = the config's own budget")
      ->capture_default_str();
  a->add_option("--window", args->window, "D of local_m and local_p")->capture_default_str();
  a->add_option("--guide-weight", args->guide_weight, "lambda of the guided variant")
      ->capture_default_str();
  a->add_option("--out", args->out, "Folder of the runs and their report")->capture_default_str();
  a->add_flag("--overwrite", args->overwrite, "Train again in run folders an earlier study left");
  a->add_option("--csv", args->csv, "Also write the rows as CSV to this file");
  a->footer(
      "Every run uses the config's seed; its folder is --out/<scorer>-<normalizer>-<variant>, "
      "and --out/report.html shows them side by side. The default grid (15 runs of 700 updates "
      "on configs/default.json) took 19 minutes on 2 cores (docs/results.md).");
  a->callback([args] { run_study_attention(*args); });
}

}  // namespace s2s::cli
