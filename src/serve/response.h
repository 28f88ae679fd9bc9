#pragma once
// The answer to `POST /translate` (docs/serve.md): per sentence the translation, its score, the
// n-best list when more than one hypothesis was asked for, warnings (a sentence cut to
// evaluation.max_src_len), and on request the attention matrix with its tokens (and, where
// SentencePiece splits words, the same matrix over whole words) and the heatmap the report
// draws of it (eval/report_svg.h: one implementation for the page and the report).

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "eval/translate.h"
#include "serve/request.h"

namespace s2s::serve {

// How the run's tokens relate to words: with SentencePiece, pieces are merged into words for
// the "words" matrix and the heatmap (eval/pieces.h).
struct TokenView {
  bool pieces = false;     // the run's tokenizer is SentencePiece
  bool lowercase = false;  // the run lower-cases its text
};

// One sentence's object. `source_text` is what the client sent (for the word merge).
nlohmann::json translation_json(const eval::Translation& t, const std::string& source_text,
                                const std::vector<std::string>& warnings,
                                const TranslateRequest& request, const TokenView& view);

}  // namespace s2s::serve
