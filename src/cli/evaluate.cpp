#include "cli/evaluate.h"

#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <vector>

#include "eval/heatmap.h"
#include "eval/scores.h"
#include "eval/splits.h"
#include "eval/translate.h"
#include "run/manifest.h"
#include "run/run_dir.h"
#include "util/fs.h"
#include "util/logging.h"

namespace s2s::cli {
namespace {

using eval::SplitScores;

nlohmann::ordered_json scores_json(const EvaluateArgs& args, const eval::Split& split, int64_t beam,
                                   const SplitScores& s) {
  nlohmann::ordered_json j;
  j["split"] = split.name;
  j["corpus"] = split.description;
  j["checkpoint"] = args.checkpoint;
  j["decode"] = eval::decode_name(beam);
  j["sentences"] = split.corpus.size();
  j["bleu"] = {
      {"score", s.bleu.score},   {"signature", s.bleu.signature()}, {"counts", s.bleu.counts},
      {"totals", s.bleu.totals}, {"precisions", s.bleu.precisions}, {"bp", s.bleu.bp},
      {"ratio", s.bleu.ratio()}, {"sys_len", s.bleu.sys_len},       {"ref_len", s.bleu.ref_len}};
  j["chrf"] = {{"name", s.chrf.name()}, {"score", s.chrf.score}, {"signature", s.chrf.signature()}};
  j["loss"] = s.forced.loss();
  j["ppl"] = s.forced.perplexity();
  j["tokens"] = s.forced.tokens;
  if (s.entropy) j["attention_entropy"] = s.entropy->mean();
  if (s.aer) j["aer"] = s.aer->aer();
  return j;
}

std::string scores_text(const SplitScores& s) {
  std::ostringstream out;
  out << s.bleu.format() << "\nsignature: " << s.bleu.signature() << "\n"
      << s.chrf.format() << "\nsignature: " << s.chrf.signature() << "\n"
      << "loss = " << s.forced.loss() << " ppl = " << s.forced.perplexity() << "\n";
  if (s.entropy) out << "attention entropy = " << s.entropy->mean() << " nats per target token\n";
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
  sub->add_flag("--json", args->json, "Print the scores as JSON instead of text");
  sub->callback([args] { run_evaluate(*args); });
}

void run_evaluate(const EvaluateArgs& args) {
  auto run = run::load_run(args.run, args.checkpoint);
  const auto split = eval::load_split(run, args.split);
  const auto translate = decode_options(run, args);

  const auto sources =
      eval::bounded_sources(split.corpus.src, run.config.evaluation.max_src_len,
                            [&](std::size_t i) { return eval::sentence_origin(split, i); });
  const auto hyps = eval::texts(eval::Translator(run).translate_tokens(sources, translate));
  const SplitScores scores = eval::score_split(run, split, hyps);

  const run::RunPaths paths(args.run);
  const auto json = scores_json(args, split, translate.search.beam_size, scores);
  util::write_file_atomic(paths.dir + "/" + split.name + ".hyp", join_lines(hyps));
  util::write_file_atomic(paths.dir + "/" + split.name + ".scores.json", json.dump(1) + "\n");
  run::record_files(paths.dir, {split.name + ".hyp", split.name + ".scores.json"});
  util::logger("eval")->info("wrote {}/{}.hyp and {}.scores.json", paths.dir, split.name,
                             split.name);
  std::cout << (args.json ? json.dump(/*indent=*/1) + "\n" : scores_text(scores));
}

}  // namespace s2s::cli
