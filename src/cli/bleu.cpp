#include "cli/bleu.h"

#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

#include "metrics/bleu.h"
#include "metrics/chrf.h"
#include "metrics/metric_input.h"
#include "metrics/sacre_tokenizers.h"
#include "util/error.h"

namespace s2s::cli {
namespace {

void print_text(const metrics::BleuResult& bleu, const std::optional<metrics::ChrfResult>& chrf) {
  std::cout << bleu.format() << "\n"
            << "signature: " << bleu.signature() << "\n";
  if (chrf)
    std::cout << chrf->format() << "\n"
              << "signature: " << chrf->signature() << "\n";
}

void print_json(const metrics::BleuResult& bleu, const std::optional<metrics::ChrfResult>& chrf) {
  nlohmann::ordered_json out;
  out["name"] = "BLEU";
  out["score"] = bleu.score;
  out["signature"] = bleu.signature();
  out["counts"] = bleu.counts;
  out["totals"] = bleu.totals;
  out["precisions"] = bleu.precisions;
  out["bp"] = bleu.bp;
  out["ratio"] = bleu.ratio();
  out["sys_len"] = bleu.sys_len;
  out["ref_len"] = bleu.ref_len;
  if (chrf) {
    out["chrf"] = {
        {"name", chrf->name()}, {"score", chrf->score}, {"signature", chrf->signature()}};
  }
  std::cout << out.dump(/*indent=*/1) << "\n";
}

}  // namespace

void setup_bleu(CLI::App& app) {
  auto args = std::make_shared<BleuArgs>();
  CLI::App* sub =
      app.add_subcommand("bleu", "Score translations with sacreBLEU-compatible BLEU and chrF");
  sub->add_option("--hyp", args->hyp, "Hypotheses, one sentence a line (UTF-8)")->required();
  sub->add_option("--ref", args->refs,
                  "References, line by line with the hypotheses; repeat for several references")
      ->required();
  sub->add_option("--tokenize", args->tokenize, "sacreBLEU tokenizer")
      ->check(CLI::IsMember(metrics::sacre_tokenizer_names()))
      ->capture_default_str();
  sub->add_flag("-l,--lowercase", args->lowercase,
                "Case-insensitive BLEU (as sacreBLEU's -lc; chrF keeps case)");
  sub->add_option("--smooth", args->smooth, "BLEU smoothing of zero n-gram matches")
      ->check(CLI::IsMember(metrics::bleu_smooth_names()))
      ->capture_default_str();
  sub->add_flag("--chrf", args->chrf, "Also report chrF (character 6-grams, beta 2)");
  sub->add_flag("--chrf-lowercase", args->chrf_lowercase,
                "Case-insensitive chrF (as sacreBLEU's --chrf-lowercase)");
  sub->add_flag("--json", args->json, "Print one JSON object instead of text");
  sub->callback([args] { run_bleu(*args); });
}

void run_bleu(const BleuArgs& args) {
  metrics::BleuOptions bleu_options;
  bleu_options.tokenize = args.tokenize;
  bleu_options.lowercase = args.lowercase;
  bleu_options.smooth = metrics::parse_bleu_smooth(args.smooth);
  metrics::validate_bleu_options(bleu_options);

  const std::vector<std::string> hyps = metrics::read_text_lines(args.hyp);
  const auto refs = metrics::read_reference_files(args.refs, hyps.size(), "'" + args.hyp + "'");

  const metrics::BleuResult bleu = metrics::corpus_bleu_multi(hyps, refs, bleu_options);
  std::optional<metrics::ChrfResult> chrf;
  if (args.chrf) {
    metrics::ChrfOptions chrf_options;
    chrf_options.lowercase = args.chrf_lowercase;
    chrf = metrics::corpus_chrf_multi(hyps, refs, chrf_options);
  }
  if (args.json) {
    print_json(bleu, chrf);
  } else {
    print_text(bleu, chrf);
  }
}

}  // namespace s2s::cli
