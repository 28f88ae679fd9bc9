#include "data/sentencepiece.h"

#include <dlfcn.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unordered_map>

#include "data/sentencepiece_api.h"
#include "util/error.h"
#include "util/unicode.h"

namespace s2s::data {
namespace {

// Where the module is: $S2S_SENTENCEPIECE_MODULE, else where the build put it, else beside
// the running program.
std::vector<std::string> module_candidates() {
  std::vector<std::string> candidates;
  if (const char* env = std::getenv("S2S_SENTENCEPIECE_MODULE")) return {env};
#ifdef S2S_SENTENCEPIECE_MODULE
  candidates.emplace_back(S2S_SENTENCEPIECE_MODULE);
#endif
  std::error_code ec;
  const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) candidates.push_back((exe.parent_path() / "libs2s_sentencepiece.so").string());
  return candidates;
}

// Loads the module once (data/sentencepiece_api.h says why it is one). RTLD_DEEPBIND only
// where another protobuf is in the process (LibTorch's): sanitizers refuse it, and programs
// without LibTorch do not need it.
const SentencePieceApi& api() {
  static const SentencePieceApi* loaded = [] {
    const bool other_protobuf =
        dlsym(RTLD_DEFAULT, "_ZN6google8protobuf8internal13VerifyVersionEiiPKc") != nullptr;
    const int flags = RTLD_NOW | RTLD_LOCAL | (other_protobuf ? RTLD_DEEPBIND : 0);
    std::string errors;
    for (const auto& path : module_candidates()) {
      if (void* handle = dlopen(path.c_str(), flags)) {
        auto* get =
            reinterpret_cast<const SentencePieceApi* (*)()>(dlsym(handle, "s2s_sentencepiece_api"));
        if (get != nullptr) return get();
        errors += path + ": no s2s_sentencepiece_api; ";
      } else {
        errors += std::string(dlerror()) + "; ";
      }
    }
    throw UserError("sentencepiece: cannot load the SentencePiece module (" + errors +
                    "set S2S_SENTENCEPIECE_MODULE to libs2s_sentencepiece.so)");
  }();
  return *loaded;
}

void check(const std::string& error, const std::string& what) {
  if (!error.empty()) throw InputError("sentencepiece: " + what + ": " + error);
}

}  // namespace

std::string train_sentencepiece(const std::vector<std::string>& sentences,
                                const SentencePieceOptions& options) {
  std::unordered_map<std::string, std::string> args = {
      {"model_type", options.model_type},
      {"vocab_size", std::to_string(options.vocab_size)},
      {"character_coverage", std::to_string(options.character_coverage)},
      {"num_threads", "1"},  // one thread: the same corpus gives the same model, byte for byte
      {"minloglevel", "2"},  // errors come back as the message below
      // Long sentences are kept whole (the default drops those over 4192 bytes silently).
      {"max_sentence_length", "1000000"},
      // Text as it is, spaces included: detokenize(tokenize(x)) == x for every line, so
      // hypotheses compare with raw references exactly (NFKC and collapsed spaces would not).
      {"normalization_rule_name", "identity"},
      {"remove_extra_whitespaces", "false"},
  };
  if (options.input_sentence_size > 0) {
    args["input_sentence_size"] = std::to_string(options.input_sentence_size);
    args["shuffle_input_sentence"] = "true";
  }
  std::string model;
  const auto error = api().train(sentences, args, options.seed, &model);
  if (!error.empty()) {
    throw ConfigError(
        "data.sentencepiece: SentencePiece cannot train a model with these "
        "settings on the training split: " +
        error);
  }
  return model;
}

std::string read_sentencepiece_model(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path + ": cannot open the SentencePiece model");
  std::ostringstream bytes;
  bytes << in.rdbuf();
  if (in.bad()) throw InputError(path + ": cannot read the SentencePiece model");
  return bytes.str();
}

SentencePieceTokenizer::SentencePieceTokenizer(std::string model, const std::string& origin,
                                               TokenizerOptions options)
    : model_(std::move(model)), lowercase_(options.lowercase) {
  std::string error = "empty";
  if (!model_.empty()) processor_ = api().load(model_, &error);
  if (processor_ == nullptr) {
    throw InputError(origin + ": not a SentencePiece model (" + error + ")");
  }
}

SentencePieceTokenizer::~SentencePieceTokenizer() {
  if (processor_ != nullptr) api().release(processor_);
}

std::vector<std::string> SentencePieceTokenizer::tokenize(std::string_view line) const {
  check_utf8(line);
  const std::string text = lowercase_ ? util::to_lower(line) : std::string(line);
  std::vector<std::string> pieces;
  check(api().encode(processor_, text, &pieces), "encoding");
  return pieces;
}

std::string SentencePieceTokenizer::detokenize(const std::vector<std::string>& tokens) const {
  std::string text;
  check(api().decode(processor_, tokens, &text), "decoding");
  return text;
}

std::string SentencePieceTokenizer::name() const { return "sentencepiece"; }

std::vector<std::string> SentencePieceTokenizer::pieces() const { return api().pieces(processor_); }

}  // namespace s2s::data
