#include "util/lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "util/error.h"

namespace s2s::util {
namespace {

std::string read_all(int fd) {
  std::string text;
  char buffer[64];
  ::lseek(fd, 0, SEEK_SET);
  ssize_t n;
  while ((n = ::read(fd, buffer, sizeof buffer)) > 0) text.append(buffer, static_cast<size_t>(n));
  return text;
}

}  // namespace

FileLock::FileLock(const std::string& path, const std::string& what) {
  fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0) throw std::runtime_error(path + ": cannot create (" + std::strerror(errno) + ")");
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    std::string holder = read_all(fd_);
    holder.erase(holder.find_last_not_of(" \n") + 1);
    ::close(fd_);
    fd_ = -1;
    throw UserError(what + " is in use by process " + (holder.empty() ? "?" : holder) + " (lock " +
                    path + ")");
  }
  const std::string pid = std::to_string(::getpid()) + "\n";
  if (::ftruncate(fd_, 0) != 0 || ::pwrite(fd_, pid.data(), pid.size(), 0) < 0) {
    // The lock holds without the PID; only the message of a second process is poorer.
  }
}

FileLock::~FileLock() {
  if (fd_ >= 0) ::close(fd_);  // closing releases the lock
}

void with_directory_lock(const std::string& dir, const std::function<void()>& fn) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) throw std::runtime_error(dir + ": cannot open (" + std::strerror(errno) + ")");
  while (::flock(fd, LOCK_EX) != 0 && errno == EINTR) {
  }
  try {
    fn();
  } catch (...) {
    ::close(fd);
    throw;
  }
  ::close(fd);
}

}  // namespace s2s::util
