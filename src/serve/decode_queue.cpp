#include "serve/decode_queue.h"

#include <algorithm>
#include <exception>
#include <utility>

namespace s2s::serve {

bool same_search(const eval::SearchOptions& a, const eval::SearchOptions& b) {
  return a.beam_size == b.beam_size && a.n_best == b.n_best &&
         a.length_penalty == b.length_penalty && a.beam_rule == b.beam_rule &&
         a.beam_prune == b.beam_prune && a.max_len_ratio == b.max_len_ratio &&
         a.max_len_extra == b.max_len_extra && a.keep_attention == b.keep_attention;
}

DecodeQueue::DecodeQueue(const eval::Translator& translator, eval::TranslateOptions base,
                         QueueOptions options, std::function<void(const BatchReport&)> on_batch)
    : translator_(translator),
      base_(std::move(base)),
      options_(options),
      on_batch_(std::move(on_batch)) {
  for (int64_t i = 0; i < std::max<int64_t>(options_.threads, 1); ++i) {
    workers_.emplace_back([this] { work(); });
  }
}

DecodeQueue::~DecodeQueue() { stop(); }

std::future<Translations> DecodeQueue::submit(std::vector<std::vector<std::string>> sources,
                                              const eval::SearchOptions& search) {
  auto job = std::make_unique<Job>();
  job->sources = std::move(sources);
  job->search = search;
  job->arrived = Clock::now();
  auto future = job->result.get_future();
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (stopping_) throw QueueFull("the server is shutting down");
    if (jobs_.size() >= options_.capacity) {
      throw QueueFull("the queue is full (" + std::to_string(options_.capacity) +
                      " requests waiting); retry shortly");
    }
    jobs_.push_back(std::move(job));
  }
  changed_.notify_all();
  return future;
}

void DecodeQueue::stop() {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  for (auto& w : workers_) {
    if (w.joinable()) w.join();
  }
}

std::size_t DecodeQueue::waiting() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return jobs_.size();
}

void DecodeQueue::work() {
  for (auto batch = next_batch(); !batch.empty(); batch = next_batch()) decode(batch);
}

// The oldest job and the jobs that may join it (same_search, arrival order, max_batch
// sentences in all), once the batch is full, the oldest job has waited wait_ms, or the queue
// is stopping. Empty when stopping with nothing left. With several workers another one may take
// the oldest job while this one waits: then it starts over with the new oldest.
std::vector<std::unique_ptr<DecodeQueue::Job>> DecodeQueue::next_batch() {
  const auto limit = static_cast<std::size_t>(std::max<int64_t>(options_.max_batch, 1));
  std::unique_lock<std::mutex> lock(mutex_);
  while (true) {
    changed_.wait(lock, [this] { return stopping_ || !jobs_.empty(); });
    if (jobs_.empty()) return {};
    const Job* oldest = jobs_.front().get();
    const auto deadline = oldest->arrived + std::chrono::milliseconds(options_.wait_ms);
    const auto taken = [&] { return jobs_.empty() || jobs_.front().get() != oldest; };
    changed_.wait_until(lock, deadline,
                        [&] { return stopping_ || taken() || batch_sentences(limit) >= limit; });
    if (!taken()) return take_batch(limit);
  }
}

// The oldest job and those that may join it now: same search, arrival order, at most `limit`
// sentences (the oldest alone may hold more). Positions in jobs_ (mutex_ held, jobs_ not empty).
std::vector<std::size_t> DecodeQueue::joining(std::size_t limit) const {
  std::vector<std::size_t> out;
  std::size_t sentences = 0;
  for (std::size_t i = 0; i < jobs_.size(); ++i) {
    const auto& job = *jobs_[i];
    if (!same_search(job.search, jobs_.front()->search)) continue;
    if (sentences > 0 && sentences + job.sources.size() > limit) break;
    sentences += job.sources.size();
    out.push_back(i);
  }
  return out;
}

std::size_t DecodeQueue::batch_sentences(std::size_t limit) const {
  std::size_t n = 0;
  for (const auto i : joining(limit)) n += jobs_[i]->sources.size();
  return n;
}

// Moves the jobs joining(limit) names out of the queue, in order (mutex_ held).
std::vector<std::unique_ptr<DecodeQueue::Job>> DecodeQueue::take_batch(std::size_t limit) {
  const auto taken = joining(limit);
  std::vector<std::unique_ptr<Job>> batch;
  for (const auto i : taken) batch.push_back(std::move(jobs_[i]));
  for (auto it = taken.rbegin(); it != taken.rend(); ++it) {
    jobs_.erase(jobs_.begin() + static_cast<std::ptrdiff_t>(*it));
  }
  return batch;
}

void DecodeQueue::decode(std::vector<std::unique_ptr<Job>>& batch) {
  const auto start = Clock::now();
  BatchReport report;
  report.jobs = batch.size();
  report.wait_ms =
      std::chrono::duration<double, std::milli>(start - batch.front()->arrived).count();
  std::vector<std::vector<std::string>> sources;
  for (const auto& job : batch) {
    sources.insert(sources.end(), job->sources.begin(), job->sources.end());
  }
  report.sentences = sources.size();
  auto options = base_;
  options.search = batch.front()->search;
  options.batch_size = std::max<int64_t>(options_.max_batch, 1);
  options.progress = nullptr;
  std::vector<Translations> results;
  try {
    auto translations = translator_.translate_tokens(sources, options);
    auto next = translations.begin();
    for (const auto& job : batch) {
      const auto n = static_cast<std::ptrdiff_t>(job->sources.size());
      results.emplace_back(std::make_move_iterator(next), std::make_move_iterator(next + n));
      next += n;
    }
  } catch (...) {
    for (auto& job : batch) job->result.set_exception(std::current_exception());
  }
  for (std::size_t i = 0; i < results.size(); ++i)
    batch[i]->result.set_value(std::move(results[i]));
  report.decode_ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  if (on_batch_) on_batch_(report);
}

}  // namespace s2s::serve
