#pragma once
// Where the time of training and decoding steps goes, by component: `s2s bench --breakdown`.
//
// It listens to LibTorch's RecordFunction events: every ATen operator, every autograd node of the
// backward pass, and the scopes the project marks around its own components (RECORD_USER_SCOPE
// "s2s::attention", "s2s::gru", "s2s::loss", "s2s::optimizer", "s2s::data", "s2s::search").
// Each event's own time (its duration less that of the events nested in it) goes to a share:
//
//   matrix products   aten::mm, addmm, bmm, matmul, linear, ... wherever they run
//   attention         inside s2s::attention, and the attention's autograd nodes
//   GRU               inside s2s::gru, and the GRU's autograd nodes
//   loss, optimizer, embedding, data, search bookkeeping: likewise
//   autograd          a backward node's own time outside the operators it calls
//   other             every other operator, and the time between operators (C++ glue)
//
// An operator without a share of its own takes that of the scope it runs in (the additions
// inside the attention are attention), except inside autograd nodes, where it is "other".
// Nothing is registered unless a Breakdown lives, so the marks cost nothing otherwise (LibTorch
// checks one flag). The events' own bookkeeping is part of what is measured: compare shares,
// not a breakdown run's wall time with an unobserved one.

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace s2s::experiments {

enum class Share {
  kMatmul,
  kAttention,
  kGru,
  kLoss,
  kOptimizer,
  kEmbedding,
  kData,
  kSearch,
  kAutograd,
  kOther,
  kCount
};
constexpr std::size_t kShares = static_cast<std::size_t>(Share::kCount);

const char* share_name(Share share);  // "matrix products", "attention", ...

// The share an event of this name starts (kOther: none of its own). `backward`: an autograd node.
Share classify(std::string_view name, bool backward);

// Seconds per share.
using ShareSeconds = std::array<double, kShares>;

// Collects while it lives (one at a time); the events of every thread count.
class Breakdown {
 public:
  Breakdown();
  ~Breakdown();
  Breakdown(const Breakdown&) = delete;
  Breakdown& operator=(const Breakdown&) = delete;

  // The shares so far, with the wall time `wall_seconds` not inside any event added to kOther.
  ShareSeconds seconds(double wall_seconds) const;
  void reset();

 private:
  uint64_t handle_;
};

// "matrix products 41.2%, attention 12.0%, ...": the shares of `s`, largest first.
std::string format_shares(const ShareSeconds& s);

}  // namespace s2s::experiments
