#include "cli/translate.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "checkpoint/load_run.h"
#include "data/line_stream.h"
#include "eval/splits.h"
#include "eval/translate.h"
#include "util/error.h"
#include "util/fs.h"
#include "util/logging.h"
#include "util/strings.h"

namespace s2s::cli {
namespace {

// Source words outside the vocabulary: the first reason an out-of-domain line translates badly.
class UnknownWords {
 public:
  explicit UnknownWords(const data::Vocab& vocab) : vocab_(vocab) {}

  void count(const std::vector<std::string>& tokens, const std::string& where) {
    std::vector<std::string> unknown;
    for (const auto& t : tokens) {
      if (vocab_.id(t) != data::Vocab::kUnk) continue;
      unknown.push_back(t);
      ++words_[t];
    }
    tokens_ += tokens.size();
    unknown_ += unknown.size();
    if (!unknown.empty()) {
      util::logger("translate")
          ->debug("{}: {} unknown source words: {}", where, unknown.size(),
                  util::join(unknown, " "));
    }
  }

  void summary() const {
    if (tokens_ == 0) return;
    std::vector<std::pair<std::size_t, std::string>> top;
    for (const auto& [word, n] : words_) top.emplace_back(n, word);
    std::sort(top.begin(), top.end(), [](const auto& a, const auto& b) {
      return a.first != b.first ? a.first > b.first : a.second < b.second;
    });
    std::vector<std::string> shown;
    for (std::size_t i = 0; i < top.size() && i < 10; ++i) {
      shown.push_back(top[i].second + " (" + std::to_string(top[i].first) + ")");
    }
    util::logger("translate")
        ->info("{} of {} source words ({:.1f}%) are unknown to the model{}{}", unknown_, tokens_,
               100.0 * static_cast<double>(unknown_) / static_cast<double>(tokens_),
               shown.empty() ? "" : ": ", util::join(shown, ", "));
  }

 private:
  const data::Vocab& vocab_;
  std::map<std::string, std::size_t> words_;
  std::size_t tokens_ = 0, unknown_ = 0;
};

// What a line keeps while it is read: one word more than decoding uses (so that a cut line
// still shows as one), and bytes enough for those words.
data::LineLimits read_limits(std::size_t max_src_len) {
  constexpr std::size_t kBytesPerWord = 256;  // far above any language's words
  return {max_src_len + 1, (max_src_len + 1) * kBytesPerWord};
}

// The tokens of `line`, found at `where` ("stdin:N", named on a tokenizer error). A line cut while
// it was read is cut here to `max_src_len` tokens, with a word about the whole line.
std::vector<std::string> tokenize_line(const data::Tokenizer& tokenizer,
                                       const data::StreamLine& line, const std::string& where,
                                       std::size_t max_src_len) {
  std::vector<std::string> tokens;
  try {
    tokens = tokenizer.tokenize(line.text);
  } catch (const InputError& e) {
    throw InputError(where + ": " + e.what());
  }
  if (!line.cut) return tokens;
  const bool by_tokens = tokens.size() > max_src_len;
  if (by_tokens) tokens.resize(max_src_len);
  util::logger("translate")
      ->warn("{}: a line of {} words ({} bytes) cut to its first {}", where, line.words, line.bytes,
             by_tokens ? std::to_string(max_src_len) + " tokens (evaluation.max_src_len)"
                       : std::to_string(line.text.size()) + " bytes");
  return tokens;
}

// Where translate reads and writes: stdin and stdout, or --input and --output. Output is
// flushed after every batch, so that a person typing or a pipe sees each answer at once.
class Streams {
 public:
  explicit Streams(const TranslateArgs& args) : output_path_(args.output) {
    if (!args.input.empty()) {
      input_name_ = args.input;
      fd_ = ::open(args.input.c_str(), O_RDONLY | O_CLOEXEC);
      if (fd_ < 0) {
        throw InputError("--input " + args.input + ": cannot open (" + std::strerror(errno) + ")");
      }
    }
    if (args.output.empty()) return;
    std::error_code error;
    if (!args.input.empty() && std::filesystem::equivalent(args.input, args.output, error)) {
      throw UserError("--output " + args.output + " is the --input file: name another file");
    }
    util::check_output_file("--output", args.output);
    out_ = std::fopen(args.output.c_str(), "w");
    if (out_ == nullptr) {
      throw std::runtime_error(args.output + ": cannot write (" + std::strerror(errno) + ")");
    }
  }
  ~Streams() {
    if (fd_ != STDIN_FILENO) ::close(fd_);
    if (out_ != stdout) std::fclose(out_);
  }
  Streams(const Streams&) = delete;
  Streams& operator=(const Streams&) = delete;

