#pragma once
// Advisory locks (flock) that end with the process holding them, even when it is killed, so a
// lock file left behind never blocks anyone.

#include <functional>
#include <string>

namespace s2s::util {

// An exclusive lock on `path` (created if missing), held for the life of the object. The file
// holds the holder's PID so that a second process can name it.
class FileLock {
 public:
  // Throws UserError "<what> is in use by process PID (...)" if another process holds it, and
  // std::runtime_error naming the path if the file cannot be created.
  FileLock(const std::string& path, const std::string& what);
  ~FileLock();
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;

 private:
  int fd_ = -1;
};

// Runs `fn` while holding an exclusive lock on directory `dir`, waiting for other holders: for
// short read-modify-write updates of a file in it.
void with_directory_lock(const std::string& dir, const std::function<void()>& fn);

}  // namespace s2s::util
