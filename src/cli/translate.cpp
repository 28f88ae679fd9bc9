#include "cli/translate.h"

#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "checkpoint/load_run.h"
#include "eval/splits.h"
#include "eval/translate.h"
#include "util/error.h"
#include "util/logging.h"
#include "util/strings.h"

namespace s2s::cli {
namespace {

// Lines of a file descriptor in batches, as they arrive.
class LineBatches {
 public:
  explicit LineBatches(int fd) : fd_(fd) {}

  // The next lines: waits for the first, then takes those already there and those arriving
  // within `wait_ms`, up to `max`. Empty at the end of the input.
  std::vector<std::string> next(std::size_t max, int64_t wait_ms) {
    std::vector<std::string> lines;
    take(lines, max);
    while (lines.empty() && !eof_) {
      read_some(-1);
      take(lines, max);
    }
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(wait_ms);
    while (lines.size() < max && !eof_) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                            deadline - std::chrono::steady_clock::now())
                            .count();
      if (left <= 0 || !read_some(static_cast<int>(left))) break;
      take(lines, max);
    }
    return lines;
  }

 private:
  // Reads what is available within `timeout_ms` (-1: wait); false if nothing came.
  bool read_some(int timeout_ms) {
    pollfd p{fd_, POLLIN, 0};
    const int ready = ::poll(&p, 1, timeout_ms);
    if (ready < 0 && errno == EINTR) return false;
    if (ready <= 0) return false;
    char chunk[1 << 16];
    const ssize_t n = ::read(fd_, chunk, sizeof chunk);
    if (n < 0) {
      if (errno == EINTR || errno == EAGAIN) return false;
      throw InputError(std::string("stdin: read error (") + std::strerror(errno) + ")");
    }
    if (n == 0) {
      eof_ = true;
      return false;
    }
    buffer_.append(chunk, static_cast<std::size_t>(n));
    return true;
  }

  // Moves complete lines (and at the end a last line without newline) into `lines`.
  void take(std::vector<std::string>& lines, std::size_t max) {
    std::size_t start = 0;
    while (lines.size() < max) {
      const auto newline = buffer_.find('\n', start);
      if (newline == std::string::npos) {
        if (eof_ && start < buffer_.size()) {
          lines.push_back(buffer_.substr(start));
          start = buffer_.size();
        }
        break;
      }
      std::string line = buffer_.substr(start, newline - start);
      if (!line.empty() && line.back() == '\r') line.pop_back();
      lines.push_back(std::move(line));
      start = newline + 1;
    }
    buffer_.erase(0, start);
  }

  int fd_;
  std::string buffer_;
  bool eof_ = false;
};

// Source words outside the vocabulary: the first reason an out-of-domain line translates badly.
class UnknownWords {
 public:
  explicit UnknownWords(const data::Vocab& vocab) : vocab_(vocab) {}

  void count(const std::vector<std::string>& tokens, std::size_t line) {
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
          ->debug("stdin:{}: {} unknown source words: {}", line, unknown.size(),
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

}  // namespace

void setup_translate(CLI::App& app) {
  auto args = std::make_shared<TranslateArgs>();
  CLI::App* sub = app.add_subcommand("translate", "Translate stdin to stdout, one sentence a line");
  add_run_options(sub, *args);
  sub->add_option("--n-best", args->n_best,
                  "Print the K best translations of each line: LINE<TAB>RANK<TAB>SCORE<TAB>TEXT "
                  "(default: the run's evaluation.n_best)")
      ->check(integer_in(1, config::kMaxBeamSize));
  sub->add_option("--wait-ms", args->wait_ms,
                  "How long a batch waits for more lines once one has arrived")
      ->check(integer_in(0, 60000))
      ->capture_default_str();
  sub->callback([args] { run_translate(*args); });
}

void run_translate(const TranslateArgs& args) {
  const auto run = checkpoint::load_run(args.run, args.checkpoint);
  auto options = decode_options(run, args);
  const int64_t n_best = args.n_best > 0 ? args.n_best : run.config.evaluation.n_best;
  if (n_best > options.search.beam_size) {
    throw UserError("--n-best " + std::to_string(n_best) + " needs a beam of at least " +
                    std::to_string(n_best) + " (--beam " + std::to_string(n_best) + ")");
  }
  options.search.n_best = n_best;
  const eval::Translator translator(run);
  UnknownWords unknown(run.src_vocab);
  LineBatches input(STDIN_FILENO);
  const auto batch_size = static_cast<std::size_t>(run.config.evaluation.batch_size);
  std::size_t first_line = 1;
  for (auto lines = input.next(batch_size, args.wait_ms); !lines.empty();
       lines = input.next(batch_size, args.wait_ms)) {
    std::vector<std::vector<std::string>> sources;
    for (std::size_t i = 0; i < lines.size(); ++i) {
      const auto where = "stdin:" + std::to_string(first_line + i);
      try {
        sources.push_back(run.src_tokenizer->tokenize(lines[i]));
      } catch (const InputError& e) {
        throw InputError(where + ": " + e.what());
      }
      unknown.count(sources.back(), first_line + i);
    }
    sources = eval::bounded_sources(sources, run.config.evaluation.max_src_len, [&](std::size_t i) {
      return "stdin:" + std::to_string(first_line + i);
    });
    const auto translations = translator.translate_tokens(sources, options);
    for (std::size_t i = 0; i < translations.size(); ++i) {
      if (n_best == 1) {
        std::fputs((translations[i].text + "\n").c_str(), stdout);
        continue;
      }
      const auto& candidates = translations[i].n_best;
      for (std::size_t k = 0; k < candidates.size(); ++k) {
        std::fprintf(stdout, "%zu\t%zu\t%.4f\t%s\n", first_line + i, k + 1,
                     candidates[k].normalized_score, candidates[k].text.c_str());
      }
    }
    std::fflush(stdout);
    first_line += lines.size();
  }
  unknown.summary();
}

}  // namespace s2s::cli
