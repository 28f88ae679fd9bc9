#pragma once
// The decoding side of `s2s serve`: requests wait in a bounded queue, and worker threads decode
// them in batches through the translator `s2s translate` uses (eval/translate.h).
//
// Dynamic batching, as `translate --wait-ms` batches lines: a free worker takes the oldest job
// and waits until at most `wait_ms` after it arrived for more jobs with the same search options
// (beam, n_best, length penalty), taking them in arrival order while the batch holds at most
// `max_batch` sentences (a job larger than that is decoded alone, in batches of max_batch).
// The batch's sentences are decoded together, longest first, and each job gets its own back.
//
// Bounded: a job submitted while `capacity` jobs wait is refused (QueueFull: the server answers
// 503 with Retry-After), so a burst of clients costs memory in proportion to the capacity, not
// to the burst.

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "eval/search.h"
#include "eval/translate.h"

namespace s2s::serve {

struct QueueOptions {
  int64_t max_batch = 32;     // sentences decoded together at most
  int64_t wait_ms = 5;        // how long the oldest job waits for company
  int64_t threads = 1;        // decoding workers
  std::size_t capacity = 64;  // jobs waiting at most
};

// What one decoded batch held, for the log.
struct BatchReport {
  std::size_t jobs = 0, sentences = 0;
  double wait_ms = 0, decode_ms = 0;  // the oldest job's wait; the decoding itself
};

// Refused at once: the queue holds `capacity` jobs already, or is stopping.
struct QueueFull : std::runtime_error {
  using std::runtime_error::runtime_error;
};

using Translations = std::vector<eval::Translation>;

class DecodeQueue {
 public:
  // `base`: the options every batch decodes with (precision, <unk> replacement); each job's
  // search options replace base.search. `on_batch` is called by a worker after each batch.
  DecodeQueue(const eval::Translator& translator, eval::TranslateOptions base, QueueOptions options,
              std::function<void(const BatchReport&)> on_batch = {});
  ~DecodeQueue();  // stop()
  DecodeQueue(const DecodeQueue&) = delete;
  DecodeQueue& operator=(const DecodeQueue&) = delete;

  // Queues tokenized sources (no </s>) for decoding with `search`; the future holds their
  // translations in order (or the decoding's exception). QueueFull when full or stopping.
  std::future<Translations> submit(std::vector<std::vector<std::string>> sources,
                                   const eval::SearchOptions& search);

  // Decodes every job already queued, then ends the workers; later submits are refused.
  void stop();

  std::size_t waiting() const;  // jobs queued, not yet taken by a worker

 private:
  using Clock = std::chrono::steady_clock;
  struct Job {
    std::vector<std::vector<std::string>> sources;
    eval::SearchOptions search;
    std::promise<Translations> result;
    Clock::time_point arrived;
  };

  void work();
  std::vector<std::unique_ptr<Job>> next_batch();  // empty once stopped and drained
  std::vector<std::size_t> joining(std::size_t limit) const;
  std::size_t batch_sentences(std::size_t limit) const;  // of the jobs joining(limit)
  std::vector<std::unique_ptr<Job>> take_batch(std::size_t limit);
  void decode(std::vector<std::unique_ptr<Job>>& batch);

  const eval::Translator& translator_;
  const eval::TranslateOptions base_;
  const QueueOptions options_;
  const std::function<void(const BatchReport&)> on_batch_;

  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::unique_ptr<Job>> jobs_;
  bool stopping_ = false;
  std::vector<std::thread> workers_;
};

// Whether two jobs may share a batch: the same beam, n_best and length penalty.
bool same_search(const eval::SearchOptions& a, const eval::SearchOptions& b);

}  // namespace s2s::serve
