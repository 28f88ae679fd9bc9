#include "cli/translate.h"

#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "eval/splits.h"
#include "eval/translate.h"
#include "run/run_dir.h"
#include "util/error.h"

namespace s2s::cli {
namespace {

std::vector<std::string> read_stdin_lines() {
  std::vector<std::string> lines;
  std::string line;
  while (std::getline(std::cin, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(std::move(line));
  }
  return lines;
}

// Tokenizes every line, naming the line of a bad one (invalid UTF-8).
std::vector<std::vector<std::string>> tokenize_lines(const std::vector<std::string>& lines,
                                                     const data::Tokenizer& tokenizer) {
  std::vector<std::vector<std::string>> out;
  out.reserve(lines.size());
  for (std::size_t i = 0; i < lines.size(); ++i) {
    try {
      out.push_back(tokenizer.tokenize(lines[i]));
    } catch (const InputError& e) {
      throw InputError("stdin:" + std::to_string(i + 1) + ": " + e.what());
    }
  }
  return out;
}

}  // namespace

void setup_translate(CLI::App& app) {
  auto args = std::make_shared<TranslateArgs>();
  CLI::App* sub = app.add_subcommand("translate", "Translate stdin to stdout, one sentence a line");
  add_run_options(sub, *args);
  sub->callback([args] { run_translate(*args); });
}

void run_translate(const TranslateArgs& args) {
  const auto run = run::load_run(args.run, args.checkpoint);
  const auto translate = decode_options(run, args);
  const auto sources = eval::bounded_sources(
      tokenize_lines(read_stdin_lines(), *run.src_tokenizer), run.config.evaluation.max_src_len,
      [](std::size_t i) { return "stdin:" + std::to_string(i + 1); });
  for (const auto& t : eval::Translator(run).translate_tokens(sources, translate)) {
    std::cout << t.text << '\n';
  }
  std::cout.flush();
}

}  // namespace s2s::cli
