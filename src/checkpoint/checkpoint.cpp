#include "checkpoint/checkpoint.h"

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/core/Generator.h>

#include <filesystem>
#include <mutex>
#include <nlohmann/json.hpp>
#include <sstream>

#include "util/error.h"
#include "util/fs.h"
#include "util/strings.h"

namespace s2s::checkpoint {
namespace {

constexpr int64_t kFormatVersion = 1;
// Fields of the signature that never change which weights a model has: how they were
// initialized, dropout, and how hard attention picks positions in training or decoding.
const char* const kEvaluationOnly[] = {"init",           "init_scale", "dropout",
                                       "output_dropout", "hard",       "hard_eval"};

void write_scalar(torch::serialize::OutputArchive& a, const std::string& key, double value) {
  a.write(key, torch::tensor(value, torch::kDouble));
}

double read_scalar(torch::serialize::InputArchive& a, const std::string& key) {
  torch::Tensor t;
  a.read(key, t);
  return t.item<double>();
}

constexpr uint64_t kFnvOffset = 14695981039346656037ULL;

uint64_t fnv1a(uint64_t hash, const void* data, std::size_t size) {
  const auto* bytes = static_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < size; ++i) hash = (hash ^ bytes[i]) * 1099511628211ULL;
  return hash;
}

void add_tensor(uint64_t& hash, const std::string& name, const torch::Tensor& t) {
  hash = fnv1a(hash, name.data(), name.size());
  const auto data = t.detach().to(torch::kCPU).contiguous();
  hash = fnv1a(hash, data.data_ptr(), data.nbytes());
}

// a and b, JSON objects: "key a vs b" for every differing key, nested keys as "attention.size".
void diff_objects(const nlohmann::json& a, const nlohmann::json& b, const std::string& prefix,
                  std::vector<std::string>& out) {
  for (const auto& [key, value] : a.items()) {
    if (std::find(std::begin(kEvaluationOnly), std::end(kEvaluationOnly), key) !=
        std::end(kEvaluationOnly)) {
      continue;
    }
    const auto name = prefix + key;
    if (!b.contains(key)) {
      out.push_back(name + " " + value.dump() + " vs (none)");
    } else if (value.is_object() && b[key].is_object()) {
      diff_objects(value, b[key], name + ".", out);
    } else if (value != b[key]) {
      out.push_back(name + " " + value.dump() + " vs " + b[key].dump());
    }
  }
  for (const auto& [key, value] : b.items()) {
    if (!a.contains(key)) out.push_back(prefix + key + " (none) vs " + value.dump());
  }
}

void check_fits(const std::string& path, const std::string& saved, const std::string& wanted,
                const Vocabularies* vocabularies) {
  const auto difference = signature_difference(saved, wanted);
  if (difference.empty()) return;
  std::string message =
      path + ": checkpoint does not fit the model (checkpoint vs config: " + difference + ")";
  if (difference.find("vocab_size") != std::string::npos && vocabularies != nullptr) {
    message += "; vocabularies: " + vocabularies->src_file + ", " + vocabularies->tgt_file;
  }
  throw InputError(message);
}

// Refuses a vocabulary whose checksum is not the one stored under `key` (when one is stored).
void check_vocab(torch::serialize::InputArchive& archive, const std::string& path,
                 const std::string& key, const data::Vocab& vocab, const std::string& file) {
  c10::IValue stored;
  if (!archive.try_read(key, stored) || !stored.isInt()) return;  // earlier versions: none
  if (stored.toInt() == vocab_checksum(vocab)) return;
  throw InputError(file + ": the vocabulary is not the one " + path +
                   " was trained with (the file was edited or replaced); restore the run's "
                   "original file");
}

void check_optimizer(torch::serialize::InputArchive& archive, const std::string& path,
                     torch::optim::Optimizer& optimizer) {
  c10::IValue stored;
  if (!archive.try_read("optimizer_checksum", stored) || !stored.isInt()) return;
  if (stored.toInt() == optimizer_checksum(optimizer)) return;
  throw InputError(path +
                   ": checkpoint is corrupted (its optimizer state does not match its checksum; "
                   "the weights are intact); copy another checkpoint of the run over it, or "
                   "train again with --overwrite");
}

}  // namespace

