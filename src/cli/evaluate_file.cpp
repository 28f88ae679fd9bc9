// `s2s evaluate --src FILE [--ref FILE]...`: a test set that is not in the run's config, decoded
// with the run's tokenization and lower-casing and scored against one or more references with
// sacreBLEU's multi-reference rules.
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>

#include "checkpoint/load_run.h"
#include "cli/evaluate.h"
#include "eval/heatmap.h"
#include "eval/scores.h"
#include "eval/splits.h"
#include "eval/translate.h"
#include "metrics/metric_input.h"
#include "run/manifest.h"
#include "util/error.h"
#include "util/fs.h"
#include "util/logging.h"
#include "util/progress.h"
#include "util/strings.h"

namespace s2s::cli {
namespace {

namespace fs = std::filesystem;

// PREFIX, or PREFIX.2, PREFIX.3, ... : the first whose .hyp and .scores.json are both free, so
// that an evaluation of a file never replaces another one.
std::string fresh_prefix(const std::string& prefix) {
  const auto taken = [](const std::string& p) {
    return fs::exists(p + ".hyp") || fs::exists(p + ".scores.json");
  };
  if (!taken(prefix)) return prefix;
  for (int n = 2;; ++n) {
    const auto candidate = prefix + "." + std::to_string(n);
    if (!taken(candidate)) return candidate;
  }
}

std::string default_prefix(const checkpoint::LoadedRun& run, const EvaluateArgs& args,
                           int64_t beam) {
  const auto name = fs::path(args.src).filename().string();
  return fresh_prefix(evaluation_prefix(args.home(), name, args.model_label(), beam,
                                        named_length_penalty(run, args),
                                        named_beam_options(run, args)) +
                      named_precision(run, args));
}

struct FileScores {
  metrics::BleuResult bleu;
  metrics::ChrfResult chrf;
};

nlohmann::ordered_json file_json(const EvaluateArgs& args, const eval::TranslateOptions& options,
                                 std::size_t sentences, const FileScores* scores) {
  nlohmann::ordered_json j;
  j["source"] = args.src;
  j["references"] = args.refs;
  add_decoding(j, args, options);
  j["sentences"] = sentences;
  if (scores != nullptr) {
    j["bleu"] = bleu_json(scores->bleu);
    j["chrf"] = chrf_json(scores->chrf);
  }
  return j;
}

// The tokens of every line of `lines` read from `path` (FILE:LINE on a tokenizer error).
std::vector<std::vector<std::string>> file_sources(const checkpoint::LoadedRun& run,
                                                   const std::string& path,
                                                   const std::vector<std::string>& lines) {
  std::vector<std::vector<std::string>> sources;
  sources.reserve(lines.size());
  for (std::size_t i = 0; i < lines.size(); ++i) {
    try {
      sources.push_back(run.src_tokenizer->tokenize(lines[i]));
    } catch (const InputError& e) {
      throw InputError(path + ":" + std::to_string(i + 1) + ": " + e.what());
    }
  }
  return sources;
}

}  // namespace

EvaluateResult run_evaluate_file(const EvaluateArgs& args) {
  auto run = load_decoding_run(args);
  const auto lines = metrics::read_text_lines(args.src);
  if (lines.empty()) throw InputError("--src " + args.src + ": no lines to translate");
  const auto references = args.refs.empty() ? metrics::ReferenceSets{}
                                            : metrics::read_reference_files(args.refs, lines.size(),
                                                                            "'" + args.src + "'");
  auto translate = decode_options(run, args);
  const auto tokens = file_sources(run, args.src, lines);
  check_decoding_memory(run, translate, tokens, "decoding " + args.src);
  const auto prefix =
      args.out.empty() ? default_prefix(run, args, translate.search.beam_size) : args.out;
  const auto folder = fs::path(prefix).parent_path();
  if (!folder.empty()) util::make_output_dir("--out", folder.string());  // before decoding

  util::ProgressLog progress("eval", "decoding " + args.src);
  translate.progress = [&](std::size_t done, std::size_t total) { progress.update(done, total); };
  const auto sources =
      eval::bounded_sources(tokens, run.config.evaluation.max_src_len,
                            [&](std::size_t i) { return args.src + ":" + std::to_string(i + 1); });
  const auto hyps = eval::texts(eval::Translator(run).translate_tokens(sources, translate));

  EvaluateResult r{prefix + ".hyp", "", 0.0, 0.0, eval::decode_name(translate.search.beam_size)};
  util::write_file_atomic(r.hyp_path, hyps.empty() ? "" : util::join(hyps, "\n") + "\n");
  std::vector<std::string> written{r.hyp_path};
  std::optional<FileScores> scores;
  if (!references.empty()) {
    const auto& e = run.config.evaluation;
    scores = FileScores{metrics::corpus_bleu_multi(hyps, references, eval::bleu_options(e)),
                        metrics::corpus_chrf_multi(hyps, references, eval::chrf_options(e))};
    r = {r.hyp_path, prefix + ".scores.json", scores->bleu.score, scores->chrf.score, r.decode};
    written.push_back(r.scores_path);
  }
  const auto json = file_json(args, translate, lines.size(), scores ? &*scores : nullptr);
  if (scores) util::write_file_atomic(r.scores_path, json.dump(1) + "\n");
  run::record_files_inside(args.home(), written);
  util::logger("eval")->info("wrote {}", util::join(written, " and "));
  if (args.json) {
    std::cout << json.dump(/*indent=*/1) << "\n";
  } else if (scores) {
    std::cout << scores->bleu.format() << "\nsignature: " << scores->bleu.signature() << "\n"
              << scores->chrf.format() << "\nsignature: " << scores->chrf.signature() << "\n";
  }
  return r;
}

}  // namespace s2s::cli
