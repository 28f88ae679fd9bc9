#include "cli/attention.h"

#include <algorithm>
#include <memory>
#include <vector>

#include "checkpoint/load_run.h"
#include "eval/ensemble.h"
#include "eval/heatmap.h"
#include "eval/pieces.h"
#include "eval/splits.h"
#include "eval/translate.h"
#include "run/manifest.h"
#include "util/error.h"
#include "util/fs.h"
#include "util/logging.h"

namespace s2s::cli {
namespace {

// [m, S + 1, S + 1] encoder self-attention of one source sentence (with </s>), or undefined
// when no member has any; an ensemble's is its members' mean (eval/ensemble.h).
torch::Tensor encoder_self_attention(const checkpoint::LoadedRun& run,
                                     const std::vector<std::string>& source) {
  torch::NoGradGuard no_grad;
  const auto ids = run.src_vocab.encode(source, /*add_bos=*/false, /*add_eos=*/true);
  const auto src = torch::tensor(ids, torch::kLong).unsqueeze(0).to(run.device);
  const auto lengths = torch::tensor({static_cast<int64_t>(ids.size())}, torch::kLong);
  std::vector<torch::Tensor> members;
  for (auto model : run.members) {  // a handle to the same module, callable
    if (!model->encoder->self_attention) continue;
    members.push_back(model->encoder(src, lengths).self_attention[0].to(torch::kCPU));
  }
  return eval::mean_attention(members, /*head_dim=*/0);
}

// The heatmaps of the translated sentences; sentences with an empty source have no attention
// to draw and are skipped.
std::vector<eval::HeatmapSentence> heatmap_sentences(
    const checkpoint::LoadedRun& run, const eval::Split& split,
    const std::vector<eval::Translation>& translations) {
  std::vector<eval::HeatmapSentence> out;
  for (std::size_t i = 0; i < translations.size(); ++i) {
    const auto& t = translations[i];
    if (!t.attention.defined()) continue;
    eval::HeatmapSentence s;
    s.id = static_cast<int64_t>(split.corpus.lines[i]);
    s.source = t.source;
    s.target = t.tokens;
    s.attention = t.attention;
    s.source_text = split.pairs[i].src;
    s.hypothesis = t.text;
    s.reference = split.corpus.tgt_raw[i];
    s.self_attention = encoder_self_attention(run, t.source);
    out.push_back(std::move(s));
  }
  return out;
}

// Pieces merged into words: decoder attention [T + 1, m, S + 1] and encoder self-attention
// [m, S + 1, S + 1] (rows averaged, columns summed over a word's pieces, eval/pieces.h).
// False, leaving the sentence in pieces, where the pieces do not spell the words (a source cut
// at evaluation.max_src_len).
bool merge_into_words(eval::HeatmapSentence& s, bool lowercase) {
  const auto src = eval::piece_words_of(s.source, s.source_text, lowercase);
  const auto tgt = eval::piece_words_of(s.target, s.hypothesis, lowercase);
  if (!src || !tgt) return false;
  s.attention = eval::merge_piece_attention(s.attention, *src, *tgt);
  if (s.self_attention.defined()) {
    s.self_attention = eval::merge_piece_attention(s.self_attention.permute({1, 0, 2}), *src, *src)
                           .permute({1, 0, 2});
  }
  s.source = src->words;
  s.target = tgt->words;
  return true;
}

}  // namespace

void setup_attention(CLI::App& app) {
  auto args = std::make_shared<AttentionArgs>();
  CLI::App* sub = app.add_subcommand("attention", "Write attention heatmaps of a split as CSV");
  add_run_options(sub, *args);
  add_split_option(sub, args->split);
  sub->add_option("--out", args->out, "Output directory for the CSVs and index.jsonl")->required();
  sub->add_option("--limit", args->limit, "Heatmaps for the first N sentences")
      ->check(integer_in(1))
      ->capture_default_str();
  sub->add_flag("--words", args->words,
                "SentencePiece runs: merge pieces into words (the word tokenizer's), summing "
                "the columns and averaging the rows of a word's pieces");
  sub->callback([args] { run_attention(*args); });
}

void run_attention(const AttentionArgs& args) {
  const auto run = load_decoding_run(args);
  if (!eval::Ensemble(run.members).has_attention()) {
    throw UserError("this model has no attention (model.attention.scorer = none)");
  }
  const bool pieces = run.src_tokenizer->has_pieces();
  if (args.words && !pieces) {
    throw UserError("--words merges SentencePiece pieces; this run's tokens are already words (" +
                    run.config.data.tokenizer + " tokenizer)");
  }
  const auto split = eval::load_split(run, args.split);
  const auto translate = decode_options(run, args);
  const auto n = std::min(split.corpus.size(), static_cast<std::size_t>(args.limit));
  const std::vector<std::vector<std::string>> first(
      split.corpus.src.begin(), split.corpus.src.begin() + static_cast<std::ptrdiff_t>(n));
  const auto max_src_len = run.config.evaluation.max_src_len;
  check_decoding_memory(run, translate, first, "decoding " + split.name);
  util::make_output_dir("--out", args.out);  // before decoding: a bad --out costs no time
  const auto sources = eval::bounded_sources(
      first, max_src_len, [&](std::size_t i) { return eval::sentence_origin(split, i); });
  const auto translations = eval::Translator(run).translate_tokens(sources, translate);

  eval::HeatmapInfo info;
  info.decode = eval::decode_name(translate.search.beam_size);
  info.scorer = run.config.model.attention.scorer;
  info.normalizer = run.config.model.attention.normalizer;
  info.coverage = run.config.model.attention.coverage;
  info.local = run.config.model.attention.local;
  info.window = run.config.model.attention.window;
  info.query = eval::decoder_query(config::decoder_style(run.config.model.decoder));
  info.units = args.words ? "words" : pieces ? "pieces" : "tokens";
  info.members = static_cast<int64_t>(run.members.size());
  auto sentences = heatmap_sentences(run, split, translations);
  if (args.words) {
    std::size_t unmerged = 0;
    for (auto& s : sentences) {
      if (!merge_into_words(s, run.config.data.lowercase)) ++unmerged;
    }
    if (unmerged > 0) {
      util::logger("eval")->warn(
          "{} of {} sentences stay in pieces: their pieces do not spell their words (a source "
          "cut at evaluation.max_src_len)",
          unmerged, sentences.size());
    }
  }
  const auto files = eval::write_heatmaps(args.out, sentences, info);
  std::vector<std::string> paths;
  for (const auto& f : files) paths.push_back(args.out + "/" + f);
  run::record_files_inside(args.home(), paths);
  util::logger("eval")->info("wrote {} heatmaps of {} sentences and index.jsonl to {}",
                             files.size() - 1, n, args.out);
}

}  // namespace s2s::cli
