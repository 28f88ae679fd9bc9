#pragma once
// Checkpoint averaging: the element-wise mean of the weights of several checkpoints of one
// run, theta = (1/K) sum_k theta_k (Vaswani et al. 2017 average the last 5 or 20 checkpoints;
// fairseq's average_checkpoints.py and Marian do the same). Checkpoints of the same training
// a few hundred steps apart lie in one basin; their mean sits nearer its floor than any of them,
// so it usually scores higher for no extra training.

#include <cstdint>
#include <string>
#include <vector>

namespace s2s::checkpoint {

// The run's kept step checkpoints (checkpoints/step_N.pt, training.keep_step_checkpoints) as
// names "step_N", oldest first.
std::vector<std::string> step_checkpoints(const std::string& run_dir);

// A checkpoint name a command line may give: 1 to 100 letters, digits, '_' and '-' (best, last,
// step_N and the names of averages).
bool is_checkpoint_name(const std::string& name);

// The average training writes at its end (training.average_last).
inline constexpr const char* kTrainingAverage = "average_last";

// A name `s2s average` may write: letters, digits, '_' and '-', and none of the names training
// writes (best, last, pending, step_N, average_last). Returns why not, or "".
std::string average_name_problem(const std::string& name);

// checkpoints/<out>.pt of the run, after the checks of average_checkpoints on the name and an
// existing file (so that a caller can check them before anything else).
std::string average_output(const std::string& run_dir, const std::string& out, bool overwrite);

struct AverageResult {
  std::string path;  // the checkpoint written
  int64_t step = 0;  // the newest averaged checkpoint's step, which the average records
};

// Averages checkpoints/<name>.pt of `names` (at least 2, of the run in `run_dir`) into
// checkpoints/<out>.pt, recorded in the manifest. The output keeps the training state of the
// checkpoint with the highest step and no optimizer state (it is for decoding, not for
// --resume). Everything is checked before anything is written: InputError for a missing or
// broken checkpoint (naming it) and for an existing output unless `overwrite`; UserError for a
// name average_name_problem rejects and for a checkpoint named twice.
AverageResult average_checkpoints(const std::string& run_dir, const std::vector<std::string>& names,
                                  const std::string& out, bool overwrite);

// training.average_last = k: averages the newest min(k, available) step checkpoints into
// checkpoints/average_last.pt, replacing the one an earlier training of the run wrote. Returns
// the names averaged, oldest first; none, and nothing written, when the run has fewer than 2.
std::vector<std::string> average_last_steps(const std::string& run_dir, int64_t k);

}  // namespace s2s::checkpoint
