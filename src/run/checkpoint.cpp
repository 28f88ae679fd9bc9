#include "run/checkpoint.h"

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/core/Generator.h>
#include <unistd.h>

#include <filesystem>
#include <mutex>

#include "util/error.h"
#include "util/strings.h"

namespace s2s::run {
namespace {

constexpr int64_t kFormatVersion = 1;

void write_scalar(torch::serialize::OutputArchive& a, const std::string& key, double value) {
  a.write(key, torch::tensor(value, torch::kDouble));
}

double read_scalar(torch::serialize::InputArchive& a, const std::string& key) {
  torch::Tensor t;
  a.read(key, t);
  return t.item<double>();
}

}  // namespace

void save_checkpoint(const std::string& path, torch::nn::Module& model,
                     torch::optim::Optimizer* optimizer, const TrainingState& s,
                     const std::string& model_signature) {
  torch::serialize::OutputArchive archive;
  archive.write("format_version", c10::IValue(kFormatVersion));
  archive.write("model_signature", c10::IValue(model_signature));
  torch::serialize::OutputArchive model_archive;
  model.save(model_archive);
  archive.write("model", model_archive);
  if (optimizer != nullptr) {
    torch::serialize::OutputArchive optimizer_archive;
    optimizer->save(optimizer_archive);
    archive.write("optimizer", optimizer_archive);
  }
  write_scalar(archive, "step", static_cast<double>(s.step));
  write_scalar(archive, "epoch", static_cast<double>(s.epoch));
  write_scalar(archive, "epoch_batch", static_cast<double>(s.epoch_batch));
  write_scalar(archive, "best_score", s.best_score);
  write_scalar(archive, "has_best", s.has_best ? 1.0 : 0.0);
  write_scalar(archive, "bad_validations", static_cast<double>(s.bad_validations));
  write_scalar(archive, "plateau_count", static_cast<double>(s.plateau_count));
  write_scalar(archive, "learning_rate", s.learning_rate);
  write_scalar(archive, "baseline", s.baseline);
  archive.write("rng_cpu", at::detail::getDefaultCPUGenerator().get_state());

  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  archive.save_to(tmp);
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::filesystem::remove(tmp, ec);
    throw std::runtime_error(path + ": cannot write checkpoint");
  }
}

TrainingState load_checkpoint(const std::string& path, torch::nn::Module& model,
                              torch::optim::Optimizer* optimizer,
                              const std::string& model_signature) {
  if (!std::filesystem::is_regular_file(path)) throw InputError(path + ": checkpoint not found");
  torch::serialize::InputArchive archive;
  try {
    archive.load_from(path);
  } catch (const c10::Error& e) {
    throw InputError(path + ": not a valid checkpoint (corrupted or truncated file)");
  }
  TrainingState s;
  try {
    c10::IValue signature;
    if (!archive.try_read("model_signature", signature) || !signature.isString()) {
      throw InputError(path + ": not an s2s checkpoint (no model description)");
    }
    if (signature.toStringRef() != model_signature) {
      throw InputError(path + ": checkpoint does not fit the configured model (checkpoint: " +
                       signature.toStringRef() + "; config: " + model_signature + ")");
    }
    torch::serialize::InputArchive model_archive;
    archive.read("model", model_archive);
    model.load(model_archive);
    if (optimizer != nullptr) {
      torch::serialize::InputArchive optimizer_archive;
      archive.read("optimizer", optimizer_archive);
      optimizer->load(optimizer_archive);
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
    s.baseline = read_scalar(archive, "baseline");
  } catch (const c10::Error& e) {
    throw InputError(path + ": checkpoint does not fit the model (" +
                     util::first_line(e.what_without_backtrace()) + ")");
  }
  return s;
}

}  // namespace s2s::run