int64_t vocab_checksum(const data::Vocab& vocab) {
  uint64_t hash = kFnvOffset;
  for (const auto& token : vocab.tokens()) {
    hash = fnv1a(hash, token.data(), token.size());
    hash = fnv1a(hash, "\n", 1);  // "ab","c" and "a","bc" differ
  }
  return static_cast<int64_t>(hash);
}

int64_t optimizer_checksum(torch::optim::Optimizer& optimizer) {
  torch::NoGradGuard no_grad;
  uint64_t hash = kFnvOffset;
  const auto add = [&](const char* name, const torch::Tensor& t) {
    if (t.defined()) add_tensor(hash, name, t);
  };
  // The optimizer keys its state by the parameter's TensorImpl address, as LibTorch does.
  for (const auto& group : optimizer.param_groups()) {
    for (const auto& p : group.params()) {
      const auto found = optimizer.state().find(c10::guts::to_string(p.unsafeGetTensorImpl()));
      if (found == optimizer.state().end()) {
        hash = fnv1a(hash, "-", 1);
      } else if (const auto* adam =
                     dynamic_cast<const torch::optim::AdamParamState*>(found->second.get())) {
        const int64_t step = adam->step();
        hash = fnv1a(hash, &step, sizeof step);
        add("exp_avg", adam->exp_avg());
        add("exp_avg_sq", adam->exp_avg_sq());
        add("max_exp_avg_sq", adam->max_exp_avg_sq());
      } else if (const auto* sgd =
                     dynamic_cast<const torch::optim::SGDParamState*>(found->second.get())) {
        add("momentum_buffer", sgd->momentum_buffer());
      }
    }
  }
  return static_cast<int64_t>(hash);
}

std::string signature_difference(const std::string& saved, const std::string& wanted) {
  if (saved == wanted) return "";
  const auto a = nlohmann::json::parse(saved, nullptr, /*allow_exceptions=*/false);
  const auto b = nlohmann::json::parse(wanted, nullptr, /*allow_exceptions=*/false);
  if (!a.is_object() || !b.is_object()) return "unreadable model description";
  std::vector<std::string> out;
  diff_objects(a, b, "", out);
  return util::join(out, "; ");
}

int64_t model_checksum(torch::nn::Module& model) {
  torch::NoGradGuard no_grad;
  uint64_t hash = kFnvOffset;
  for (const auto& p : model.named_parameters()) add_tensor(hash, p.key(), p.value());
  for (const auto& b : model.named_buffers()) add_tensor(hash, b.key(), b.value());
  return static_cast<int64_t>(hash);
}

void save_checkpoint(const std::string& path, torch::nn::Module& model,
                     torch::optim::Optimizer* optimizer, const TrainingState& s,
                     const std::string& model_signature, const Vocabularies* vocabularies) {
  torch::serialize::OutputArchive archive;
  archive.write("format_version", c10::IValue(kFormatVersion));
  archive.write("model_signature", c10::IValue(model_signature));
  archive.write("model_checksum", c10::IValue(model_checksum(model)));
  torch::serialize::OutputArchive model_archive;
  model.save(model_archive);
  archive.write("model", model_archive);
  if (optimizer != nullptr) {
    torch::serialize::OutputArchive optimizer_archive;
    optimizer->save(optimizer_archive);
    archive.write("optimizer", optimizer_archive);
    archive.write("optimizer_checksum", c10::IValue(optimizer_checksum(*optimizer)));
  }
  if (vocabularies != nullptr) {
    archive.write("src_vocab_checksum", c10::IValue(vocab_checksum(vocabularies->src)));
    archive.write("tgt_vocab_checksum", c10::IValue(vocab_checksum(vocabularies->tgt)));
  }
  write_scalar(archive, "step", static_cast<double>(s.step));
  write_scalar(archive, "epoch", static_cast<double>(s.epoch));
  write_scalar(archive, "epoch_batch", static_cast<double>(s.epoch_batch));
  write_scalar(archive, "best_score", s.best_score);
  write_scalar(archive, "has_best", s.has_best ? 1.0 : 0.0);
  write_scalar(archive, "bad_validations", static_cast<double>(s.bad_validations));
  write_scalar(archive, "plateau_count", static_cast<double>(s.plateau_count));
  write_scalar(archive, "learning_rate", s.learning_rate);
  archive.write("reinforce", torch::tensor(s.reinforce, torch::kDouble));
  write_scalar(archive, "elapsed_s", s.elapsed_s);
  archive.write("rng_cpu", at::detail::getDefaultCPUGenerator().get_state());
  // In memory first: LibTorch's file writer aborts the process on a write error, ours reports it.
  std::ostringstream bytes;
  archive.save_to(bytes);
  util::write_file_atomic(path, bytes.str());
}

