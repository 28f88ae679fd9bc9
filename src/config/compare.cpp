#include "config/compare.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "config/json_io.h"

namespace s2s::config {
namespace {

// Keys, or key prefixes ending in '.', that a resumed training applies.
const char* const kResumable[] = {
    "name",
    "run_dir",  // a run directory copied or moved elsewhere resumes where it is now
    "device",
    "data.test",
    "data.test_alignments",
    "data.max_line_bytes",  // a bound that refuses, never a change of the data read
    "data.prepared_dir",    // where the prepared corpus is; its content hash is checked
    "data.valid_alignments",
    "model.attention.hard_eval",
    "training.epochs",
    "training.max_steps",
    "training.learning_rate",
    "training.clip_grad_norm",
    "training.teacher_forcing",
    "training.label_smoothing",
    "training.lr_schedule",
    "training.warmup_steps",
    "training.lr_decay",
    "training.lr_patience",
    "training.min_lr",
    "training.validate_every",
    "training.log_every",
    "training.checkpoint_every",
    "training.checkpoint_every_minutes",
    "training.keep_step_checkpoints",
    "training.average_last",
    "training.patience",
    "training.num_samples",
    "training.threads",
    "training.precision",
    "training.dist_timeout_s",
    "training.reinforce.weight",
    "training.reinforce.entropy_weight",
    "evaluation.",
};

void flatten(const nlohmann::json& j, const std::string& prefix,
             std::vector<std::pair<std::string, nlohmann::json>>& out) {
  for (const auto& [key, value] : j.items()) {
    const auto path = prefix.empty() ? key : prefix + "." + key;
    if (value.is_object()) {
      flatten(value, path, out);
    } else {
      out.emplace_back(path, value);
    }
  }
}

}  // namespace

bool resumable_key(const std::string& key) {
  return std::any_of(std::begin(kResumable), std::end(kResumable), [&](const std::string& k) {
    return k.back() == '.' ? key.rfind(k, 0) == 0 : key == k;
  });
}

std::vector<ConfigChange> config_changes(const Config& saved, const Config& now) {
  std::vector<std::pair<std::string, nlohmann::json>> before, after;
  flatten(config_to_json(saved), "", before);
  flatten(config_to_json(now), "", after);
  std::vector<ConfigChange> out;
  for (std::size_t i = 0; i < before.size() && i < after.size(); ++i) {
    if (before[i].second == after[i].second) continue;
    out.push_back({before[i].first, before[i].second.dump(), after[i].second.dump(),
                   resumable_key(before[i].first)});
  }
  return out;
}

}  // namespace s2s::config
