#include "cli/attention.h"

#include <algorithm>
#include <memory>
#include <vector>

#include "eval/heatmap.h"
#include "eval/splits.h"
#include "eval/translate.h"
#include "train/run_dir.h"
#include "util/error.h"
#include "util/logging.h"

namespace s2s::cli {
namespace {

// The heatmaps of the first `limit` sentences; sentences with an empty source have no
// attention to draw and are skipped.
// [m, S + 1, S + 1] encoder self-attention of one source sentence (with </s>), or undefined.
torch::Tensor encoder_self_attention(const train::LoadedRun& run,
                                     const std::vector<std::string>& source) {
  if (!run.model->encoder->self_attention) return {};
  torch::NoGradGuard no_grad;
  const auto ids = run.src_vocab.encode(source, /*add_bos=*/false, /*add_eos=*/true);
  const auto src = torch::tensor(ids, torch::kLong).unsqueeze(0).to(run.device);
  const auto lengths = torch::tensor({static_cast<int64_t>(ids.size())}, torch::kLong);
  model::Seq2Seq model = run.model;  // a handle to the same module, callable
  return model->encoder(src, lengths).self_attention[0].to(torch::kCPU);
}

std::vector<eval::HeatmapSentence> heatmap_sentences(
    const train::LoadedRun& run, const eval::Split& split,
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

}  // namespace

void setup_attention(CLI::App& app) {
  auto options = std::make_shared<AttentionOptions>();
  CLI::App* sub = app.add_subcommand("attention", "Write attention heatmaps of a split as CSV");
  sub->add_option("--run", options->run, "Run directory")->required();
  sub->add_option("--split", options->split, "Which split of the run's data")
      ->check(CLI::IsMember(eval::split_names()))
      ->capture_default_str();
  sub->add_option("--out", options->out, "Output directory for the CSVs and index.jsonl")
      ->required();
  sub->add_option("--limit", options->limit, "Heatmaps for the first N sentences")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  sub->add_option("--beam", options->beam, "Beam size (default: the run's evaluation.beam_size)")
      ->check(CLI::PositiveNumber);
  sub->add_option("--checkpoint", options->checkpoint, "Checkpoint to load")
      ->check(CLI::IsMember({"best", "last"}))
      ->capture_default_str();
  sub->callback([options] { run_attention(*options); });
}

void run_attention(const AttentionOptions& options) {
  const auto run = train::load_run(options.run, options.checkpoint);
  if (!run.model->decoder->has_attention()) {
    throw UserError("this model has no attention (model.attention.scorer = none)");
  }
  const auto split = eval::load_split(run, options.split);
  auto translate = eval::translate_options(run.config.evaluation);
  if (options.beam > 0) translate.search.beam_size = options.beam;
  const auto n = std::min(split.corpus.size(), static_cast<std::size_t>(options.limit));
  const std::vector<std::vector<std::string>> sources(
      split.corpus.src.begin(), split.corpus.src.begin() + static_cast<std::ptrdiff_t>(n));
  const auto translations = eval::Translator(run).translate_tokens(sources, translate);

  eval::HeatmapInfo info;
  info.decode = eval::decode_name(translate.search.beam_size);
  info.scorer = run.config.model.attention.scorer;
  info.query = eval::decoder_query(run.config.model.decoder.style);
  const auto files =
      eval::write_heatmaps(options.out, heatmap_sentences(run, split, translations), info);
  util::logger("eval")->info("wrote {} heatmaps of {} sentences and index.jsonl to {}", files, n,
                             options.out);
}

}  // namespace s2s::cli
