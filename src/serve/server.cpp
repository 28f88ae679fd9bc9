#include "serve/server.h"

#include <httplib.h>

#include <chrono>
#include <exception>
#include <utility>
#include <vector>

#include "serve/page.h"
#include "serve/request.h"
#include "util/error.h"
#include "util/logging.h"
#include "util/strings.h"

namespace s2s::serve {
namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

// What the log line of the request being served on this thread reports: httplib calls the
// pre-routing handler, the route and the logger on the connection's thread, one request at a
// time.
thread_local Clock::time_point request_start;
thread_local std::size_t request_sentences = 0;

void send_json(httplib::Response& res, int status, const json& body) {
  res.status = status;
  // Replacement characters, never an exception, for invalid UTF-8 a tokenizer let through.
  res.set_content(body.dump(-1, ' ', false, json::error_handler_t::replace) + "\n",
                  "application/json");
}

void send_error(httplib::Response& res, int status, const std::string& reason) {
  send_json(res, status, {{"error", reason}});
}

// "1 sentence", "3 sentences".
std::string count(std::size_t n, const std::string& noun) {
  return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
}

// The reason of a status httplib set itself (an unknown path, a body over the limit).
std::string default_reason(int status, const httplib::Request& req, std::size_t max_body) {
  switch (status) {
    case 404:
      return "not found: " + req.path + " (the API: POST /translate, GET /health, GET /info)";
    case 413:
      return "request body over " + std::to_string(max_body) + " bytes";
    case 400:
      return "malformed HTTP request";
    default:
      return "HTTP status " + std::to_string(status);
  }
}

}  // namespace

struct Server::Impl {
  Impl(ServedRun r, ServeOptions o)
      : run(std::move(r)),
        options(std::move(o)),
        queue(run.translator, run.base, options.queue, [](const BatchReport& b) {
          util::logger("serve")->info("batch: {} from {}, waited {:.1f} ms, decoded in {:.1f} ms",
                                      count(b.sentences, "sentence"), count(b.jobs, "request"),
                                      b.wait_ms, b.decode_ms);
        }) {}

  void configure();
  void routes();
  void translate(const httplib::Request& req, httplib::Response& res);
  Translations decode(const TranslateRequest& request,
                      std::vector<std::vector<std::string>> sources);
  std::vector<std::vector<std::string>> tokenize(const TranslateRequest& request,
                                                 std::vector<std::vector<std::string>>& warnings);

  ServedRun run;
  ServeOptions options;
  DecodeQueue queue;
  httplib::Server http;
  int port = 0;
};

Server::Server(ServedRun run, ServeOptions options)
    : impl_(std::make_unique<Impl>(std::move(run), std::move(options))) {
  impl_->configure();
  impl_->routes();
}

Server::~Server() = default;

void Server::bind() {
  auto& i = *impl_;
  i.port = i.options.port == 0
               ? i.http.bind_to_any_port(i.options.host)
               : (i.http.bind_to_port(i.options.host, i.options.port) ? i.options.port : -1);
  if (i.port <= 0) {
    throw UserError("--host " + i.options.host + " --port " + std::to_string(i.options.port) +
                    ": cannot listen there (in use, or not an address of this machine)");
  }
}

int Server::port() const { return impl_->port; }

void Server::run() {
  impl_->http.listen_after_bind();  // returns after stop(), once the connections are served
  impl_->queue.stop();
}

void Server::stop() { impl_->http.stop(); }

// Threads, limits, and what every request goes through: the timer, errors as JSON, the log line.
void Server::Impl::configure() {
  const auto threads = static_cast<std::size_t>(std::max<int64_t>(options.http_threads, 1));
  http.new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
  http.set_payload_max_length(options.max_body);
  // Headers and body go out in separate writes: with Nagle's algorithm the body would wait for
  // the client's delayed ACK of the headers (40 ms on Linux) on every keep-alive request.
  http.set_tcp_nodelay(true);
  http.set_keep_alive_max_count(1000);
  http.set_keep_alive_timeout(2);
  http.set_pre_routing_handler([](const httplib::Request&, httplib::Response&) {
    request_start = Clock::now();
    request_sentences = 0;
    return httplib::Server::HandlerResponse::Unhandled;
  });
  http.set_error_handler([this](const httplib::Request& req, httplib::Response& res) {
    if (res.body.empty())
      send_error(res, res.status, default_reason(res.status, req, options.max_body));
  });
  http.set_exception_handler(
      [](const httplib::Request&, httplib::Response& res, std::exception_ptr error) {
        std::string reason = "internal error";
        try {
          std::rethrow_exception(error);
        } catch (const std::exception& e) {
          reason = util::first_line(e.what());
        } catch (...) {
        }
        send_error(res, 500, reason);
      });
  http.set_logger([](const httplib::Request& req, const httplib::Response& res) {
    const double ms =
        std::chrono::duration<double, std::milli>(Clock::now() - request_start).count();
    util::logger("serve")->info("{} {} {} {} {:.1f} ms", req.method, req.path, res.status,
                                count(request_sentences, "sentence"), ms);
  });
}

