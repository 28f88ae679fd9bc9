#pragma once
// A fast 64-bit content hash of files, for detecting corruption of large binary files (the
// prepared corpora, data/prepared.h) where SHA-256 (util/sha256.h) would take seconds a
// gigabyte. Not for anything an adversary may choose.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

namespace s2s::util {

// Four 64-bit lanes over 32-byte stripes with xxHash64's round (Collet's constants), folded
// with the length and the tail. Not xxHash64 itself: only this program reads it, and it needs
// no library.
class ContentHash {
 public:
  void update(const unsigned char* data, std::size_t size);
  std::string hex();  // 16 lower-case hex digits

 private:
  void mix_stripe(const unsigned char* stripe);
  uint64_t lanes_[4] = {0x9E3779B185EBCA87ULL + 0xC2B2AE3D27D4EB4FULL, 0xC2B2AE3D27D4EB4FULL, 0,
                        0 - 0x9E3779B185EBCA87ULL};
  unsigned char stripe_[32] = {};
  std::size_t used_ = 0;
  uint64_t length_ = 0;
};

// The hash of a file read in chunks of 1 MiB with read(), not mapped (the pages read are not
// held by this process), each chunk also handed to `visit` when given. InputError naming the
// path if it cannot be read.
std::string content_hash_of_file(
    const std::string& path,
    const std::function<void(const unsigned char*, std::size_t)>& visit = {});

}  // namespace s2s::util
