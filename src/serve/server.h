#pragma once
// `s2s serve`'s HTTP side (docs/serve.md), on cpp-httplib (Debian's libcpp-httplib-dev):
//
//   GET  /           the page: a text box, the translation, the n-best list and the heatmap
//   GET  /health     {"status": "ok", "queued": N}
//   GET  /info       the run, checkpoint, model, vocabularies, precision and program version
//   POST /translate  serve/request.h in, serve/response.h out
//
// Every error is JSON {"error": "<one line>"} with its status: 400 for a malformed request
// (naming the field), 404 for another path, 405 for another method, 413 for a body over
// max_body bytes, 503 with Retry-After when the decoding queue is full (serve/decode_queue.h),
// 500 if decoding itself fails. Handler threads only parse, tokenize and wait; decoding happens
// on the queue's workers. One log line per request (method, path, status, sentences, ms) and one
// per decoded batch (how many requests it held).

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "data/tokenizer.h"
#include "eval/translate.h"
#include "serve/decode_queue.h"
#include "serve/response.h"

namespace s2s::serve {

struct ServeOptions {
  std::string host = "127.0.0.1";
  int port = 8080;                 // 0: any free port (Server::port() says which)
  QueueOptions queue;              // batching and workers
  std::size_t max_body = 1 << 20;  // bytes of a request body; more is 413
  int64_t max_src_len = 100;       // tokens kept of a source sentence (evaluation.max_src_len)
  int64_t http_threads = 32;       // connections served at once (keep-alive holds one)
};

// What the server needs of a run besides the translator: how its tokens read, its source
// tokenizer, and the /info document.
struct ServedRun {
  const eval::Translator& translator;
  const data::Tokenizer& src_tokenizer;
  // Precision, <unk> replacement, length limits, and in base.search the beam size and length
  // penalty of a request that names none.
  eval::TranslateOptions base;
  TokenView view;
  nlohmann::json info;
};

class Server {
 public:
  Server(ServedRun run, ServeOptions options);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Binds host:port; UserError naming the address when it cannot (in use, not local).
  void bind();
  int port() const;  // the bound port
  // Serves until stop() (from another thread); then finishes the requests in flight and the
  // queued decoding.
  void run();
  void stop();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace s2s::serve
