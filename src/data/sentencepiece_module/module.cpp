// The SentencePiece module: the only code that includes SentencePiece's headers (see
// data/sentencepiece_api.h for why it is a shared library of its own).

#include <sentencepiece_processor.h>
#include <sentencepiece_trainer.h>

#include "data/sentencepiece_api.h"

namespace {

using sentencepiece::SentencePieceProcessor;

// Feeds the trainer from memory, skipping empty sentences.
class Sentences : public sentencepiece::SentenceIterator {
 public:
  explicit Sentences(const std::vector<std::string>& sentences) : sentences_(sentences) {
    skip_empty();
  }
  bool done() const override { return i_ >= sentences_.size(); }
  void Next() override {
    ++i_;
    skip_empty();
  }
  const std::string& value() const override { return sentences_[i_]; }
  sentencepiece::util::Status status() const override { return {}; }

 private:
  void skip_empty() {
    while (i_ < sentences_.size() && sentences_[i_].empty()) ++i_;
  }
  const std::vector<std::string>& sentences_;
  std::size_t i_ = 0;
};

std::string message(const sentencepiece::util::Status& status) {
  return status.ok() ? "" : std::string(status.message());
}

std::string train(const std::vector<std::string>& sentences,
                  const std::unordered_map<std::string, std::string>& args, uint32_t seed,
                  std::string* model) {
  sentencepiece::SetRandomGeneratorSeed(seed);
  Sentences iterator(sentences);
  return message(sentencepiece::SentencePieceTrainer::Train(args, &iterator, model));
}

void* load(const std::string& model, std::string* error) {
  auto processor = std::make_unique<SentencePieceProcessor>();
  const auto status = processor->LoadFromSerializedProto(model);
  if (!status.ok()) {
    *error = message(status);
    return nullptr;
  }
  return processor.release();
}

void release(void* processor) { delete static_cast<SentencePieceProcessor*>(processor); }

std::string encode(void* processor, const std::string& text, std::vector<std::string>* pieces) {
  return message(static_cast<SentencePieceProcessor*>(processor)->Encode(text, pieces));
}

std::string decode(void* processor, const std::vector<std::string>& pieces, std::string* text) {
  return message(static_cast<SentencePieceProcessor*>(processor)->Decode(pieces, text));
}

std::vector<std::string> pieces(void* p) {
  const auto* processor = static_cast<SentencePieceProcessor*>(p);
  std::vector<std::string> out;
  for (int id = 0; id < processor->GetPieceSize(); ++id) {
    if (processor->IsControl(id) || processor->IsUnknown(id)) continue;
    out.push_back(processor->IdToPiece(id));
  }
  return out;
}

const s2s::data::SentencePieceApi kApi = {train, load, release, encode, decode, pieces};

}  // namespace

extern "C" __attribute__((visibility("default"))) const s2s::data::SentencePieceApi*
s2s_sentencepiece_api() {
  return &kApi;
}
