#include "cli/evaluate.h"

#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <vector>

#include "eval/alignment.h"
#include "eval/heatmap.h"
#include "eval/splits.h"
#include "eval/translate.h"
#include "metrics/bleu.h"
#include "metrics/chrf.h"
#include "train/batch.h"
#include "train/run_dir.h"
#include "util/fs.h"
#include "util/logging.h"

namespace s2s::cli {
namespace {

// What the evaluation measured on top of BLEU and chrF.
struct SplitScores {
  metrics::BleuResult bleu;
  metrics::ChrfResult chrf;
  eval::ForcedScores forced;
  std::optional<eval::EntropyStats> entropy;  // models with attention
  std::optional<eval::AerCounts> aer;         // splits with gold alignments
};

std::pair<eval::EntropyStats, std::optional<eval::AerCounts>> attention_scores(
    const eval::ForcedScores& forced, const std::vector<eval::Alignment>& gold) {
  eval::EntropyStats entropy;
  std::optional<eval::AerCounts> aer;
  if (!gold.empty()) aer.emplace();
  for (std::size_t i = 0; i < forced.attention.size(); ++i) {
    entropy += eval::attention_entropy(forced.attention[i]);
    if (aer) *aer += eval::aer_counts(eval::predicted_alignment(forced.attention[i]), gold[i]);
  }
  return {entropy, aer};
}

// Loss, perplexity and attention statistics of the references under teacher forcing: the gold
// alignments describe the reference, not the hypothesis.
void score_references(train::LoadedRun& run, const eval::Split& split, SplitScores& scores) {
  const auto gold = eval::load_split_alignments(split);
  const bool attention = run.model->decoder->has_attention();
  const auto encoded = train::encode_corpus(split.corpus, run.src_vocab, run.tgt_vocab);
  scores.forced = eval::teacher_forced_scores(run.model, encoded, run.config.evaluation.batch_size,
                                              run.device, attention);
  if (!attention) return;
  auto [entropy, aer] = attention_scores(scores.forced, gold);
  scores.entropy = entropy;
  scores.aer = aer;
}

nlohmann::ordered_json scores_json(const EvaluateOptions& options, const eval::Split& split,
                                   int64_t beam, const SplitScores& s) {
  nlohmann::ordered_json j;
  j["split"] = split.name;
  j["corpus"] = split.description;
  j["checkpoint"] = options.checkpoint;
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
  auto options = std::make_shared<EvaluateOptions>();
  CLI::App* sub =
      app.add_subcommand("evaluate", "Decode a split of a run and score it (BLEU, chrF)");
  sub->add_option("--run", options->run, "Run directory")->required();
  sub->add_option("--split", options->split, "Which split of the run's data")
      ->check(CLI::IsMember(eval::split_names()))
      ->capture_default_str();
  sub->add_option("--beam", options->beam, "Beam size (default: the run's evaluation.beam_size)")
      ->check(CLI::PositiveNumber);
  sub->add_option("--checkpoint", options->checkpoint, "Checkpoint to load")
      ->check(CLI::IsMember({"best", "last"}))
      ->capture_default_str();
  sub->add_flag("--json", options->json, "Print the scores as JSON instead of text");
  sub->callback([options] { run_evaluate(*options); });
}

void run_evaluate(const EvaluateOptions& options) {
  auto run = train::load_run(options.run, options.checkpoint);
  const auto split = eval::load_split(run, options.split);
  auto translate = eval::translate_options(run.config.evaluation);
  if (options.beam > 0) translate.search.beam_size = options.beam;

  const auto translations = eval::Translator(run).translate_tokens(split.corpus.src, translate);
  std::vector<std::string> hyps;
  hyps.reserve(translations.size());
  for (const auto& t : translations) hyps.push_back(t.text);

  SplitScores scores;
  metrics::BleuOptions bleu;
  bleu.tokenize = run.config.evaluation.bleu_tokenize;
  bleu.lowercase = run.config.evaluation.bleu_lowercase;
  scores.bleu = metrics::corpus_bleu(hyps, split.corpus.tgt_raw, bleu);
  metrics::ChrfOptions chrf;
  chrf.lowercase = bleu.lowercase;
  scores.chrf = metrics::corpus_chrf(hyps, split.corpus.tgt_raw, chrf);
  score_references(run, split, scores);

  const train::RunPaths paths(options.run);
  const auto json = scores_json(options, split, translate.search.beam_size, scores);
  util::write_file_atomic(paths.dir + "/" + split.name + ".hyp", join_lines(hyps));
  util::write_file_atomic(paths.dir + "/" + split.name + ".scores.json", json.dump(1) + "\n");
  util::logger("eval")->info("wrote {}/{}.hyp and {}.scores.json", paths.dir, split.name,
                             split.name);
  std::cout << (options.json ? json.dump(/*indent=*/1) + "\n" : scores_text(scores));
}

}  // namespace s2s::cli
