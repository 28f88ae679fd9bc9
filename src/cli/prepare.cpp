#include "cli/prepare.h"

#include <iostream>
#include <memory>

#include "config/json_io.h"
#include "run/prepare.h"

namespace s2s::cli {

void setup_prepare(CLI::App& app) {
  auto args = std::make_shared<PrepareArgs>();
  auto* sub = app.add_subcommand(
      "prepare", "Tokenize the training split once into a prepared corpus (data.prepared)");
  sub->add_option("-c,--config", args->config, "JSON config file")->required();
  sub->add_option("--set", args->overrides, "Override a config value: section.key=value")
      ->take_all();
  sub->add_flag("--overwrite", args->overwrite,
                "Prepare again over a prepared corpus of the same settings");
  sub->callback([args] { run_prepare(*args); });
}

std::string run_prepare(const PrepareArgs& args) {
  const config::Config config = config::load_config(args.config, args.overrides);
  const auto prepared = run::open_prepared(config, args.overwrite);
  const auto& h = prepared.corpus->header();
  std::cout << "prepared corpus: " << prepared.corpus->dir() << "\n"
            << "  pairs: " << prepared.corpus->size() << " (of " << h.value("read", 0) << " read; "
            << h.value("filtered_too_long", 0) << " too long, " << h.value("filtered_empty", 0)
            << " empty)\n"
            << "  tokens: source " << h.value("src_tokens", 0) << ", target "
            << h.value("tgt_tokens", 0) << "\n"
            << "  vocabulary: source " << prepared.src_vocab.size() << ", target "
            << prepared.tgt_vocab.size() << "\n"
            << "  content hash: " << prepared.corpus->content_hash() << "\n"
            << "train with it: s2s train -c " << args.config << " --set data.prepared=true\n";
  return prepared.corpus->dir();
}

}  // namespace s2s::cli
