#pragma once
// The config keys that pick one of a fixed set of values. Each such set is one table here: the
// names in the order help texts and errors list them, the enum the code works with, and what
// each value means. Validation, `s2s config --template` and the conversion to the enum all read
// the table, so a name is written once; code outside config/ compares enums, never strings.
//
// The keys that pick a part from a registry above the config (model.attention.scorer,
// model.init, training.optimizer, training.lr_schedule, data.tokenizer) are validated against
// the torch-free name lists in config/config.h, which one test holds equal to the registries.

#include <string>
#include <vector>

namespace s2s::config {

// data.format: PREFIX.src_ext / PREFIX.tgt_ext, or one TSV file.
enum class CorpusFormat { kParallel, kTsv };
// training.batch_type: what training.batch_size counts.
enum class BatchUnit {
  kSentences,  // sentences
  kTokens,     // padded tokens: n_sentences * max(max src len, max tgt len)
};
// model.decoder.style: where attention sits in the decoder step (model/decoder.h).
enum class DecoderStyle { kBahdanau, kLuong };
// model.decoder.bridge: the initial decoder state.
enum class Bridge { kTanh, kZero };
// model.attention.hard and hard_eval (Xu et al. 2015, sec. 4.1): the context is one value v_s
// instead of the average, s drawn from a (kSample) or its argmax (kArgmax); kSoft is ordinary
// attention ("none").
enum class HardAttention { kSoft, kSample, kArgmax };
// model.attention.local (Luong et al. 2015, sec. 3.2): where attention may look. kGlobal: every
// source position; kMonotonic (local-m): a window of 2D + 1 around p_t = t; kPredictive
// (local-p): around a predicted p_t, weighted by a Gaussian (model/attention.h).
enum class LocalAttention { kGlobal, kMonotonic, kPredictive };
// training.reinforce.baseline: what REINFORCE subtracts from the reward (train/reinforce.h).
enum class ReinforceBaseline { kNone, kMovingAverage, kLearned, kLeaveOneOut };
// training.reinforce.reward: what step t is credited with.
enum class ReinforceReward { kToken, kRewardToGo, kSentence };
// training.guided_alignment.loss: how attention is compared with the gold alignment matrix
// (train/attention_loss.h).
enum class GuidedAlignmentLoss { kCrossEntropy, kSquaredError };
// training.guided_alignment.heads: which attention a multi-head model supervises.
enum class AlignmentHeads { kMean, kFirst };
// training.early_stopping_metric: what "better" means for best.pt and early stopping.
enum class StoppingMetric { kBleu, kLoss, kPpl };
// evaluation.beam_rule: what ends a beam hypothesis and what stays alive (eval/beam_search.cpp).
enum class BeamRule {
  kShrink,  // the k best extensions, </s> among them; ended ones leave and the beam shrinks
  kFull,    // K alive prefixes to the end; a prefix's </s> ends it when among its own K best
};
// training.precision and evaluation.precision (int8: evaluation.precision only).
enum class PrecisionMode { kAuto, kFp32, kBf16, kInt8 };
// device: "auto", "cpu", or "cuda" / "cuda:N".
enum class DeviceKind { kAuto, kCpu, kCuda };

// One value of a choice.
template <class E>
struct Choice {
  const char* name;
  E value;
  const char* help;  // what the value means, for --template
};

// The table of each choice enum, defined in choices.cpp.
template <class E>
const std::vector<Choice<E>>& choices();

// The names, in table order.
template <class E>
std::vector<std::string> choice_names() {
  std::vector<std::string> names;
  for (const auto& c : choices<E>()) names.emplace_back(c.name);
  return names;
}

// "a (what a means), b (...)": the values of a key for its help text.
template <class E>
std::string choice_help() {
  std::string help;
  for (const auto& c : choices<E>()) {
    if (!help.empty()) help += ", ";
    help += "\"" + std::string(c.name) + "\"";
    if (*c.help != '\0') help += " (" + std::string(c.help) + ")";
  }
  return help;
}

[[noreturn]] void throw_unknown_choice(const char* key, const std::string& name,
                                       const std::vector<std::string>& valid);

// The value named `name`; ConfigError naming `key` and the valid names if there is none (the
// config's validation rejects such names first, so elsewhere this is a programming error).
template <class E>
E parse_choice(const std::string& name, const char* key) {
  for (const auto& c : choices<E>()) {
    if (name == c.name) return c.value;
  }
  throw_unknown_choice(key, name, choice_names<E>());
}

template <class E>
const char* choice_name(E value) {
  for (const auto& c : choices<E>()) {
    if (c.value == value) return c.name;
  }
  return "?";
}

// The choices of a config, read once where a module is built (each a table lookup).
struct DataConfig;
struct TrainingConfig;
struct DecoderConfig;
struct AttentionConfig;
struct ReinforceConfig;
struct GuidedAlignmentConfig;
struct EvaluationConfig;
CorpusFormat corpus_format(const DataConfig& data);
BatchUnit batch_unit(const TrainingConfig& training);
DecoderStyle decoder_style(const DecoderConfig& decoder);
Bridge bridge(const DecoderConfig& decoder);
HardAttention hard_attention(const AttentionConfig& attention);       // in training
HardAttention hard_attention_eval(const AttentionConfig& attention);  // at evaluation
LocalAttention local_attention(const AttentionConfig& attention);
ReinforceBaseline reinforce_baseline(const ReinforceConfig& reinforce);
ReinforceReward reinforce_reward(const ReinforceConfig& reinforce);
GuidedAlignmentLoss guided_alignment_loss(const GuidedAlignmentConfig& guided);
AlignmentHeads alignment_heads(const GuidedAlignmentConfig& guided);
StoppingMetric stopping_metric(const TrainingConfig& training);
PrecisionMode precision_mode(const std::string& name, const char* key);
BeamRule beam_rule(const EvaluationConfig& evaluation);
// "cuda:N" is kCuda; ConfigError naming `device` for anything else not in the table.
DeviceKind device_kind(const std::string& device);

}  // namespace s2s::config
