// Small utilities: SHA-256 against the FIPS 180-4 vectors, number and byte formats for logs,
// nested interrupt guards.

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <csignal>
#include <limits>
#include <string>

#include "support/temp_dir.h"
#include "util/progress.h"
#include "util/sha256.h"
#include "util/signals.h"
#include "util/system.h"

namespace s2s::util {
namespace {

// A signal recorded under an outer guard (the train verb's, between two members of an ensemble)
// survives an inner guard (the next training's); only the outermost guard restores the handler
// it found, and a later guard starts clean.
TEST(InterruptGuardTest, NestedGuardsKeepTheSignalAndRestoreTheHandlerOnce) {
  struct sigaction before {};
  sigaction(SIGTERM, nullptr, &before);
  {
    const InterruptGuard outer;
    std::raise(SIGTERM);
    EXPECT_EQ(InterruptGuard::pending(), SIGTERM);
    {
      const InterruptGuard inner;
      EXPECT_EQ(InterruptGuard::pending(), SIGTERM);
    }
    EXPECT_THROW(stop_if_interrupted("between members"), Interrupted);
  }
  struct sigaction after {};
  sigaction(SIGTERM, nullptr, &after);
  EXPECT_EQ(after.sa_handler, before.sa_handler);
  const InterruptGuard fresh;
  EXPECT_EQ(InterruptGuard::pending(), 0);
  EXPECT_NO_THROW(stop_if_interrupted("nothing pending"));
}

TEST(Sha256Test, MatchesTheStandardVectors) {
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(sha256_hex(std::string(1000000, 'a')),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Sha256Test, FileDigestHashesTheBytesAndCountsThem) {
  const test_support::TempDir dir;
  const auto d = file_digest(dir.write("abc.txt", "abc"));
  EXPECT_EQ(d.bytes, 3u);
  EXPECT_EQ(d.sha256, sha256_hex("abc"));
}

TEST(FormatTest, MetricsStayShortWhenTheyExplode) {
  EXPECT_EQ(format_metric(12.345), "12.35");
  EXPECT_EQ(format_metric(std::exp(700.0)), "1.01e+304");
  EXPECT_EQ(format_metric(std::numeric_limits<double>::infinity()), "inf");
  EXPECT_EQ(format_metric(std::nan("")), "nan");
}

TEST(FormatTest, BytesAndDurations) {
  EXPECT_EQ(format_bytes(512.0 * 1024 * 1024), "512.0 MiB");
  EXPECT_EQ(format_bytes(3.5 * 1024 * 1024 * 1024), "3.5 GiB");
  EXPECT_EQ(format_duration(3725), "1:02:05");
  EXPECT_EQ(format_duration(65), "1:05");
}

}  // namespace
}  // namespace s2s::util
