#pragma once
// Training speed, measured the way the trainer trains: the data prepared by the same functions
// (read, tokenize, filter, vocabulary, batcher), then the real update (forward, loss, backward,
// gradient clipping, optimizer step) timed over a number of steps after a warm-up. Nothing is
// written to disk. Also the yardsticks the speed is read against: the multiply-adds a forward
// pass costs, a matrix-product probe of the machine's practical peak, the process's memory.
//
// Shapes: B batch, S longest source (with </s>), T longest target (with </s>).

#include <torch/torch.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "config/config.h"
#include "data/batcher.h"
#include "data/tokenizer.h"
#include "data/vocab.h"
#include "model/seq2seq.h"
#include "train/batch.h"

namespace s2s::train {

// Everything the benchmark reads from the config's corpora, prepared once for every scorer.
struct BenchData {
  std::unique_ptr<data::Tokenizer> src_tokenizer, tgt_tokenizer;
  data::Vocab src_vocab, tgt_vocab;
  EncodedCorpus train;                                  // filtered training pairs, as ids
  std::unique_ptr<data::Batcher> batcher;               // the trainer's batcher
  std::vector<std::vector<std::string>> valid_sources;  // every validation source, tokenized
};

// read -> tokenize -> filter (train only) -> vocabularies -> ids -> batcher, as Trainer does.
BenchData prepare_bench_data(const config::Config& config);

struct TrainBenchOptions {
  int64_t steps = 30;  // timed updates
  int64_t warmup = 5;  // untimed updates before them
};

struct TrainBenchResult {
  int64_t steps = 0;
  int64_t tgt_tokens = 0;      // real target tokens (</s> included) of the timed steps
  double seconds = 0.0;        // wall time of the timed steps
  double mean_loss = 0.0;      // mean training loss of the timed steps
  int64_t forward_macs = 0;    // counted multiply-adds of the timed forward passes
  double first_step_at = 0.0;  // process uptime (s) when the first update began
};

// Trains `model` (already on `device`) on the first warmup + steps batches of the epoch order
// (continuing into the next epochs when one is too short). Throws ConfigError for hard
// attention trained by sampling: its REINFORCE terms belong to the trainer alone.
TrainBenchResult bench_training(const config::Config& config, const BenchData& data,
                                model::Seq2Seq& model, torch::Device device,
                                const TrainBenchOptions& options);

// What one padded batch looks like to the model.
struct BatchShape {
  int64_t batch = 0;       // B
  int64_t src_len = 0;     // S, padded
  int64_t src_tokens = 0;  // sum of the real source lengths: the packed encoder sees only these
  int64_t tgt_steps = 0;   // decoder steps actually run: a row leaves the batch when it ends
};

// The shape make_batch(corpus, indices) will have, read from the lengths alone.
BatchShape batch_shape(const EncodedCorpus& corpus, const std::vector<std::size_t>& indices);

// Multiply-adds of one forward pass of the model described by `model` (vocabulary sizes
// included) over a batch of `shape`; see bench.cpp for the term of every layer.
int64_t forward_macs(const config::ModelConfig& model, int64_t tgt_vocab, const BatchShape& shape);

// Practical peak: the best of up to `repeats` products of two n x n float matrices on `device`
// (fewer when they are slow: at least 3, then stop after ~2 s), as 2 n^3 / seconds, in GFLOP/s.
double matmul_probe_gflops(torch::Device device, int64_t n = 1024, int64_t repeats = 20);

// Peak resident memory of the process (VmHWM of /proc/self/status) in MiB; 0 if unreadable.
double peak_rss_mib();
// Lowers the peak to the current resident size (writes 5 to /proc/self/clear_refs, Linux), so
// that the next peak_rss_mib() covers only what follows; silently does nothing elsewhere.
void reset_peak_rss();
// Seconds since this process started (from /proc), the time LibTorch takes to load included.
double process_uptime_s();

}  // namespace s2s::train
