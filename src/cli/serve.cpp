#include "cli/serve.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <memory>
#include <thread>

#include "config/json_io.h"
#include "model/build_model.h"
#include "run/manifest.h"
#include "serve/server.h"
#include "util/error.h"
#include "util/logging.h"
#include "util/signals.h"
#include "util/strings.h"

namespace s2s::cli {
namespace {

// GET /info: what a client needs to know about the model it talks to.
nlohmann::json run_info(const checkpoint::LoadedRun& run, const ServeArgs& args,
                        const eval::TranslateOptions& options, int64_t max_batch) {
  const auto model = config::config_to_json(run.config).at("model");
  nlohmann::json program = nullptr;
  try {
    program = run::read_manifest(args.home())
                  .value("provenance", nlohmann::json::object())
                  .value("program", nlohmann::json(nullptr));
  } catch (const std::exception& e) {  // the model still serves; /info says null
    util::logger("serve")->warn("{}: no program version in /info", util::first_line(e.what()));
  }
  const auto& data = run.config.data;
  const auto vocab = [&](const data::Vocab& v) {
    return nlohmann::json{{"size", v.size()}, {"tokenizer", data.tokenizer}};
  };
  return {
      {"run", std::filesystem::path(args.home()).filename().string()},
      {"run_dir", args.home()},
      {"checkpoint", args.model_label()},
      {"members", run.member_names},
      {"model",
       {{"scorer", model.at("attention").at("scorer")},
        {"normalizer", model.at("attention").at("normalizer")},
        {"heads", model.at("attention").at("heads")},
        {"parameters", model::count_parameters(*run.model)},
        {"config", model}}},
      {"vocabularies",
       {{"source", vocab(run.src_vocab)},
        {"target", vocab(run.tgt_vocab)},
        {"lowercase", data.lowercase}}},
      {"precision", device::to_string(options.precision)},
      {"decoding",
       {{"beam", options.search.beam_size},
        {"length_penalty", options.search.length_penalty},
        {"max_src_len", run.config.evaluation.max_src_len},
        {"max_batch", max_batch},
        {"wait_ms", args.wait_ms},
        {"threads", args.threads},
        {"threads_per_worker", torch::get_num_threads()}}},
      {"program", program},
  };
}

// Stops `server` once SIGINT or SIGTERM arrives (util::InterruptGuard records it).
class SignalWatch {
 public:
  explicit SignalWatch(serve::Server& server)
      : thread_([this, &server] {
          // Stopped again until run() returns: a stop before listening began would be lost.
          while (!done_) {
            if (util::InterruptGuard::pending() != 0) server.stop();
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
          }
        }) {}
  ~SignalWatch() {
    done_ = true;
    thread_.join();
  }
  SignalWatch(const SignalWatch&) = delete;
  SignalWatch& operator=(const SignalWatch&) = delete;

 private:
  std::atomic<bool> done_{false};
  std::thread thread_;
};

}  // namespace

void setup_serve(CLI::App& app) {
  auto args = std::make_shared<ServeArgs>();
  CLI::App* sub = app.add_subcommand(
      "serve", "Serve a trained run over HTTP: a JSON API and a page with live attention");
  add_run_options(sub, *args);
  sub->add_option("--host", args->host, "Address to listen on (0.0.0.0: every interface)")
      ->capture_default_str();
  sub->add_option("--port", args->port, "Port to listen on (0: any free port)")
      ->check(integer_in(0, 65535))
      ->capture_default_str();
  sub->add_option("--max-batch", args->max_batch,
                  "Sentences decoded together at most (default: the run's evaluation.batch_size)")
      ->check(integer_in(1, 4096));
  sub->add_option("--wait-ms", args->wait_ms,
                  "How long a request waits for others to share its batch")
      ->check(integer_in(0, 60000))
      ->capture_default_str();
  sub->add_option("--threads", args->threads, "Decoding worker threads")
      ->check(integer_in(1, 64))
      ->capture_default_str();
  sub->add_option("--queue", args->queue, "Requests waiting at most; more are answered 503")
      ->check(integer_in(1, 100000))
      ->capture_default_str();
  sub->add_option("--max-body-kb", args->max_body_kb, "Request body limit in KiB; more is 413")
      ->check(integer_in(1, 1 << 20))
      ->capture_default_str();
  sub->callback([args] { run_serve(*args); });
}

void run_serve(const ServeArgs& args) {
  const auto run = load_decoding_run(args);
  auto options = decode_options(run, args);
  const int64_t max_batch = args.max_batch > 0 ? args.max_batch : run.config.evaluation.batch_size;
  options.batch_size = max_batch;
  check_decoding_memory(run, options, {}, "serve");
  // Workers share the cores: each decodes with its part of LibTorch's threads, or OpenMP's
  // busy-waiting teams would fight over them.
  const auto per_worker = std::max<int64_t>(1, torch::get_num_threads() / args.threads);
  if (args.threads > 1) torch::set_num_threads(static_cast<int>(per_worker));
  const eval::Translator translator(run);
  serve::ServeOptions o;
  o.host = args.host;
  o.port = args.port;
  o.queue = {max_batch, args.wait_ms, args.threads, static_cast<std::size_t>(args.queue)};
  o.max_body = static_cast<std::size_t>(args.max_body_kb) * 1024;
  o.max_src_len = run.config.evaluation.max_src_len;
  const serve::TokenView view{run.config.data.tokenizer == "sentencepiece",
                              run.config.data.lowercase};
  serve::Server server(
      {translator, *run.src_tokenizer, options, view, run_info(run, args, options, max_batch)}, o);
  server.bind();
  std::signal(SIGPIPE, SIG_IGN);  // a client gone mid-answer is a failed write, not our end
  const util::InterruptGuard interrupts;
  util::logger("serve")->info(
      "serving {} ({}) on http://{}:{}/ (POST /translate, GET /health, "
      "GET /info; the page at /); Ctrl-C stops",
      args.home(), args.model_label(), args.host, server.port());
  {
    const SignalWatch watch(server);
    server.run();
  }
  if (const int signal = util::InterruptGuard::pending(); signal != 0) {
    throw util::Interrupted(signal, util::signal_name(signal) +
                                        ": the server finished the "
                                        "requests in flight");
  }
}

}  // namespace s2s::cli
