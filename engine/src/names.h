// Suggesting the nearest valid name in error messages.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace rulestack {
// 16 lowercase hex digits (hashes, the RNG in snapshots); no printf, which is large in wasm.
std::string hex16(uint64_t v);
// The inverse; false when the text is not 1 to 16 hex digits.
bool parseHex16(const std::string& text, uint64_t& out);

// " (did you mean 'x'?)" for the closest candidate within a small edit distance, or "".
std::string didYouMean(const std::string& name, const std::vector<std::string>& candidates);
// The words of a text separated by spaces.
std::vector<std::string> words(const std::string& s);
}  // namespace rulestack