  int input_fd() const { return fd_; }
  const std::string& input_name() const { return input_name_; }

  // One line per translation, or with n_best > 1 LINE<TAB>RANK<TAB>SCORE<TAB>TEXT lines.
  void write(const std::vector<eval::Translation>& translations, std::size_t first_line,
             int64_t n_best) {
    for (std::size_t i = 0; i < translations.size(); ++i) {
      if (n_best == 1) {
        std::fputs((translations[i].text + "\n").c_str(), out_);
        continue;
      }
      const auto& candidates = translations[i].n_best;
      for (std::size_t k = 0; k < candidates.size(); ++k) {
        std::fprintf(out_, "%zu\t%zu\t%.4f\t%s\n", first_line + i, k + 1,
                     candidates[k].normalized_score, candidates[k].text.c_str());
      }
    }
    if (std::fflush(out_) != 0 || std::ferror(out_)) fail();
  }

  // Ends the output; a write error (a full disk) names the file.
  void close() {
    if (out_ == stdout) return;
    const bool ok = std::fflush(out_) == 0 && !std::ferror(out_) && ::fsync(fileno(out_)) == 0;
    const int error = errno;
    std::fclose(out_);
    out_ = stdout;
    if (!ok) fail(error);
  }

 private:
  [[noreturn]] void fail(int error = errno) const {
    const auto name = out_ == stdout ? std::string("stdout") : output_path_;
    throw std::runtime_error(name + ": write error (" + std::strerror(error) + ")");
  }

  std::string output_path_;
  std::string input_name_ = "stdin";
  int fd_ = STDIN_FILENO;
  std::FILE* out_ = stdout;
};

}  // namespace

void setup_translate(CLI::App& app) {
  auto args = std::make_shared<TranslateArgs>();
  CLI::App* sub = app.add_subcommand("translate", "Translate stdin to stdout, one sentence a line");
  add_run_options(sub, *args);
  sub->add_option("--n-best", args->n_best,
                  "Print the K best translations of each line: LINE<TAB>RANK<TAB>SCORE<TAB>TEXT "
                  "(default: the run's evaluation.n_best)")
      ->check(integer_in(1, config::kMaxBeamSize));
  sub->add_option("--input", args->input, "Read the sentences from FILE instead of stdin");
  sub->add_option("--output", args->output,
                  "Write the translations to FILE instead of stdout (replacing it)");
  sub->add_option("--wait-ms", args->wait_ms,
                  "How long a batch waits for more lines once one has arrived")
      ->check(integer_in(0, 60000))
      ->capture_default_str();
  sub->callback([args] { run_translate(*args); });
}

void run_translate(const TranslateArgs& args) {
  const auto run = load_decoding_run(args);
  auto options = decode_options(run, args);
  const int64_t n_best = args.n_best > 0 ? args.n_best : run.config.evaluation.n_best;
  if (n_best > options.search.beam_size) {
    throw UserError("--n-best " + std::to_string(n_best) + " needs a beam of at least " +
                    std::to_string(n_best) + " (--beam " + std::to_string(n_best) + ")");
  }
  options.search.n_best = n_best;
  const eval::Translator translator(run);
  UnknownWords unknown(run.src_vocab);
  const auto max_src_len = static_cast<std::size_t>(run.config.evaluation.max_src_len);
  check_decoding_memory(run, options, {}, "translate");  // lines as long as decoding allows
  Streams streams(args);
  data::LineBatches input(streams.input_fd(), read_limits(max_src_len));
  const auto batch_size = static_cast<std::size_t>(run.config.evaluation.batch_size);
  const auto& name = streams.input_name();
  std::size_t first_line = 1;
  for (auto lines = input.next(batch_size, args.wait_ms, name); !lines.empty();
       lines = input.next(batch_size, args.wait_ms, name)) {
    const auto where = [&](std::size_t i) { return name + ":" + std::to_string(first_line + i); };
    std::vector<std::vector<std::string>> sources;
    for (std::size_t i = 0; i < lines.size(); ++i) {
      sources.push_back(tokenize_line(*run.src_tokenizer, lines[i], where(i), max_src_len));
      unknown.count(sources.back(), where(i));
    }
    sources = eval::bounded_sources(sources, run.config.evaluation.max_src_len, where);
    streams.write(translator.translate_tokens(sources, options), first_line, n_best);
    first_line += lines.size();
  }
  streams.close();
  unknown.summary();
}

}  // namespace s2s::cli
