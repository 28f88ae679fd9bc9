#include "util/content_hash.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

#include "util/error.h"

namespace s2s::util {
namespace {

constexpr uint64_t kP1 = 0x9E3779B185EBCA87ULL, kP2 = 0xC2B2AE3D27D4EB4FULL,
                   kP3 = 0x165667B19E3779F9ULL, kP5 = 0x27D4EB2F165667C5ULL;

uint64_t rotl(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

}  // namespace

void ContentHash::update(const unsigned char* data, std::size_t size) {
  length_ += size;
  for (; used_ > 0 && size > 0; --size) {  // finish a partial stripe
    stripe_[used_++] = *data++;
    if (used_ == 32) {
      mix_stripe(stripe_);
      used_ = 0;
    }
  }
  for (; size >= 32; size -= 32, data += 32) mix_stripe(data);
  for (; size > 0; --size) stripe_[used_++] = *data++;
}

void ContentHash::mix_stripe(const unsigned char* stripe) {
  for (int lane = 0; lane < 4; ++lane) {
    uint64_t w = 0;
    for (int b = 7; b >= 0; --b) w = (w << 8) | stripe[lane * 8 + b];  // little-endian
    lanes_[lane] = rotl(lanes_[lane] + w * kP2, 31) * kP1;
  }
}

std::string ContentHash::hex() {
  uint64_t h = rotl(lanes_[0], 1) + rotl(lanes_[1], 7) + rotl(lanes_[2], 12) + rotl(lanes_[3], 18);
  h ^= length_ * kP3;
  for (std::size_t i = 0; i < used_; ++i) h = rotl(h ^ (stripe_[i] * kP5), 11) * kP1;
  h ^= h >> 33;
  h *= kP2;
  h ^= h >> 29;
  h *= kP3;
  h ^= h >> 32;
  char out[17];
  std::snprintf(out, sizeof out, "%016llx", static_cast<unsigned long long>(h));
  return out;
}

std::string content_hash_of_file(
    const std::string& path, const std::function<void(const unsigned char*, std::size_t)>& visit) {
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!f) throw InputError(path + ": cannot open (" + std::strerror(errno) + ")");
  std::vector<unsigned char> buffer(std::size_t{1} << 20);
  ContentHash hash;
  std::size_t n = 0;
  while ((n = std::fread(buffer.data(), 1, buffer.size(), f.get())) > 0) {
    hash.update(buffer.data(), n);
    if (visit) visit(buffer.data(), n);
  }
  if (std::ferror(f.get())) throw InputError(path + ": read error (" + std::strerror(errno) + ")");
  return hash.hex();
}

}  // namespace s2s::util
