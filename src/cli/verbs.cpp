#include "cli/verbs.h"

#include <spdlog/fmt/fmt.h>

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>

#include "checkpoint/average.h"
#include "checkpoint/load_run.h"
#include "cli/attention.h"
#include "cli/average.h"
#include "cli/bench.h"
#include "cli/bleu.h"
#include "cli/config.h"
#include "cli/evaluate.h"
#include "cli/prepare.h"
#include "cli/report.h"
#include "cli/serve.h"
#include "cli/study.h"
#include "cli/train.h"
#include "cli/translate.h"
#include "config/config.h"
#include "device/precision.h"
#include "eval/search_memory.h"
#include "eval/splits.h"
#include "util/error.h"
#include "util/logging.h"
#include "util/sha256.h"
#include "util/strings.h"

namespace s2s::cli {

void setup_verbs(CLI::App& app) {
  setup_train(app);
  setup_prepare(app);
  setup_evaluate(app);
  setup_translate(app);
  setup_serve(app);
  setup_attention(app);
  setup_average(app);
  setup_report(app);
  setup_bleu(app);
  setup_study(app);
  setup_bench(app);
  setup_config(app);
}

CLI::Validator integer_in(int64_t min, int64_t max) {
  const std::string rule = max == INT64_MAX
                               ? ">= " + std::to_string(min)
                               : "in [" + std::to_string(min) + ", " + std::to_string(max) + "]";
  return CLI::Validator(
      [=](std::string& text) -> std::string {
        int64_t value = 0;
        const char* end = text.data() + text.size();
        const auto [ptr, ec] = std::from_chars(text.data(), end, value);
        if (text.empty() || ec != std::errc() || ptr != end || value < min || value > max) {
          return "must be an integer " + rule + ", got '" + text + "'";
        }
        return "";
      },
      "INT " + rule);
}

CLI::Validator number_at_least(double min) {
  const std::string rule = fmt::format(">= {:g}", min);
  return CLI::Validator(
      [=](std::string& text) -> std::string {
        char* end = nullptr;  // strtod of "" parses nothing: end stays at the start
        const double value = std::strtod(text.c_str(), &end);
        if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(value) ||
            value < min) {
          return "must be a number " + rule + ", got '" + text + "'";
        }
        return "";
      },
      "NUMBER " + rule);
}

std::vector<std::string> RunArgs::checkpoints() const {
  std::vector<std::string> names;
  std::size_t start = 0;
  while (true) {
    const auto comma = checkpoint.find(',', start);
    names.push_back(checkpoint.substr(start, comma - start));
    if (comma == std::string::npos) return names;
    start = comma + 1;
  }
}

std::string RunArgs::model_label() const {
  const auto label = util::join(checkpoints(), "+");
  if (ensemble.size() <= 1) return label;
  std::string runs;
  for (const auto& r : ensemble)
    runs += std::filesystem::absolute(r).lexically_normal().string() + "\n";
  return fmt::format("ensemble{}-{}.{}", ensemble.size(), util::sha256_hex(runs).substr(0, 8),
                     label);
}

