// Benchmark of the torch-free pipeline on Multi30k (not a test: prints timings as JSON).
//   bench_data [MULTI30K_DIR]   (default ../shared/data/multi30k)
// Measures: reading train.de/train.en, word-tokenizing them (lower-cased), building both
// vocabularies (min_freq 2), and corpus BLEU + chrF of test2016.en against val.en's first
// 1,000 lines (a realistic, imperfect match) and against itself.

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "data/corpus.h"
#include "data/tokenizer.h"
#include "data/vocab.h"
#include "metrics/bleu.h"
#include "metrics/chrf.h"

namespace {

using Clock = std::chrono::steady_clock;

template <class F>
double best_of(int repeats, F&& fn) {
  double best = 1e30;
  for (int i = 0; i < repeats; ++i) {
    const auto start = Clock::now();
    fn();
    best = std::min(best, std::chrono::duration<double>(Clock::now() - start).count());
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  namespace data = s2s::data;
  const std::string dir = argc > 1 ? argv[1] : "../shared/data/multi30k";
  if (!std::filesystem::exists(dir + "/train.de")) {
    std::fprintf(stderr, "bench_data: %s/train.de not found (pass the Multi30k directory)\n",
                 dir.c_str());
    return 2;
  }
  constexpr int kRepeats = 5;
  std::vector<data::SentencePair> pairs;
  const double read_s =
      best_of(kRepeats, [&] { pairs = data::read_parallel(dir + "/train.de", dir + "/train.en"); });
  data::TokenizerOptions options;
  options.lowercase = true;
  const auto tokenizer = data::make_tokenizer("word", options);
  data::TokenizedCorpus corpus;
  const double tokenize_s =
      best_of(kRepeats, [&] { corpus = data::tokenize_corpus(pairs, *tokenizer, *tokenizer); });
  data::Vocab src_vocab, tgt_vocab;
  const double vocab_s = best_of(kRepeats, [&] {
    src_vocab = data::Vocab::build(corpus.src, {2, 0});
    tgt_vocab = data::Vocab::build(corpus.tgt, {2, 0});
  });
  const auto hyps = data::read_lines(dir + "/test2016.en");
  auto refs = data::read_lines(dir + "/val.en");
  refs.resize(hyps.size());
  s2s::metrics::BleuResult bleu;
  const double bleu_s = best_of(kRepeats, [&] { bleu = s2s::metrics::corpus_bleu(hyps, refs); });
  double chrf = 0.0;
  const double chrf_s =
      best_of(kRepeats, [&] { chrf = s2s::metrics::corpus_chrf(hyps, refs).score; });
  const double bleu_self_s = best_of(kRepeats, [&] { s2s::metrics::corpus_bleu(hyps, hyps); });

  nlohmann::json out = {{"pairs", pairs.size()},
                        {"read_s", read_s},
                        {"tokenize_s", tokenize_s},
                        {"vocab_s", vocab_s},
                        {"read_tokenize_vocab_s", read_s + tokenize_s + vocab_s},
                        {"src_vocab", src_vocab.size()},
                        {"tgt_vocab", tgt_vocab.size()},
                        {"bleu_sentences", hyps.size()},
                        {"bleu_s", bleu_s},
                        {"bleu_self_s", bleu_self_s},
                        {"chrf_s", chrf_s},
                        {"bleu", bleu.score},
                        {"chrf", chrf},
                        {"repeats", kRepeats},
                        {"statistic", "best of repeats"}};
  std::printf("%s\n", out.dump(2).c_str());
  return 0;
}
