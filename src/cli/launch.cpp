#include "cli/launch.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <stdexcept>

namespace s2s::cli {
namespace {

volatile sig_atomic_t g_terminate = 0;
void on_term(int) { g_terminate = 1; }

struct Worker {
  pid_t pid = -1;
  int rank = 0;
  int out = -1, err = -1;  // read ends of its stdout and stderr
  std::string out_buffer, err_buffer;
  bool running = true;
  int code = 0;
};

// Writes the complete lines of `buffer` to `stream`, each prefixed with the rank.
void flush_lines(std::string& buffer, std::FILE* stream, int rank, bool all) {
  std::size_t start = 0, newline;
  while ((newline = buffer.find('\n', start)) != std::string::npos) {
    std::fprintf(stream, "[rank %d] %.*s\n", rank, static_cast<int>(newline - start),
                 buffer.data() + start);
    start = newline + 1;
  }
  if (all && start < buffer.size()) {
    std::fprintf(stream, "[rank %d] %s\n", rank, buffer.c_str() + start);
    start = buffer.size();
  }
  buffer.erase(0, start);
  std::fflush(stream);
}

// Reads what a pipe has; false at its end.
bool drain(int& fd, std::string& buffer) {
  char chunk[4096];
  const ssize_t n = ::read(fd, chunk, sizeof chunk);
  if (n > 0) {
    buffer.append(chunk, static_cast<std::size_t>(n));
    return true;
  }
  if (n < 0 && errno == EINTR) return true;
  ::close(fd);
  fd = -1;
  return false;
}

pid_t start(const std::vector<std::string>& args, int rank, int nproc, int port, Worker& w) {
  int out[2], err[2];
  if (::pipe(out) != 0 || ::pipe(err) != 0) throw std::runtime_error("--nproc: cannot make pipes");
  const pid_t pid = ::fork();
  if (pid < 0)
    throw std::runtime_error(std::string("--nproc: cannot fork (") + std::strerror(errno) + ")");
  if (pid == 0) {
    ::signal(SIGINT, SIG_DFL);  // the launcher ignores Ctrl-C; its workers must not
    ::signal(SIGTERM, SIG_DFL);
    ::dup2(out[1], STDOUT_FILENO);
    ::dup2(err[1], STDERR_FILENO);
    ::close(out[0]);
    ::close(out[1]);
    ::close(err[0]);
    ::close(err[1]);
    const auto n = std::to_string(nproc), r = std::to_string(rank);
    ::setenv("RANK", r.c_str(), 1);
    ::setenv("LOCAL_RANK", r.c_str(), 1);
    ::setenv("WORLD_SIZE", n.c_str(), 1);
    ::setenv("LOCAL_WORLD_SIZE", n.c_str(), 1);
    ::setenv("MASTER_ADDR", "127.0.0.1", 1);
    ::setenv("MASTER_PORT", std::to_string(port).c_str(), 1);
    std::vector<char*> argv;
    std::string self = "s2s";
    argv.push_back(self.data());
    std::vector<std::string> copy = args;
    for (auto& a : copy) argv.push_back(a.data());
    argv.push_back(nullptr);
    ::execv("/proc/self/exe", argv.data());
    std::fprintf(stderr, "error: --nproc: cannot start a worker (%s)\n", std::strerror(errno));
    ::_exit(127);
  }
  ::close(out[1]);
  ::close(err[1]);
  w.pid = pid;
  w.rank = rank;
  w.out = out[0];
  w.err = err[0];
  return pid;
}

int exit_code(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return 1;
}

// Forwards what the workers printed (after up to 200 ms of waiting), each line prefixed with
// its rank. Returns false when no worker had a stream open.
bool forward_output(std::vector<Worker>& workers) {
  std::vector<pollfd> fds;
  std::vector<std::pair<Worker*, bool>> owners;  // worker, is stdout
  for (auto& w : workers) {
    if (w.out >= 0) fds.push_back({w.out, POLLIN, 0}), owners.emplace_back(&w, true);
    if (w.err >= 0) fds.push_back({w.err, POLLIN, 0}), owners.emplace_back(&w, false);
  }
  if (fds.empty()) return false;
  ::poll(fds.data(), fds.size(), 200);
  for (std::size_t i = 0; i < fds.size(); ++i) {
    if (fds[i].revents == 0) continue;
    auto& [w, is_out] = owners[i];
    auto& fd = is_out ? w->out : w->err;
    auto& buffer = is_out ? w->out_buffer : w->err_buffer;
    const bool open = drain(fd, buffer);
    flush_lines(buffer, is_out ? stdout : stderr, w->rank, !open);
  }
  return true;
}

bool any_stream_open(const std::vector<Worker>& workers) {
  for (const auto& w : workers) {
    if (w.out >= 0 || w.err >= 0) return true;
  }
  return false;
}

// Stopping the workers: SIGTERM to each one running, SIGKILL to those still running 30 s later.
struct Stopper {
  std::vector<Worker>& workers;
  bool stopping = false;
  std::chrono::steady_clock::time_point since{};

