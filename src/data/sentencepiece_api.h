#pragma once
// The functions of the SentencePiece module (src/data/sentencepiece_module/), a shared
// library that data/sentencepiece.cpp loads at first use.
//
// Why a module: Debian's libsentencepiece carries its own copy of protobuf (3.14, built in),
// whose symbols clash with the protobuf 3.21 that LibTorch loads: linked into one program, the
// two crash before main(). Loaded with dlopen(RTLD_LOCAL | RTLD_DEEPBIND), SentencePiece binds
// to its own copy and LibTorch keeps the other. Both sides share one libstdc++, so strings and
// vectors cross the boundary as they are. Every function returns "" or an error message.

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace s2s::data {

struct SentencePieceApi {
  // Trains on `sentences` with SentencePieceTrainer's `args`; the model's bytes go to `model`.
  std::string (*train)(const std::vector<std::string>& sentences,
                       const std::unordered_map<std::string, std::string>& args, uint32_t seed,
                       std::string* model);
  // A processor for a model's bytes, or nullptr with `error` set.
  void* (*load)(const std::string& model, std::string* error);
  void (*release)(void* processor);
  std::string (*encode)(void* processor, const std::string& text, std::vector<std::string>* pieces);
  std::string (*decode)(void* processor, const std::vector<std::string>& pieces, std::string* text);
  // The pieces in id order, without control and unknown pieces.
  std::vector<std::string> (*pieces)(void* processor);
};

}  // namespace s2s::data

// The module's one exported symbol.
extern "C" const s2s::data::SentencePieceApi* s2s_sentencepiece_api();
