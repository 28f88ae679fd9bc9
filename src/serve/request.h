#pragma once
// The body of `POST /translate` (docs/serve.md), checked field by field before any decoding:
//
//   {"text": "ein Satz."}            one sentence, or
//   {"texts": ["…", "…"]}            several, translated together and answered in order;
//   "beam": K                        1..100 (default: the server's --beam)
//   "n_best": N                      1..K (default 1): the N best hypotheses of each sentence
//   "length_penalty": A              GNMT alpha >= 0 (default: the server's --length-penalty)
//   "attention": true                each translation's attention matrix and its tokens
//   "heatmap": true                  the matrix drawn as the report draws it (inline SVG)
//
// Anything else (malformed JSON, another type, an unknown field, a value out of range) is an
// ApiError with status 400 and a one-line reason naming the field.

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace s2s::serve {

// An HTTP error status with the one-line reason the client reads.
struct ApiError : std::runtime_error {
  ApiError(int status_code, const std::string& reason)
      : std::runtime_error(reason), status(status_code) {}
  int status;
};

// The most sentences one request may carry: a `texts` list is decoded as one job, and a
// longer one would hold the queue for every other client.
inline constexpr std::size_t kMaxTexts = 256;

struct TranslateRequest {
  std::vector<std::string> texts;
  bool single = false;  // given as "text": answered as one object, not a list
  std::optional<int64_t> beam;
  int64_t n_best = 1;
  std::optional<double> length_penalty;
  bool attention = false;
  bool heatmap = false;
};

// The request in `body`; `default_beam` is the beam used when the request names none (n_best
// must not exceed the beam actually used). ApiError 400 for anything malformed.
TranslateRequest parse_translate_request(const std::string& body, int64_t default_beam);

}  // namespace s2s::serve
