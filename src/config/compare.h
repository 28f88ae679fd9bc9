#pragma once
// What changed between two configs, key by key, and which changes a resumed training can take:
// a resumed run keeps its model, data and vocabularies (the checkpoint and the data order depend
// on them), but its step limits, learning rate, patience, logging and evaluation may change.

#include <string>
#include <vector>

#include "config/config.h"

namespace s2s::config {

struct ConfigChange {
  std::string key;     // full path, "training.learning_rate"
  std::string before;  // the value in the first config, as JSON
  std::string after;   // the value in the second config, as JSON
  bool resumable;      // a resumed training can apply it
};

// Every key whose value differs between `saved` and `now`, in key order.
std::vector<ConfigChange> config_changes(const Config& saved, const Config& now);

// True for keys a resumed training can apply (see the comment at the top).
bool resumable_key(const std::string& key);

}  // namespace s2s::config
