#include "seed.h"

#include <limits>

namespace rulestack {

bool parseSeed(const Json& j, uint64_t& out, std::string& error) {
  if (j.is_number_integer()) {
    if (j.is_number_unsigned() && j.get<uint64_t>() > (uint64_t)std::numeric_limits<int64_t>::max()) {
      error = "a seed is an integer from -2^63 to 2^63-1 or a string; " + j.dump() + " is too large";
      return false;
    }
    out = (uint64_t)j.get<int64_t>();  // two's complement: one seed per integer
    return true;
  }
  if (j.is_string()) {
    // FNV-1a over a tag and the text, then splitmix64's finaliser: strings spread over all
    // 64 bits and, in practice, meet no integer's seed
    uint64_t h = 1469598103934665603ULL;
    for (unsigned char c : std::string("rulestack-seed:") + j.get<std::string>()) {
      h ^= c;
      h *= 1099511628211ULL;
    }
    h = (h ^ (h >> 30)) * 0xBF58476D1CE4E5B9ULL;
    h = (h ^ (h >> 27)) * 0x94D049BB133111EBULL;
    out = h ^ (h >> 31);
    return true;
  }
  error = "a seed is an integer (from -2^63 to 2^63-1) or a string, not " + j.dump();
  return false;
}

}  // namespace rulestack
