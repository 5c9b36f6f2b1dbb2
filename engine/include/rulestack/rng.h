// The seeded RNG that lives in the state: splitmix64, identical natively and in wasm.
#pragma once
#include <cstdint>

namespace rulestack {

struct Rng {
  uint64_t s = 0x9E3779B97F4A7C15ULL;
  void seed(uint64_t x) { s = x ^ 0x9E3779B97F4A7C15ULL; }
  uint64_t next() {
    uint64_t z = (s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  // Uniform in [0, n): rejection-free multiply-shift on the high 32 bits.
  uint32_t below(uint32_t n) { return (uint32_t)(((next() >> 32) * (uint64_t)n) >> 32); }
};

}  // namespace rulestack
