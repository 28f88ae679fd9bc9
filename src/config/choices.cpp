#include "config/choices.h"

#include "config/config.h"
#include "config/json_io.h"
#include "util/error.h"
#include "util/strings.h"

namespace s2s::config {

template <>
const std::vector<Choice<CorpusFormat>>& choices() {
  static const std::vector<Choice<CorpusFormat>> table = {
      {"parallel", CorpusFormat::kParallel, "PREFIX.src_ext and PREFIX.tgt_ext, a line each"},
      {"tsv", CorpusFormat::kTsv, "one file, source TAB target"},
  };
  return table;
}

template <>
const std::vector<Choice<BatchUnit>>& choices() {
  static const std::vector<Choice<BatchUnit>> table = {
      {"sentences", BatchUnit::kSentences, ""},
      {"tokens", BatchUnit::kTokens, "padded tokens per batch"},
  };
  return table;
}

template <>
const std::vector<Choice<DecoderStyle>>& choices() {
  static const std::vector<Choice<DecoderStyle>> table = {
      {"bahdanau", DecoderStyle::kBahdanau, "query = previous state"},
      {"luong", DecoderStyle::kLuong, "query = current state, input feeding"},
  };
  return table;
}

template <>
const std::vector<Choice<Bridge>>& choices() {
  static const std::vector<Choice<Bridge>> table = {
      {"tanh", Bridge::kTanh, "projection of the encoder's final states"},
      {"zero", Bridge::kZero, "zeros"},
  };
  return table;
}

template <>
const std::vector<Choice<HardAttention>>& choices() {
  static const std::vector<Choice<HardAttention>> table = {
      {"none", HardAttention::kSoft, "soft attention"},
      {"sample", HardAttention::kSample, "s_t ~ a_t, trained with REINFORCE"},
      {"argmax", HardAttention::kArgmax, "s_t = argmax a_t"},
  };
  return table;
}

template <>
const std::vector<Choice<LocalAttention>>& choices() {
  static const std::vector<Choice<LocalAttention>> table = {
      {"none", LocalAttention::kGlobal, "global: every source position"},
      {"local_m", LocalAttention::kMonotonic, "window of 2D + 1 around p_t = t"},
      {"local_p", LocalAttention::kPredictive,
       "window around a predicted p_t, Gaussian with sigma = D / 2"},
  };
  return table;
}

template <>
const std::vector<Choice<GuidedAlignmentLoss>>& choices() {
  static const std::vector<Choice<GuidedAlignmentLoss>> table = {
      {"ce", GuidedAlignmentLoss::kCrossEntropy, "-sum_i G_ti log(a_ti + 1e-6)"},
      {"mse", GuidedAlignmentLoss::kSquaredError, "sum_i (a_ti - G_ti)^2 / 2"},
  };
  return table;
}

template <>
const std::vector<Choice<AlignmentHeads>>& choices() {
  static const std::vector<Choice<AlignmentHeads>> table = {
      {"mean", AlignmentHeads::kMean, "the heads' mean attention"},
      {"first", AlignmentHeads::kFirst, "head 0 only; the others stay free (Garg et al. 2019)"},
  };
  return table;
}

template <>
const std::vector<Choice<ReinforceBaseline>>& choices() {
  static const std::vector<Choice<ReinforceBaseline>> table = {
      {"none", ReinforceBaseline::kNone, ""},
      {"moving_average", ReinforceBaseline::kMovingAverage, "b <- decay b + (1 - decay) mean(R)"},
      {"learned", ReinforceBaseline::kLearned, "a linear layer on the decoder state"},
      {"leave_one_out", ReinforceBaseline::kLeaveOneOut, "mean reward of the other samples"},
  };
  return table;
}

template <>
const std::vector<Choice<ReinforceReward>>& choices() {
  static const std::vector<Choice<ReinforceReward>> table = {
      {"token", ReinforceReward::kToken, "log p(y_t|...)"},
      {"reward_to_go", ReinforceReward::kRewardToGo, "sum_{t'>=t} log p(y_t'|...)"},
      {"sentence", ReinforceReward::kSentence, "log p(y|s)"},
  };
  return table;
}

template <>
const std::vector<Choice<StoppingMetric>>& choices() {
  static const std::vector<Choice<StoppingMetric>> table = {
      {"bleu", StoppingMetric::kBleu, "validation BLEU, greedy"},
      {"loss", StoppingMetric::kLoss, "validation cross-entropy"},
      {"ppl", StoppingMetric::kPpl, "validation perplexity"},
  };
  return table;
}

template <>
const std::vector<Choice<BeamRule>>& choices() {
  static const std::vector<Choice<BeamRule>> table = {
      {"shrink", BeamRule::kShrink,
       "the k best extensions, </s> among them; ended hypotheses leave the beam, which shrinks; "
       "as in RNNsearch, Nematus, Marian"},
      {"full", BeamRule::kFull,
       "K prefixes stay alive; a prefix's </s> ends a hypothesis when among its own K best"},
  };
  return table;
}

template <>
const std::vector<Choice<PrecisionMode>>& choices() {
  static const std::vector<Choice<PrecisionMode>> table = {
      {"auto", PrecisionMode::kAuto, "bf16 where the device multiplies bf16 natively, else fp32"},
      {"fp32", PrecisionMode::kFp32, ""},
      {"bf16", PrecisionMode::kBf16, "bf16 mixed precision"},
      {"int8", PrecisionMode::kInt8,
       "evaluation.precision only: int8 weights in the decoder's large products, on a CPU with "
       "VNNI or AMX"},
  };
  return table;
}

template <>
const std::vector<Choice<DeviceKind>>& choices() {
  static const std::vector<Choice<DeviceKind>> table = {
      {"auto", DeviceKind::kAuto, "CUDA when LibTorch sees a GPU, else the CPU"},
      {"cpu", DeviceKind::kCpu, ""},
      {"cuda", DeviceKind::kCuda, "or \"cuda:N\""},
  };
  return table;
}

void throw_unknown_choice(const char* key, const std::string& name,
                          const std::vector<std::string>& valid) {
  std::string message =
      std::string(key) + ": unknown value '" + name + "' (valid: " + util::join(valid, ", ") + ")";
  const std::string hint = closest_key(name, valid);
  if (!hint.empty()) message += "; did you mean '" + hint + "'?";
  throw ConfigError(message);
}

CorpusFormat corpus_format(const DataConfig& d) {
  return parse_choice<CorpusFormat>(d.format, "data.format");
}

BatchUnit batch_unit(const TrainingConfig& t) {
  return parse_choice<BatchUnit>(t.batch_type, "training.batch_type");
}

DecoderStyle decoder_style(const DecoderConfig& d) {
  return parse_choice<DecoderStyle>(d.style, "model.decoder.style");
}

Bridge bridge(const DecoderConfig& d) {
  return parse_choice<Bridge>(d.bridge, "model.decoder.bridge");
}

HardAttention hard_attention(const AttentionConfig& a) {
  return parse_choice<HardAttention>(a.hard, "model.attention.hard");
}

HardAttention hard_attention_eval(const AttentionConfig& a) {
  return parse_choice<HardAttention>(a.hard_eval, "model.attention.hard_eval");
}

LocalAttention local_attention(const AttentionConfig& a) {
  return parse_choice<LocalAttention>(a.local, "model.attention.local");
}

ReinforceBaseline reinforce_baseline(const ReinforceConfig& r) {
  return parse_choice<ReinforceBaseline>(r.baseline, "training.reinforce.baseline");
}

ReinforceReward reinforce_reward(const ReinforceConfig& r) {
  return parse_choice<ReinforceReward>(r.reward, "training.reinforce.reward");
}

GuidedAlignmentLoss guided_alignment_loss(const GuidedAlignmentConfig& g) {
  return parse_choice<GuidedAlignmentLoss>(g.loss, "training.guided_alignment.loss");
}

AlignmentHeads alignment_heads(const GuidedAlignmentConfig& g) {
  return parse_choice<AlignmentHeads>(g.heads, "training.guided_alignment.heads");
}

StoppingMetric stopping_metric(const TrainingConfig& t) {
  return parse_choice<StoppingMetric>(t.early_stopping_metric, "training.early_stopping_metric");
}

PrecisionMode precision_mode(const std::string& name, const char* key) {
  return parse_choice<PrecisionMode>(name, key);
}

BeamRule beam_rule(const EvaluationConfig& e) {
  return parse_choice<BeamRule>(e.beam_rule, "evaluation.beam_rule");
}

DeviceKind device_kind(const std::string& device) {
  if (device.rfind("cuda:", 0) == 0) return DeviceKind::kCuda;
  return parse_choice<DeviceKind>(device, "device");
}

}  // namespace s2s::config
