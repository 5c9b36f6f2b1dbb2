#include "names.h"

#include <algorithm>

namespace rulestack {
namespace {
size_t editDistance(const std::string& a, const std::string& b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); j++) prev[j] = j;
  for (size_t i = 1; i <= a.size(); i++) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); j++)
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
    std::swap(prev, cur);
  }
  return prev[b.size()];
}
}  // namespace

std::string didYouMean(const std::string& name, const std::vector<std::string>& candidates) {
  std::string best;
  size_t bestD = std::max<size_t>(2, name.size() / 3) + 1;
  for (const auto& c : candidates) {
    size_t d = editDistance(name, c);
    if (d < bestD) { bestD = d; best = c; }
  }
  return best.empty() ? "" : " (did you mean '" + best + "'?)";
}
}  // namespace rulestack