void Server::Impl::routes() {
  http.Get("/", [](const httplib::Request&, httplib::Response& res) {
    res.set_content(page_html(), "text/html; charset=utf-8");
  });
  http.Get("/health", [this](const httplib::Request&, httplib::Response& res) {
    send_json(res, 200, {{"status", "ok"}, {"queued", queue.waiting()}});
  });
  http.Get("/info", [this](const httplib::Request&, httplib::Response& res) {
    send_json(res, 200, run.info);
  });
  http.Post("/translate",
            [this](const httplib::Request& req, httplib::Response& res) { translate(req, res); });
  for (const auto* path : {"/", "/health", "/info", "/translate"}) {
    const std::string allowed = std::string(path) == "/translate" ? "POST" : "GET";
    const auto refuse = [allowed](const httplib::Request& req, httplib::Response& res) {
      res.set_header("Allow", allowed);
      send_error(res, 405,
                 req.method + " " + req.path + ": method not allowed (use " + allowed + ")");
    };
    if (allowed == "POST")
      http.Get(path, refuse);
    else
      http.Post(path, refuse);
    http.Put(path, refuse);
    http.Delete(path, refuse);
  }
}

void Server::Impl::translate(const httplib::Request& req, httplib::Response& res) {
  try {
    const auto request = parse_translate_request(req.body, run.base.search.beam_size);
    request_sentences = request.texts.size();
    std::vector<std::vector<std::string>> warnings(request.texts.size());
    auto sources = tokenize(request, warnings);
    const auto translations = decode(request, std::move(sources));
    json out = json::array();
    for (std::size_t i = 0; i < translations.size(); ++i) {
      out.push_back(
          translation_json(translations[i], request.texts[i], warnings[i], request, run.view));
    }
    send_json(res, 200, request.single ? out.front() : json{{"translations", out}});
  } catch (const ApiError& e) {
    if (e.status == 503) res.set_header("Retry-After", "1");
    send_error(res, e.status, e.what());
  }
}

// Each text's tokens, cut to max_src_len with a warning; a text the tokenizer refuses (invalid
// UTF-8) is a 400 naming it.
std::vector<std::vector<std::string>> Server::Impl::tokenize(
    const TranslateRequest& request, std::vector<std::vector<std::string>>& warnings) {
  std::vector<std::vector<std::string>> sources;
  const auto limit = static_cast<std::size_t>(options.max_src_len);
  for (std::size_t i = 0; i < request.texts.size(); ++i) {
    const auto field = request.single ? std::string("text") : "texts[" + std::to_string(i) + "]";
    try {
      sources.push_back(run.src_tokenizer.tokenize(request.texts[i]));
    } catch (const InputError& e) {
      throw ApiError(400, field + ": " + e.what());
    }
    if (sources.back().size() > limit) {
      warnings[i].push_back(field + ": " + std::to_string(sources.back().size()) +
                            " tokens cut to the first " + std::to_string(limit) +
                            " (evaluation.max_src_len)");
      sources.back().resize(limit);
    }
  }
  return sources;
}

Translations Server::Impl::decode(const TranslateRequest& request,
                                  std::vector<std::vector<std::string>> sources) {
  auto search = run.base.search;
  search.beam_size = request.beam.value_or(search.beam_size);
  search.n_best = request.n_best;
  search.length_penalty = request.length_penalty.value_or(search.length_penalty);
  // Attention is kept only where it is shown or replaces <unk>: keeping it costs every step.
  search.keep_attention = request.attention || request.heatmap || run.base.replace_unk;
  std::future<Translations> result;
  try {
    result = queue.submit(std::move(sources), search);
  } catch (const QueueFull& e) {
    throw ApiError(503, e.what());
  }
  return result.get();  // a decoding failure reaches the exception handler: 500
}

}  // namespace s2s::serve
