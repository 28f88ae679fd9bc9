// Benchmark of the fused Adam step against LibTorch's (not a test: prints timings as JSON). The
// two sides alternate call by call, so that a machine whose speed drifts slows both alike; each
// figure is the median over the rounds.
//   bench_ops [THREADS]   (default 2)
// One optimizer step over the parameter shapes of the main job (configs/default.json, about
// 3.8M) and of bench/reference.json (8.7M), train::FusedAdam against torch::optim::Adam.

#include <torch/torch.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "train/adam.h"

namespace {

using Clock = std::chrono::steady_clock;

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Median milliseconds of a() and b(), called alternately `rounds` times after a warm-up.
template <class A, class B>
std::pair<double, double> alternate(int rounds, A&& a, B&& b) {
  std::vector<double> ta, tb;
  const auto time = [](auto& fn) {
    const auto start = Clock::now();
    fn();
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  };
  for (int i = 0; i < 3; ++i) a(), b();
  for (int i = 0; i < rounds; ++i) {
    ta.push_back(time(a));
    tb.push_back(time(b));
  }
  return {median(ta), median(tb)};
}

// Parameters of the given shapes, with gradients.
std::vector<torch::Tensor> parameters(const std::vector<std::vector<int64_t>>& shapes) {
  std::vector<torch::Tensor> out;
  for (const auto& s : shapes) {
    auto p = torch::randn(s).requires_grad_();
    p.mutable_grad() = torch::randn(s) * 1e-3;
    out.push_back(p);
  }
  return out;
}

// The Adam step of a model whose parameters have these shapes.
nlohmann::json adam(const std::string& name, const std::vector<std::vector<int64_t>>& shapes) {
  auto fused_params = parameters(shapes), torch_params = parameters(shapes);
  s2s::train::FusedAdam fused(fused_params, torch::optim::AdamOptions(1e-3));
  torch::optim::Adam reference(torch_params, torch::optim::AdamOptions(1e-3));
  const auto [ms_torch, ms_fused] = alternate(
      30, [&] { reference.step(); }, [&] { fused.step(); });
  int64_t count = 0;
  for (const auto& p : fused_params) count += p.numel();
  return {{"op", "adam_step"},       {"model", name},        {"parameters", count},
          {"libtorch_ms", ms_torch}, {"fused_ms", ms_fused}, {"speedup", ms_torch / ms_fused}};
}

}  // namespace

int main(int argc, char** argv) {
  torch::set_num_threads(argc > 1 ? std::stoi(argv[1]) : 2);
  torch::manual_seed(1);
  torch::NoGradGuard no_grad;
  // Embeddings, GRU and attention weights, output layer: the shapes of the two configs.
  const std::vector<std::vector<int64_t>> main_job = {
      {1520, 128}, {768, 128}, {768, 256}, {768}, {768},      {768, 128},  {768, 256},
      {768},       {768},      {256, 512}, {256}, {256, 512}, {256, 256},  {1, 256},
      {2010, 128}, {768, 640}, {768, 256}, {768}, {768},      {2010, 896}, {2010}};
  const std::vector<std::vector<int64_t>> reference = {
      {7882, 128}, {768, 128}, {768, 256}, {768}, {768},      {768, 128},  {768, 256},
      {768},       {768},      {256, 512}, {256}, {256, 512}, {256, 256},  {1, 256},
      {5898, 128}, {768, 640}, {768, 256}, {768}, {768},      {5898, 896}, {5898}};
  for (const auto& line : {adam("default.json", main_job), adam("reference.json", reference)}) {
    std::printf("%s\n", line.dump().c_str());
  }
  return 0;
}