TrainingState load_checkpoint(const std::string& path, torch::nn::Module& model,
                              torch::optim::Optimizer* optimizer,
                              const std::string& model_signature,
                              const Vocabularies* vocabularies) {
  if (!std::filesystem::is_regular_file(path)) throw InputError(path + ": checkpoint not found");
  torch::serialize::InputArchive archive;
  try {
    archive.load_from(path);
  } catch (const c10::Error& e) {
    throw InputError(path + ": not a valid checkpoint (corrupted or truncated file)");
  }
  TrainingState s;
  try {
    c10::IValue signature, checksum;
    if (!archive.try_read("model_signature", signature) || !signature.isString()) {
      throw InputError(path + ": not an s2s checkpoint (no model description)");
    }
    check_fits(path, signature.toStringRef(), model_signature, vocabularies);
    if (vocabularies != nullptr) {
      check_vocab(archive, path, "src_vocab_checksum", vocabularies->src, vocabularies->src_file);
      check_vocab(archive, path, "tgt_vocab_checksum", vocabularies->tgt, vocabularies->tgt_file);
    }
    torch::serialize::InputArchive model_archive;
    archive.read("model", model_archive);
    model.load(model_archive);
    // Checkpoints of earlier versions carry no checksum; every one written now does.
    if (archive.try_read("model_checksum", checksum) && checksum.isInt() &&
        checksum.toInt() != model_checksum(model)) {
      throw InputError(path +
                       ": checkpoint is corrupted (its weights do not match their "
                       "checksum); use another checkpoint, e.g. last.pt or best.pt");
    }
    if (optimizer != nullptr) {
      torch::serialize::InputArchive optimizer_archive;
      archive.read("optimizer", optimizer_archive);
      optimizer->load(optimizer_archive);
      check_optimizer(archive, path, *optimizer);
      torch::Tensor rng;
      archive.read("rng_cpu", rng);
      auto generator = at::detail::getDefaultCPUGenerator();  // a handle to the global generator
      std::lock_guard<std::mutex> lock(generator.mutex());
      generator.set_state(rng);
    }
    s.step = static_cast<int64_t>(read_scalar(archive, "step"));
    s.epoch = static_cast<int64_t>(read_scalar(archive, "epoch"));
    s.epoch_batch = static_cast<int64_t>(read_scalar(archive, "epoch_batch"));
    s.best_score = read_scalar(archive, "best_score");
    s.has_best = read_scalar(archive, "has_best") != 0.0;
    s.bad_validations = static_cast<int64_t>(read_scalar(archive, "bad_validations"));
    s.plateau_count = static_cast<int64_t>(read_scalar(archive, "plateau_count"));
    s.learning_rate = read_scalar(archive, "learning_rate");
    // Checkpoints of earlier versions kept one moving average ("baseline"), which the running
    // baselines per index do not continue: REINFORCE starts them afresh.
    torch::Tensor reinforce;
    if (archive.try_read("reinforce", reinforce)) {
      const auto values = reinforce.to(torch::kDouble).contiguous();
      s.reinforce.assign(values.data_ptr<double>(), values.data_ptr<double>() + values.numel());
    }
    torch::Tensor elapsed;  // absent from checkpoints of earlier versions
    if (archive.try_read("elapsed_s", elapsed)) s.elapsed_s = elapsed.item<double>();
  } catch (const c10::Error& e) {
    throw InputError(path + ": checkpoint does not fit the model (" +
                     util::first_line(e.what_without_backtrace()) + ")");
  }
  return s;
}

}  // namespace s2s::checkpoint
