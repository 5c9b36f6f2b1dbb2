// The search's own arithmetic: UCT's log is written out (bot.h, lnCount) so that a native and a
// wasm search compare the same numbers.
#include <cmath>
#include <cstring>

#include <catch2/catch.hpp>

#include "bot.h"

using namespace rulestack;

namespace {
uint64_t bitsOf(double d) {
  uint64_t b;
  std::memcpy(&b, &d, 8);
  return b;
}
}  // namespace

TEST_CASE("lnCount is the natural log of a count to within one unit in the last place", "[search]") {
  CHECK(lnCount(1) == 0.0);
  CHECK(lnCount(2) == std::log(2.0));
  int off = 0;
  for (int n = 1; n <= 200000; n++) {
    double a = lnCount(n), b = std::log((double)n);
    uint64_t d = bitsOf(a) > bitsOf(b) ? bitsOf(a) - bitsOf(b) : bitsOf(b) - bitsOf(a);
    INFO("n = " << n << ": " << a << " against " << b);
    REQUIRE(d <= 1);
    off += d != 0;
  }
  CHECK(off < 2000);  // (a last bit apart for under 1 % of them)
  for (double n : {1e6, 123456789.0, 2147483648.0, 1e15}) CHECK(std::fabs(lnCount(n) - std::log(n)) <= 4e-16 * std::log(n));
}

TEST_CASE("lnCount gives the same bits on every build (this suite runs natively and in wasm)", "[search]") {
  uint64_t h = 1469598103934665603ull;  // FNV-1a over the bits of lnCount(1 .. 100000)
  for (int n = 1; n <= 100000; n++) h = (h ^ bitsOf(lnCount(n))) * 1099511628211ull;
  CHECK(h == 0xf54f616ef0ea3dd3ull);
}
