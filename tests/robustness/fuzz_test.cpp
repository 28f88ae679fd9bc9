// A seeded random-mutation fuzzer of every reader that takes user text: JSON config files and
// --set overrides, the corpus readers (parallel and TSV), vocabulary files, alignment files,
// the tokenizers and the BLEU/chrF tokenizers. Each target gets real inputs mutated by byte
// flips, insertions of the characters its parser cares about, deletions and splices. The
// contract: an input is accepted or refused with an s2s::UserError (one line for the user);
// any other exception, a crash or a call slower than a second is a failure. CI runs it under
// AddressSanitizer and UndefinedBehaviorSanitizer (scripts/test.sh --asan).
//
// S2S_FUZZ_RUNS (default 1500) sets the mutated inputs per target; the seed is fixed, so a
// failure repeats.

#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "config/json_io.h"
#include "data/corpus.h"
#include "data/tokenizer.h"
#include "data/vocab.h"
#include "eval/alignment.h"
#include "metrics/bleu.h"
#include "metrics/chrf.h"
#include "metrics/metric_input.h"
#include "metrics/sacre_tokenizers.h"
#include "util/error.h"

namespace s2s {
namespace {

namespace fs = std::filesystem;

std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::string first_lines(const std::string& path, int n) {
  std::ifstream in(path, std::ios::binary);
  std::string out, line;
  for (int i = 0; i < n && std::getline(in, line); ++i) out += line + "\n";
  return out;
}

class Fuzzer {
 public:
  explicit Fuzzer(uint64_t seed) : rng_(seed) {}

  std::string mutate(std::string s) {
    const int edits = 1 + static_cast<int>(pick(4));
    for (int e = 0; e < edits; ++e) {
      const std::size_t at = s.empty() ? 0 : pick(s.size());
      switch (pick(6)) {
        case 0:  // flip a bit
          if (!s.empty()) s[at] = static_cast<char>(s[at] ^ (1 << pick(8)));
          break;
        case 1:  // insert a character parsers care about
          s.insert(at, 1, kSpecial[pick(sizeof kSpecial - 1)]);
          break;
        case 2:  // insert a random byte
          s.insert(at, 1, static_cast<char>(pick(256)));
          break;
        case 3:  // delete a range
          if (!s.empty()) s.erase(at, 1 + pick(std::min<std::size_t>(16, s.size() - at)));
          break;
        case 4:  // repeat a range
          if (!s.empty()) s.insert(at, s.substr(at, 1 + pick(32)));
          break;
        default:  // a long run: very long lines and numbers
          s.insert(at, std::string(pick(2000), kSpecial[pick(sizeof kSpecial - 1)]));
      }
    }
    return s;
  }