  void signal_running(int signal) {
    for (auto& w : workers) {
      if (w.running) ::kill(w.pid, signal);
    }
  }
  void stop() {
    stopping = true;
    since = std::chrono::steady_clock::now();
    signal_running(SIGTERM);
  }
  void kill_late() {
    if (stopping && std::chrono::steady_clock::now() - since > std::chrono::seconds(30)) {
      signal_running(SIGKILL);
    }
  }
};

// Reaps the workers that exited; the first to fail stops the others. Returns whether any is
// still running.
bool reap(std::vector<Worker>& workers, int& first_failure, Stopper& stopper) {
  bool any_running = false;
  for (auto& w : workers) {
    if (!w.running) continue;
    int status = 0;
    if (::waitpid(w.pid, &status, WNOHANG) != w.pid) {
      any_running = true;
      continue;
    }
    w.running = false;
    w.code = exit_code(status);
    if (w.code != 0 && first_failure == 0) {
      first_failure = w.code;
      std::fprintf(stderr, "[launch] rank %d exited with code %d: stopping the others\n", w.rank,
                   w.code);
      stopper.stop();
    }
  }
  return any_running;
}

}  // namespace

int free_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = 0;
  socklen_t size = sizeof address;
  if (fd < 0 || ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &size) != 0) {
    if (fd >= 0) ::close(fd);
    throw std::runtime_error("--nproc: cannot find a free port on 127.0.0.1");
  }
  const int port = ntohs(address.sin_port);
  ::close(fd);
  return port;
}

int launch_local_workers(int64_t nproc, const std::vector<std::string>& args) {
  const int port = free_port();
  std::vector<Worker> workers(static_cast<std::size_t>(nproc));
  struct sigaction term {
  }, old_term{}, ignore{}, old_int{};
  term.sa_handler = on_term;
  sigemptyset(&term.sa_mask);
  ::sigaction(SIGTERM, &term, &old_term);
  ignore.sa_handler = SIG_IGN;  // Ctrl-C reaches the workers themselves; wait for them
  ::sigaction(SIGINT, &ignore, &old_int);
  for (int r = 0; r < nproc; ++r)
    start(args, r, static_cast<int>(nproc), port, workers[static_cast<std::size_t>(r)]);
  std::fprintf(stderr, "[launch] %lld workers on 127.0.0.1:%d\n", static_cast<long long>(nproc),
               port);
  int first_failure = 0;
  Stopper stopper{workers};
  while (true) {
    const bool streams = forward_output(workers);
    const bool running = reap(workers, first_failure, stopper);
    if (g_terminate && !stopper.stopping) stopper.stop();
    stopper.kill_late();
    if (!running && (!streams || !any_stream_open(workers))) break;
  }
  ::sigaction(SIGTERM, &old_term, nullptr);
  ::sigaction(SIGINT, &old_int, nullptr);
  if (first_failure != 0) return first_failure;
  for (const auto& w : workers) {
    if (w.code != 0) return w.code;
  }
  return 0;
}

}  // namespace s2s::cli
