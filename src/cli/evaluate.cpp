#include "cli/evaluate.h"

#include <spdlog/fmt/fmt.h>

#include <filesystem>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <vector>

#include "checkpoint/load_run.h"
#include "device/precision.h"
#include "eval/heatmap.h"
#include "eval/scores.h"
#include "eval/splits.h"
#include "eval/translate.h"
#include "run/manifest.h"
#include "run/provenance.h"
#include "util/fs.h"
#include "util/logging.h"
#include "util/progress.h"
#include "util/signals.h"

namespace s2s::cli {
namespace {

using eval::SplitScores;

nlohmann::ordered_json scores_json(const EvaluateArgs& args, const eval::Split& split,
                                   const eval::TranslateOptions& options, const SplitScores& s) {
  nlohmann::ordered_json j;
  j["split"] = split.name;
  j["corpus"] = split.description;
  add_decoding(j, args, options);
  j["sentences"] = split.corpus.size();
  j["bleu"] = bleu_json(s.bleu);
  j["chrf"] = chrf_json(s.chrf);
  j["loss"] = s.forced.loss();
  j["ppl"] = s.forced.perplexity();
  j["tokens"] = s.forced.tokens;
  if (s.entropy) {
    j["attention_entropy"] = s.entropy->mean();
    j["attention_zeros"] = s.entropy->zero_fraction();
  }
  if (s.aer) j["aer"] = s.aer->aer();
  return j;
}

std::string scores_text(const SplitScores& s) {
  std::ostringstream out;
  out << s.bleu.format() << "\nsignature: " << s.bleu.signature() << "\n"
      << s.chrf.format() << "\nsignature: " << s.chrf.signature() << "\n"
      << "loss = " << s.forced.loss() << " ppl = " << s.forced.perplexity() << "\n";
  if (s.entropy) {
    out << "attention entropy = " << s.entropy->mean() << " nats per target token\n"
        << "attention zeros = " << s.entropy->zero_fraction()
        << " of the weights (exactly 0: sparse normalizers)\n";
  }
  if (s.aer) out << "AER = " << s.aer->aer() << "\n";
  return out.str();
}

std::string join_lines(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& line : lines) out += line + "\n";
  return out;
}

}  // namespace

void setup_evaluate(CLI::App& app) {
  auto args = std::make_shared<EvaluateArgs>();
  CLI::App* sub =
      app.add_subcommand("evaluate", "Decode a split of a run and score it (BLEU, chrF)");
  add_run_options(sub, *args);
  add_split_option(sub, args->split);
  auto* src = sub->add_option("--src", args->src,
                              "Decode this file (one source sentence a line) instead of a split, "
                              "into <run>/evaluations/<file>.<checkpoint>.<decode>")
                  ->excludes("--split");
  sub->add_option("--ref", args->refs,
                  "Score --src against this reference file; repeat for several references")
      ->needs(src);
  sub->add_flag("--json", args->json, "Print the scores as JSON instead of text");
  sub->add_option("--out", args->out,
                  "Write PREFIX.hyp and PREFIX.scores.json (default: "
                  "<run>/evaluations/<split or file>.<checkpoint>.<greedy|beamK[.lpA]>, a file's "
                  "with .2, .3, ... rather than replacing one)");
  sub->callback([args] { run_evaluate(*args); });
}

nlohmann::ordered_json bleu_json(const metrics::BleuResult& b) {
  return {{"score", b.score},   {"signature", b.signature()}, {"counts", b.counts},
          {"totals", b.totals}, {"precisions", b.precisions}, {"bp", b.bp},
          {"ratio", b.ratio()}, {"sys_len", b.sys_len},       {"ref_len", b.ref_len}};
}

nlohmann::ordered_json chrf_json(const metrics::ChrfResult& c) {
  return {{"name", c.name()}, {"score", c.score}, {"signature", c.signature()}};
}

void add_decoding(nlohmann::ordered_json& j, const RunArgs& args,
                  const eval::TranslateOptions& options) {
  const auto& search = options.search;
  j["checkpoint"] = args.model_label();
  if (args.ensemble.size() > 1 || args.checkpoints().size() > 1) {
    j["ensemble"] = {{"runs", args.ensemble.empty() ? std::vector{args.run} : args.ensemble},
                     {"checkpoints", args.checkpoints()}};
  }
  j["decode"] = eval::decode_name(search.beam_size);
  if (search.beam_size > 1) {
    j["length_penalty"] = search.length_penalty;
    j["beam_rule"] = config::choice_name(search.beam_rule);
    j["beam_prune"] = search.beam_prune;
  }
  j["precision"] = device::to_string(options.precision);
}

