#pragma once
// The validation of a training: the valid split, cut once to evaluation.max_src_len, scored by
// teacher forcing (loss, perplexity) and decoded by greedy search (BLEU), with a few examples
// logged.

#include <torch/torch.h>

#include <string>
#include <vector>

#include "batching/batch.h"
#include "config/config.h"
#include "device/precision.h"
#include "model/seq2seq.h"
#include "train/training_data.h"

namespace s2s::train {

struct ValidationResult {
  double loss = 0.0, ppl = 0.0, bleu = 0.0;
  std::string bleu_signature;
};

class Validator {
 public:
  // Validation decodes sources cut to evaluation.max_src_len and scores the pairs within it
  // (eval/splits.h): one overlong line must not stall every validation. Warns of the pairs left
  // out of the loss. `data` outlives the validator.
  Validator(const config::Config& config, const TrainingData& data, torch::Device device,
            device::Precision precision);

  ValidationResult validate(model::Seq2Seq& model) const;

 private:
  config::EvaluationConfig evaluation_;
  int64_t num_samples_;  // training.num_samples: examples logged
  const TrainingData& data_;
  torch::Device device_;
  device::Precision precision_;
  std::vector<std::vector<std::string>> sources_;  // cut to evaluation.max_src_len
  batching::EncodedCorpus forced_;                 // the validation pairs teacher forcing scores
};

}  // namespace s2s::train
