#include "train/distributed.h"

#include <torch/csrc/distributed/c10d/TCPStore.hpp>
#ifdef USE_C10D_NCCL
#include <torch/csrc/distributed/c10d/PrefixStore.hpp>
#endif

#include <chrono>
#include <cstdlib>

#include "util/error.h"
#include "util/logging.h"
#include "util/strings.h"

namespace s2s::train {
namespace {

constexpr int64_t kBucketBytes = 25 << 20;  // DDP's default bucket size

// An integer environment variable; `fallback` when unset; UserError naming it if malformed.
int64_t env_int(const char* name, int64_t fallback) {
  const char* text = std::getenv(name);
  if (text == nullptr || *text == '\0') return fallback;
  char* end = nullptr;
  const long long value = std::strtoll(text, &end, 10);
  if (*end != '\0' || value < 0) {
    throw UserError(std::string(name) + " must be a non-negative integer, got '" + text + "'");
  }
  return value;
}

std::chrono::milliseconds millis(double seconds) {
  return std::chrono::milliseconds(static_cast<int64_t>(seconds * 1000.0));
}

}  // namespace

std::optional<DistributedEnv> distributed_env() {
  DistributedEnv e;
  e.world_size = env_int("WORLD_SIZE", 1);
  if (e.world_size <= 1) return std::nullopt;
  e.rank = env_int("RANK", -1);
  if (e.rank < 0 || e.rank >= e.world_size) {
    throw UserError("RANK must be in [0, WORLD_SIZE = " + std::to_string(e.world_size) +
                    ") when WORLD_SIZE is set");
  }
  e.local_rank = env_int("LOCAL_RANK", e.rank);
  e.local_world_size = env_int("LOCAL_WORLD_SIZE", e.world_size);
  if (const char* addr = std::getenv("MASTER_ADDR")) e.master_addr = addr;
  e.port = static_cast<int>(env_int("MASTER_PORT", 29500));
  if (e.port < 1 || e.port > 65535) throw UserError("MASTER_PORT must be in [1, 65535]");
  return e;
}

Distributed::Distributed(const DistributedEnv& env, double timeout_s, torch::Device device)
    : env_(env), timeout_s_(timeout_s) {
  const auto where = env.master_addr + ":" + std::to_string(env.port);
  c10d::TCPStoreOptions o;
  o.port = static_cast<uint16_t>(env.port);
  o.isServer = env.rank == 0;
  o.numWorkers = static_cast<std::size_t>(env.world_size);
  o.waitWorkers = true;
  o.timeout = millis(timeout_s);
  try {
    store_ = c10::make_intrusive<c10d::TCPStore>(env.master_addr, o);
  } catch (const std::exception& e) {
    const std::string what = util::first_line(e.what());
    if (env.rank == 0 && what.find("ddress already in use") != std::string::npos) {
      throw UserError("MASTER_PORT " + std::to_string(env.port) + " is in use on " +
                      env.master_addr + ": choose another port");
    }
    throw UserError("rank " + std::to_string(env.rank) + " could not meet the others at " + where +
                    " within " + std::to_string(static_cast<int>(timeout_s)) +
                    " s (training.dist_timeout_s): " + what);
  }
  auto options = c10d::ProcessGroupGloo::Options::create();
  options->timeout = millis(timeout_s);
  try {
    // Gloo's transport binds to the interface of MASTER_ADDR on every rank: an address that is
    // no interface of this machine (or a name that does not resolve) fails here.
    options->devices.push_back(c10d::ProcessGroupGloo::createDeviceForHostname(
        env.master_addr == "localhost" ? "127.0.0.1" : env.master_addr));
    group_ = c10::make_intrusive<c10d::ProcessGroupGloo>(store_, static_cast<int>(env.rank),
                                                         static_cast<int>(env.world_size), options);
  } catch (const std::exception& e) {
    throw UserError("rank " + std::to_string(env.rank) + ": the process group at " + where +
                    " did not form (" + util::first_line(e.what()) + ")");
  }
  gradients_ = group_;
#ifdef USE_C10D_NCCL
  if (device.is_cuda()) {
    auto nccl = c10::make_intrusive<c10d::ProcessGroupNCCL::Options>();
    nccl->timeout = millis(timeout_s);
    gradients_ = c10::make_intrusive<c10d::ProcessGroupNCCL>(
        c10::make_intrusive<c10d::PrefixStore>("nccl", store_), static_cast<int>(env.rank),
        static_cast<int>(env.world_size), nccl);
  }
#else
  (void)device;  // Gloo all-reduces CPU and CUDA tensors alike
#endif
  check_same("WORLD_SIZE", env.world_size);
  util::logger("dist")->info("rank {} of {} (local rank {} of {}) joined at {}", env.rank,
                             env.world_size, env.local_rank, env.local_world_size, where);
}

Distributed::~Distributed() = default;

void Distributed::wait(const std::string& what, const c10::intrusive_ptr<c10d::Work>& work) {
  try {
    work->wait(millis(timeout_s_));
  } catch (const std::exception& e) {
    throw std::runtime_error("rank " + std::to_string(env_.rank) + ": " + what +
                             " failed: another rank stopped or hung beyond " +
                             std::to_string(static_cast<int>(timeout_s_)) +
                             " s (training.dist_timeout_s) (" + util::first_line(e.what()) + ")");
  }
}

void Distributed::check_same(const std::string& what, int64_t value) {
  std::vector<std::vector<at::Tensor>> out(1);
  for (int64_t r = 0; r < env_.world_size; ++r) out[0].push_back(torch::empty({1}, torch::kLong));
  std::vector<at::Tensor> in = {torch::tensor({value}, torch::kLong)};
  wait("exchanging " + what, group_->allgather(out, in));
  for (int64_t r = 0; r < env_.world_size; ++r) {
    const auto theirs = out[0][static_cast<std::size_t>(r)].item<int64_t>();
    if (theirs != value) {
      throw UserError("ranks disagree on " + what + ": rank " + std::to_string(env_.rank) +
                      " has " + std::to_string(value) + ", rank " + std::to_string(r) + " has " +
                      std::to_string(theirs) + " (start every rank with the same config and data)");
    }
  }
}

// Gloo's broadcast takes one tensor per device, all of one shape; a list of differently shaped
// tensors therefore goes as one flat fp32 buffer and is copied back into place.
void Distributed::broadcast(std::vector<torch::Tensor>& tensors) {
  if (tensors.empty()) return;
  torch::NoGradGuard no_grad;
  std::vector<torch::Tensor> flat;
  for (const auto& t : tensors) flat.push_back(t.reshape({-1}).to(torch::kDouble));
  std::vector<at::Tensor> buffer = {torch::cat(flat)};
  c10d::BroadcastOptions o;
  o.rootRank = 0;
  wait("broadcast", group_->broadcast(buffer, o));
  int64_t offset = 0;
  for (auto& t : tensors) {
    t.copy_(buffer[0].narrow(0, offset, t.numel()).view(t.sizes()));
    offset += t.numel();
  }
}

void Distributed::sum(torch::Tensor& values) {
  std::vector<at::Tensor> t = {values};
  wait("all-reduce", group_->allreduce(t));
}

void Distributed::average_gradients(const std::vector<torch::Tensor>& params) {
  const auto start_time = std::chrono::steady_clock::now();
  int64_t total_bytes = 0;
  std::vector<torch::Tensor> grads;
  for (const auto& p : params) {
    if (p.grad().defined()) grads.push_back(p.grad());
  }
  std::size_t start = 0;
  while (start < grads.size()) {
    std::size_t end = start;
    int64_t bytes = 0;
    std::vector<torch::Tensor> flat;
    while (end < grads.size() && (end == start || bytes < kBucketBytes)) {
      bytes += static_cast<int64_t>(grads[end].nbytes());
      flat.push_back(grads[end].reshape({-1}));
      ++end;
    }
    std::vector<at::Tensor> bucket = {torch::cat(flat)};
    total_bytes += bytes;
    wait("gradient all-reduce", gradients_->allreduce(bucket));
    bucket[0].div_(static_cast<double>(env_.world_size));
    int64_t offset = 0;
    for (std::size_t i = start; i < end; ++i) {
      const int64_t n = grads[i].numel();
      grads[i].copy_(bucket[0].narrow(0, offset, n).view_as(grads[i]));
      offset += n;
    }
    start = end;
  }
  ++traffic_.steps;
  traffic_.bytes_per_step = total_bytes;
  traffic_.seconds +=
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_time).count();
}

}  // namespace s2s::train