void add_run_options(CLI::App* sub, RunArgs& args) {
  auto* run = sub->add_option("--run", args.run, "Run directory");
  sub->add_option("--ensemble", args.ensemble,
                  "Decode several runs as one (RUN,RUN,...), with the mean of their "
                  "next-token probabilities; the runs must share vocabularies and "
                  "tokenization. Outputs go to the first run")
      ->delimiter(',')
      ->excludes(run);
  // A usage error, with the verb's --help named, like CLI11's own.
  sub->parse_complete_callback([&args] {
    if (args.run.empty() && args.ensemble.empty()) {
      throw CLI::RequiredError("--run DIR or --ensemble DIR,DIR,...");
    }
  });
  sub->add_option("--checkpoint", args.checkpoint,
                  "Checkpoint to load: best, last, step_N (training.keep_step_checkpoints) or "
                  "a name `s2s average` wrote; several, comma-separated, decode as an ensemble")
      ->check(CLI::Validator(
          [](std::string& names) -> std::string {
            RunArgs parsed;
            parsed.checkpoint = names;
            for (const auto& name : parsed.checkpoints()) {
              if (!checkpoint::is_checkpoint_name(name)) {
                return "must be best, last, step_N or an average's name (letters, digits, "
                       "'_', '-'), or several of them separated by commas, got '" +
                       names + "'";
              }
            }
            return "";
          },
          "best|last|step_N|NAME[,...]"))
      ->capture_default_str();
  sub->add_option("--beam", args.beam, "Beam size (default: the run's evaluation.beam_size)")
      ->check(integer_in(1, config::kMaxBeamSize));
  sub->add_option("--length-penalty", args.length_penalty,
                  "Beam search's GNMT length penalty alpha, >= 0 (default: the run's "
                  "evaluation.length_penalty)")
      ->check(number_at_least(0.0));
  sub->add_option("--beam-rule", args.beam_rule,
                  "What ends a beam hypothesis (default: the run's evaluation.beam_rule): " +
                      config::choice_help<config::BeamRule>())
      ->check(CLI::IsMember(config::choice_names<config::BeamRule>()));
  sub->add_option("--beam-prune", args.beam_prune,
                  "Beam search drops prefixes more than this many nats below their sentence's "
                  "best, >= 0, 0 = off (default: the run's evaluation.beam_prune)")
      ->check(number_at_least(0.0));
  sub->add_option("--precision", args.precision,
                  "Decoding precision (default: the run's evaluation.precision): " +
                      config::choice_help<config::PrecisionMode>())
      ->check(CLI::IsMember(config::choice_names<config::PrecisionMode>()));
}

checkpoint::LoadedRun load_decoding_run(const RunArgs& args) {
  if (args.run.empty() && args.ensemble.empty()) {
    throw UserError("give the model to decode: --run DIR or --ensemble DIR,DIR,...");
  }
  const auto checkpoints = args.checkpoints();
  for (std::size_t i = 0; i < checkpoints.size(); ++i) {
    for (std::size_t j = 0; j < i; ++j) {
      if (checkpoints[i] == checkpoints[j]) {
        throw UserError("--checkpoint names " + checkpoints[i] + " twice");
      }
    }
  }
  const std::vector<std::string> runs =
      args.ensemble.empty() ? std::vector{args.run} : args.ensemble;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    for (std::size_t j = 0; j < i; ++j) {
      if (std::filesystem::weakly_canonical(runs[i]) ==
          std::filesystem::weakly_canonical(runs[j])) {
        throw UserError("--ensemble names " + runs[i] + " twice");
      }
    }
  }
  auto run = checkpoint::load_ensemble(runs, checkpoints, args.precision);
  for (const auto& name : run.member_names) util::logger("eval")->info("model {}", name);
  return run;
}

void add_split_option(CLI::App* sub, std::string& split) {
  sub->add_option("--split", split, "Which split of the run's data")
      ->check(CLI::IsMember(eval::split_names()))
      ->capture_default_str();
}

eval::TranslateOptions decode_options(const checkpoint::LoadedRun& run, const RunArgs& args) {
  auto evaluation = run.config.evaluation;
  if (!args.beam_rule.empty()) evaluation.beam_rule = args.beam_rule;
  if (args.beam_prune >= 0) evaluation.beam_prune = args.beam_prune;
  auto options = eval::translate_options(evaluation);
  if (args.beam > 0) options.search.beam_size = args.beam;
  if (args.length_penalty >= 0) options.search.length_penalty = args.length_penalty;
  options.precision = run.precision.precision;
  return options;
}

void check_decoding_memory(const checkpoint::LoadedRun& run, const eval::TranslateOptions& options,
                           const std::vector<std::vector<std::string>>& sources,
                           const std::string& what) {
  const int64_t max_src_len = run.config.evaluation.max_src_len;
  const int64_t longest =
      sources.empty() ? max_src_len + 1 : eval::longest_source(sources, max_src_len);
  eval::check_search_memory(run.config, static_cast<int64_t>(run.tgt_vocab.size()), options.search,
                            options.batch_size, sources.size(), longest, run.device, what,
                            static_cast<int64_t>(run.members.size()));
}

}  // namespace s2s::cli
