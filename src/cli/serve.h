#pragma once
// `s2s serve`: a trained run (or an ensemble) behind an HTTP server (serve/server.h) with a
// JSON API and a page that shows the attention of what you type (docs/serve.md). Binds to
// 127.0.0.1 unless --host says otherwise; loads the model once; requests from several clients
// are decoded together in batches (serve/decode_queue.h). SIGINT or SIGTERM stops accepting,
// finishes the requests in flight and exits with 130 or 143, as the other verbs do.

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>

#include "cli/verbs.h"

namespace s2s::cli {

struct ServeArgs : RunArgs {
  std::string host = "127.0.0.1";
  int port = 8080;        // 0: any free port (the startup line names it)
  int64_t max_batch = 0;  // sentences decoded together; 0 = the run's evaluation.batch_size
  // How long a request waits for others to share its batch, and the decoding workers (LibTorch's
  // threads divided among them). Chosen by bench/serve_bench.py on a 2-core Zen 4: with 8
  // single-sentence clients, 2 workers and 1 ms reached 0.62 of translate's sentences/s against
  // 0.48 for 1 worker and 5 ms, and every other row of the benchmark rose too (docs/serve.md).
  int64_t wait_ms = 1;
  int64_t threads = 2;
  int64_t queue = 64;          // requests waiting at most; more are answered 503
  int64_t max_body_kb = 1024;  // request body limit; more is 413
};

void setup_serve(CLI::App& app);

void run_serve(const ServeArgs& args);

}  // namespace s2s::cli
