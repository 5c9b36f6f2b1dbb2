// Suggesting the nearest valid name in error messages.
#pragma once
#include <string>
#include <vector>

namespace rulestack {
// " (did you mean 'x'?)" for the closest candidate within a small edit distance, or "".
std::string didYouMean(const std::string& name, const std::vector<std::string>& candidates);
}  // namespace rulestack