 private:
  static constexpr char kSpecial[] = "\t\n\r \"{}[]:,-.0123456789e+\\'\xc3\xa9\xff";
  std::size_t pick(std::size_t n) {
    return n == 0 ? 0 : std::uniform_int_distribution<std::size_t>(0, n - 1)(rng_);
  }
  std::mt19937_64 rng_;
};

// Runs `target` on `runs` mutations of the seeds; fails on anything but success or UserError.
void fuzz(const std::string& name, const std::vector<std::string>& seeds,
          const std::function<void(const std::string&)>& target) {
  const char* env = std::getenv("S2S_FUZZ_RUNS");
  const int runs = env != nullptr ? std::atoi(env) : 1500;
  Fuzzer fuzzer(std::hash<std::string>{}(name));
  int accepted = 0, refused = 0;
  for (int i = 0; i < runs; ++i) {
    const std::string input =
        i < static_cast<int>(seeds.size())
            ? seeds[static_cast<std::size_t>(i)]
            : fuzzer.mutate(seeds[static_cast<std::size_t>(i) % seeds.size()]);
    const auto start = std::chrono::steady_clock::now();
    try {
      target(input);
      ++accepted;
    } catch (const UserError&) {
      ++refused;
    } catch (const std::exception& e) {
      FAIL() << name << " input " << i << " raised " << typeid(e).name() << ": " << e.what()
             << "\ninput (" << input.size() << " bytes): " << testing::PrintToString(input);
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    // A bound for hangs and blow-ups, not a timing: generous enough for sanitizers on a
    // loaded machine (one input took 1.06 s under ASan beside a training).
    ASSERT_LT(seconds, 10.0) << name << " input " << i << " took " << seconds << " s";
  }
  EXPECT_GT(accepted, 0) << name << ": no input accepted, the seeds do not reach the parser";
  EXPECT_GT(refused, 0) << name << ": no input refused, the mutations do not reach the checks";
}

class FuzzTest : public testing::Test {
 protected:
  void SetUp() override {
    dir_ =
        fs::temp_directory_path() / ("s2s_fuzz_" + std::to_string(::getpid()) + "_" +
                                     testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string file(const std::string& name, const std::string& text) const {
    const auto path = (dir_ / name).string();
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }
  static std::string repo(const std::string& rel) {
    return std::string(S2S_SOURCE_DIR) + "/" + rel;
  }
  fs::path dir_;
};

data::TokenizerOptions lowercased() {
  data::TokenizerOptions options;
  options.lowercase = true;
  return options;
}

TEST_F(FuzzTest, ConfigFile) {
  fuzz("config", {read(repo("configs/default.json")), read(repo("configs/multi30k_de_en.json"))},
       [&](const std::string& text) { config::load_config(file("c.json", text)); });
}

// Configs built to be deep or large, and mutations of them: refused or read in time, in memory
// that does not grow with their depth (the reader once kept every level's path: 8 GB for
// 100,000 levels).
std::vector<std::string> deep_and_large_configs(const std::string& valid) {
  const auto nest = [](const std::string& open, const std::string& close, int depth, bool closed) {
    std::string text = "{\"name\": ";
    for (int i = 0; i < depth; ++i) text += open;
    text += "1";
    if (closed) {
      for (int i = 0; i < depth; ++i) text += close;
    }
    return text + "}";
  };
  std::string many_keys = "{";
  for (int i = 0; i < 20000; ++i) many_keys += "\"k" + std::to_string(i) + "\": 1, ";
  many_keys += "\"name\": \"x\"}";
  return {valid,
          nest("{\"a\": ", "}", 100000, true),
          nest("[", "]", 100000, true),
          nest("[", "]", 100000, false),
          nest("{\"a\": [", "]}", 30, true),  // 61 levels with the root: read
          nest("{\"a\": [", "]}", 40, true),  // 81: refused
          "{\"name\": \"" + std::string(1 << 20, 'x') + "\"}",
          "{\"seed\": 1" + std::string(10000, '0') + "}",
          "{\"training\": {\"learning_rate\": 1e999999}}",
          many_keys};
}

// AddressSanitizer keeps freed memory in a quarantine (256 MB by default) before reusing it: the
// peak RSS of a sanitized run grows by that much without any input costing it.
#if defined(__SANITIZE_ADDRESS__)
constexpr long kQuarantineKb = 300 * 1024;
#else
constexpr long kQuarantineKb = 0;
#endif

long peak_rss_kb() {
  rusage usage{};
  ::getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

TEST_F(FuzzTest, ConfigNestingAndSize) {
  const auto before = peak_rss_kb();
  fuzz("config_size", deep_and_large_configs(read(repo("configs/default.json"))),
       [&](const std::string& text) { config::load_config(file("c.json", text)); });
  // The largest input is about 1 MB: reading any of them may not cost hundreds of MB.
  EXPECT_LT(peak_rss_kb() - before, 200 * 1024 + kQuarantineKb)
      << "peak RSS grew by " << (peak_rss_kb() - before) << " KB";
}

TEST_F(FuzzTest, SetOverrides) {
  fuzz("override",
       {"training.learning_rate=0.5", "model.attention.scorer=dot", "data.lowercase=true",
        "evaluation.beam_size=4", "model.encoder.dropout=0.25"},
       [](const std::string& text) {
         config::Config c;
         config::apply_override(c, text);
         config::validate(c);
       });
}

TEST_F(FuzzTest, ParallelCorpus) {
  // The two files' texts, separated by a line "=====".
  const std::string seed = first_lines(repo("data/en-fr/valid.en"), 20) + "=====\n" +
                           first_lines(repo("data/en-fr/valid.fr"), 20);
  const auto word = data::make_tokenizer("word", lowercased());
  fuzz("parallel", {seed}, [&](const std::string& text) {
    const auto cut = text.find("=====\n");
    const auto src = file("c.src", text.substr(0, cut));
    const auto tgt = file("c.tgt", cut == std::string::npos ? "" : text.substr(cut + 6));
    const auto pairs = data::read_parallel(src, tgt);
    const auto corpus = data::tokenize_corpus(pairs, *word, *word);
    data::FilterStats stats;
    data::filter_pairs(corpus.src, corpus.tgt, 50, &stats);
  });
}

TEST_F(FuzzTest, TsvCorpus) {
  const auto ws = data::make_tokenizer("whitespace");
  fuzz("tsv", {"Go.\tVa !\nHi.\tSalut !\n\nI see.\tJe vois.\n"}, [&](const std::string& text) {
    const auto pairs = data::read_tsv(file("c.tsv", text));
    data::tokenize_corpus(pairs, *ws, *ws);
  });
}

TEST_F(FuzzTest, VocabularyFile) {
  fuzz("vocab", {"<pad>\n<unk>\n<s>\n</s>\nthe\ncat\n"}, [&](const std::string& text) {
    const auto vocab = data::Vocab::load(file("v.txt", text));
    const auto ids = vocab.encode(vocab.tokens(), true, true);
    vocab.decode(ids);
  });
}

TEST_F(FuzzTest, AlignmentFile) {
  fuzz("alignment", {first_lines(repo("data/en-fr/test.align"), 20)}, [&](const std::string& text) {
    for (const auto& a : eval::read_alignments(file("a.align", text))) {
      eval::check_alignment(a, 30, 30, "a.align");
    }
  });
}

TEST_F(FuzzTest, Tokenizers) {
  const auto word = data::make_tokenizer("word", lowercased());
  const auto ws = data::make_tokenizer("whitespace");
  fuzz("tokenizers",
       {"L'homme a 3.5 kg de pommes, n'est-ce pas ?", "vingt-deux « guillemets » l’été"},
       [&](const std::string& text) {
         for (const auto* t : {word.get(), ws.get()}) t->detokenize(t->tokenize(text));
       });
}

TEST_F(FuzzTest, BleuAndChrf) {
  const std::string seed = first_lines(repo("data/en-fr/valid.fr"), 10);
  fuzz("bleu", {seed}, [&](const std::string& text) {
    // Alternate lines: hypothesis, reference.
    std::vector<std::string> hyps, refs;
    std::size_t start = 0;
    for (bool hyp = true; start <= text.size(); hyp = !hyp) {
      const auto end = std::min(text.find('\n', start), text.size());
      (hyp ? hyps : refs).push_back(text.substr(start, end - start));
      start = end + 1;
    }
    hyps.resize(refs.size());
    metrics::check_hyps_refs(hyps, refs);
    for (const auto& tokenize : metrics::sacre_tokenizer_names()) {
      metrics::BleuOptions o;
      o.tokenize = tokenize;
      o.lowercase = tokenize == "13a";
      metrics::corpus_bleu(hyps, refs, o);
    }
    metrics::corpus_chrf(hyps, refs, {});
  });
}

}  // namespace
}  // namespace s2s
