#pragma once
// `s2s train --nproc N`: N local worker processes, started the way torchrun starts them: each
// gets RANK, LOCAL_RANK (0..N-1), WORLD_SIZE = LOCAL_WORLD_SIZE = N, MASTER_ADDR = 127.0.0.1 and
// a free MASTER_PORT, and runs `s2s` with the same arguments. Every line a worker prints is
// prefixed with its rank. When one worker fails, the others are stopped (SIGTERM, then SIGKILL
// after a grace period), and the launcher exits with the first failure's code. SIGINT from a
// terminal reaches every worker directly (so they save and stop together); SIGTERM sent to the
// launcher is passed on to them.

#include <cstdint>
#include <string>
#include <vector>

namespace s2s::cli {

// Runs the workers to the end; returns the exit code to leave with.
int launch_local_workers(int64_t nproc, const std::vector<std::string>& args);

// A TCP port on 127.0.0.1 free at the time of asking.
int free_port();

}  // namespace s2s::cli