double named_length_penalty(const checkpoint::LoadedRun& run, const RunArgs& args) {
  const double run_penalty = run.config.evaluation.length_penalty;
  return args.length_penalty >= 0 && args.length_penalty != run_penalty ? args.length_penalty
                                                                        : -1.0;
}

std::string named_beam_options(const checkpoint::LoadedRun& run, const RunArgs& args) {
  const auto& e = run.config.evaluation;
  std::string name;
  if (!args.beam_rule.empty() && args.beam_rule != e.beam_rule) name += "." + args.beam_rule;
  if (args.beam_prune >= 0 && args.beam_prune != e.beam_prune) {
    name += fmt::format(".prune{:g}", args.beam_prune);
  }
  return name;
}

std::string named_precision(const checkpoint::LoadedRun& run, const RunArgs& args) {
  return !args.precision.empty() && args.precision != run.config.evaluation.precision
             ? "." + args.precision
             : "";
}

std::string evaluation_prefix(const std::string& run, const std::string& split,
                              const std::string& checkpoint, int64_t beam, double length_penalty,
                              const std::string& beam_options) {
  std::string prefix = run + "/evaluations/" + split + "." + checkpoint + "." +
                       (beam <= 1 ? std::string("greedy") : "beam" + std::to_string(beam));
  if (beam > 1 && length_penalty >= 0) prefix += fmt::format(".lp{:g}", length_penalty);
  if (beam > 1) prefix += beam_options;
  return prefix;
}

EvaluateResult run_evaluate(const EvaluateArgs& args) {
  if (!args.src.empty()) return run_evaluate_file(args);
  auto run = load_decoding_run(args);
  const auto split = eval::load_split(run, args.split);
  auto files = split.files;
  if (!split.alignments.empty()) files.push_back(split.alignments);
  run::warn_changed_files(args.home(), files);
  auto translate = decode_options(run, args);
  const auto max_src_len = run.config.evaluation.max_src_len;
  check_decoding_memory(run, translate, split.corpus.src, "decoding " + split.name);
  util::ProgressLog progress("eval", "decoding " + split.name);
  translate.progress = [&](std::size_t done, std::size_t total) {
    progress.update(done, total);
    util::stop_if_interrupted("while decoding " + split.name);  // under train's InterruptGuard
  };

  const int64_t beam = translate.search.beam_size;
  // A length penalty or beam rule other than the run's is named in the file name, so that it
  // replaces no evaluation made with the run's own.
  const auto prefix =
      args.out.empty()
          ? evaluation_prefix(args.home(), split.name, args.model_label(), beam,
                              named_length_penalty(run, args), named_beam_options(run, args)) +
                named_precision(run, args)
          : args.out;
  const auto folder = std::filesystem::path(prefix).parent_path();
  if (!folder.empty()) util::make_output_dir("--out", folder.string());  // before decoding

  const auto sources = eval::bounded_sources(split.corpus.src, max_src_len, [&](std::size_t i) {
    return eval::sentence_origin(split, i);
  });
  const auto hyps = eval::texts(eval::Translator(run).translate_tokens(sources, translate));
  const SplitScores scores = eval::score_split(run, split, hyps);

  EvaluateResult r{prefix + ".hyp", prefix + ".scores.json", scores.bleu.score, scores.chrf.score,
                   eval::decode_name(beam)};
  const auto json = scores_json(args, split, translate, scores);
  for (const auto& path : {r.hyp_path, r.scores_path}) {
    if (std::filesystem::exists(path)) util::logger("eval")->info("replacing {}", path);
  }
  util::write_file_atomic(r.hyp_path, join_lines(hyps));
  util::write_file_atomic(r.scores_path, json.dump(1) + "\n");
  run::record_files_inside(args.home(), {r.hyp_path, r.scores_path});
  util::logger("eval")->info("wrote {} and {}", r.hyp_path, r.scores_path);
  std::cout << (args.json ? json.dump(/*indent=*/1) + "\n" : scores_text(scores));
  return r;
}

}  // namespace s2s::cli
