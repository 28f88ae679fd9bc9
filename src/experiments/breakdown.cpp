#include "experiments/breakdown.h"

#include <ATen/record_function.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <memory>
#include <numeric>
#include <vector>

#include "util/error.h"

namespace s2s::experiments {
namespace {

using Clock = std::chrono::steady_clock;

// Nanoseconds per share, from every thread.
std::array<std::atomic<int64_t>, kShares> totals{};
std::atomic<bool> active{false};

struct Frame {
  Share share;
  Clock::time_point start;
  int64_t nested_ns = 0;  // time of the events inside this one
};
thread_local std::vector<Frame> frames;

bool inheritable(Share s) { return s != Share::kOther && s != Share::kAutograd; }

std::unique_ptr<at::ObserverContext> on_start(const at::RecordFunction& fn) {
  const bool backward = fn.scope() == at::RecordScope::BACKWARD_FUNCTION;
  Share share = classify(fn.name(), backward);
  if (share == Share::kOther && !frames.empty() && inheritable(frames.back().share)) {
    share = frames.back().share;
  }
  frames.push_back({share, Clock::now()});
  return nullptr;
}

void on_end(const at::RecordFunction&, at::ObserverContext*) {
  if (frames.empty()) return;  // began before the Breakdown did
  const auto frame = frames.back();
  frames.pop_back();
  const auto total =
      std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - frame.start).count();
  totals[static_cast<std::size_t>(frame.share)] += total - frame.nested_ns;
  if (!frames.empty()) frames.back().nested_ns += total;
}

bool contains(std::string_view name, std::string_view part) {
  return name.find(part) != std::string_view::npos;
}

}  // namespace

const char* share_name(Share share) {
  static const char* const names[] = {"matrix products", "attention", "GRU",  "loss",
                                      "optimizer",       "embedding", "data", "search bookkeeping",
                                      "autograd",        "other"};
  return names[static_cast<std::size_t>(share)];
}

Share classify(std::string_view name, bool backward) {
  static const char* const products[] = {"aten::mm",     "aten::addmm",  "aten::bmm",
                                         "aten::matmul", "aten::linear", "aten::baddbmm",
                                         "aten::addmv",  "aten::mv",     "aten::addbmm"};
  for (const auto* p : products) {
    if (name == p) return Share::kMatmul;
  }
  if (contains(name, "MmBackward") || contains(name, "AddmmBackward") ||
      contains(name, "BmmBackward")) {
    return Share::kMatmul;
  }
  // The project's scopes, and its own autograd nodes (named after their classes).
  const std::pair<const char*, Share> parts[] = {
      {"s2s::attention", Share::kAttention},
      {"Additive", Share::kAttention},
      {"StepWeightedSum", Share::kAttention},
      {"CollectGrad", Share::kAttention},
      {"Sparsemax", Share::kAttention},
      {"Entmax", Share::kAttention},
      {"s2s::gru", Share::kGru},
      {"Gru", Share::kGru},
      {"s2s::loss", Share::kLoss},
      {"CrossEntropy", Share::kLoss},
      {"s2s::optimizer", Share::kOptimizer},
      {"s2s::data", Share::kData},
      {"s2s::search", Share::kSearch},
      {"mbedding", Share::kEmbedding},
  };
  for (const auto& [part, share] : parts) {
    if (contains(name, part)) return share;
  }
  return backward ? Share::kAutograd : Share::kOther;
}

Breakdown::Breakdown() {
  if (active.exchange(true)) throw std::logic_error("one Breakdown at a time");
  reset();
  handle_ = at::addGlobalCallback(at::RecordFunctionCallback(on_start, on_end));
}

Breakdown::~Breakdown() {
  at::removeCallback(handle_);
  active = false;
}

void Breakdown::reset() {
  for (auto& t : totals) t = 0;
}

ShareSeconds Breakdown::seconds(double wall_seconds) const {
  ShareSeconds s{};
  double recorded = 0;
  for (std::size_t i = 0; i < kShares; ++i) {
    s[i] = static_cast<double>(totals[i].load()) * 1e-9;
    recorded += s[i];
  }
  s[static_cast<std::size_t>(Share::kOther)] += std::max(0.0, wall_seconds - recorded);
  return s;
}

std::string format_shares(const ShareSeconds& s) {
  const double total = std::accumulate(s.begin(), s.end(), 0.0);
  std::vector<std::size_t> order(kShares);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](auto a, auto b) { return s[a] > s[b]; });
  std::string out;
  for (const auto i : order) {
    if (s[i] <= 0) continue;
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%s%s %.1f%%", out.empty() ? "" : ", ",
                  share_name(static_cast<Share>(i)), total > 0 ? 100.0 * s[i] / total : 0.0);
    out += buffer;
  }
  return out;
}

}  // namespace s2s::experiments
