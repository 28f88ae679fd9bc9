// Two processes on loopback (s2s train --nproc 2, dropout 0, fixed seed) end with the weights of
// one process trained on the same global batches: at each step, the union of the two ranks'
// batches, one loss normalized over all their tokens (train/distributed.h). The same with the
// corpus in memory and with a prepared corpus both ranks map (data.prepared).

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "batching/batch.h"
#include "checkpoint/checkpoint.h"
#include "config/json_io.h"
#include "device/device.h"
#include "model/build_model.h"
#include "train/optimizer.h"
#include "train/train_step.h"
#include "train/training_data.h"

namespace s2s {
namespace {

namespace fs = std::filesystem;

std::string first_lines(const std::string& path, int n) {
  std::ifstream in(path);
  std::string out, line;
  for (int i = 0; i < n && std::getline(in, line); ++i) out += line + "\n";
  return out;
}

class DistributedTest : public ::testing::TestWithParam<bool> {};

TEST_P(DistributedTest, TwoProcessesEqualOneOnTheUnionOfTheirBatches) {
  const bool prepared = GetParam();
  const fs::path dir =
      fs::temp_directory_path() /
      ("s2s_distributed_" + std::to_string(::getpid()) + (prepared ? "_prepared" : ""));
  fs::remove_all(dir);
  fs::create_directories(dir / "data");
  const std::string repo = S2S_SOURCE_DIR;
  for (const char* ext : {"en", "fr"}) {
    std::ofstream(dir / "data" / (std::string("train.") + ext))
        << first_lines(repo + "/data/en-fr/train." + ext, 256);
    std::ofstream(dir / "data" / (std::string("valid.") + ext))
        << first_lines(repo + "/data/en-fr/valid." + ext, 16);
  }
  std::ofstream(dir / "c.json") << R"({
    "run_dir": ")" << (dir / "run").string()
                                << R"(", "seed": 11,
    "data": {"train": "data/train", "valid": "data/valid", "src_ext": "en", "tgt_ext": "fr",
             "prepared": )" << (prepared ? "true" : "false")
                                << R"(},
    "model": {"emb_size": 16, "hidden_size": 16},
    "training": {"batch_size": 16, "bucket_batches": 0, "max_steps": 6, "validate_every": 6,
                 "num_samples": 0, "threads": 1, "precision": "fp32"}})";
  const std::string command = std::string(S2S_BINARY) + " train -c " + (dir / "c.json").string() +
                              " --nproc 2 > " + (dir / "out.txt").string() + " 2>&1";
  ASSERT_EQ(std::system(command.c_str()), 0) << first_lines((dir / "out.txt").string(), 200);

  // One process on the union of rank 0's and rank 1's batch at every step.
  const auto config = config::load_config((dir / "c.json").string());
  const auto rank0 = train::prepare_training_data(config, nullptr, 0, 2);
  const auto rank1 = train::prepare_training_data(config, nullptr, 1, 2);
  const auto b0 = rank0.batcher->epoch(0), b1 = rank1.batcher->epoch(0);
  if (prepared) {
    EXPECT_TRUE(rank0.prepared && rank0.train.size() == 0) << "the ranks read a mapped corpus";
  }
  device::seed_everything(config.seed);
  auto model = model::build_model(config.model, rank0.src_vocab.size(), rank0.tgt_vocab.size());
  auto optimizer = train::make_optimizer(config.training, model->parameters());
  const train::TrainStep step(config, torch::kCPU, device::Precision::kFp32);
  std::vector<double> reinforce;
  for (std::size_t k = 0; k < 6; ++k) {
    auto rows = b0->batch(k);
    const auto& other = b1->batch(k);
    rows.insert(rows.end(), other.begin(), other.end());
    step(model, *optimizer, train::training_batch(rank0, rows, torch::kCPU), reinforce);
  }
  auto trained = model::build_model(config.model, rank0.src_vocab.size(), rank0.tgt_vocab.size());
  checkpoint::load_checkpoint(
      (dir / "run/checkpoints/last.pt").string(), *trained, nullptr,
      run::model_signature(config.model, rank0.src_vocab.size(), rank0.tgt_vocab.size()));
  auto params = model->named_parameters();
  double worst = 0.0;
  for (const auto& p : trained->named_parameters()) {
    worst = std::max(worst, (p.value() - params[p.key()]).abs().max().item<double>());
  }
  EXPECT_LT(worst, 1e-5) << "largest weight difference after 6 steps";
  fs::remove_all(dir);
}

std::string corpus_name(const ::testing::TestParamInfo<bool>& param) {
  return param.param ? "Prepared" : "InMemory";
}

INSTANTIATE_TEST_SUITE_P(InMemoryAndPrepared, DistributedTest, ::testing::Bool(), corpus_name);

}  // namespace
}  // namespace s2s
