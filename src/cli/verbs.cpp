#include "cli/verbs.h"

#include "cli/attention.h"
#include "cli/bench.h"
#include "cli/bleu.h"
#include "cli/evaluate.h"
#include "cli/study.h"
#include "cli/train.h"
#include "cli/translate.h"

namespace s2s::cli {

void setup_verbs(CLI::App& app) {
  setup_train(app);
  setup_evaluate(app);
  setup_translate(app);
  setup_attention(app);
  setup_bleu(app);
  setup_study(app);
  setup_bench(app);
}

std::string first_line(const std::string& message) {
  const auto end = message.find('\n');
  return end == std::string::npos ? message : message.substr(0, end);
}

}  // namespace s2s::cli
