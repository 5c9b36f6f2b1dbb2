#include "names.h"

#include "rulestack/expr.h"

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

std::string hex16(uint64_t v) {
  static const char* digits = "0123456789abcdef";
  std::string s(16, '0');
  for (int i = 15; i >= 0; i--, v >>= 4) s[i] = digits[v & 15];
  return s;
}

bool parseHex16(const std::string& text, uint64_t& out) {
  if (text.empty() || text.size() > 16) return false;
  uint64_t v = 0;
  for (char c : text) {
    int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
    if (d < 0) return false;
    v = v << 4 | (uint64_t)d;
  }
  out = v;
  return true;
}

std::string didYouMean(const std::string& name, const std::vector<std::string>& candidates) {
  std::string best;
  size_t bestD = std::max<size_t>(2, name.size() / 3) + 1;
  for (const auto& c : candidates) {
    size_t d = editDistance(name, c);
    if (d < bestD) { bestD = d; best = c; }
  }
  return best.empty() ? "" : " (did you mean '" + best + "'?)";
}

// ---- NameIndex (rulestack/expr.h): open addressing, FNV-1a

size_t NameIndex::slot(const std::string& s) const {
  uint64_t h = 14695981039346656037ull;  // FNV-1a
  for (unsigned char ch : s) h = (h ^ ch) * 1099511628211ull;
  const size_t mask = slots_.size() - 1;
  for (size_t i = (size_t)h & mask;; i = (i + 1) & mask)
    if (!slots_[i] || entries_[(size_t)slots_[i] - 1].first == s) return i;
}

int NameIndex::find(const std::string& s) const {
  if (slots_.empty()) return -1;
  int32_t k = slots_[slot(s)];
  return k ? entries_[(size_t)k - 1].second : -1;
}

void NameIndex::set(const std::string& s, int value) {
  if (!slots_.empty())
    if (int32_t k = slots_[slot(s)]) {
      entries_[(size_t)k - 1].second = value;
      return;
    }
  entries_.push_back({s, value});
  if (entries_.size() * 2 <= slots_.size()) {
    slots_[slot(s)] = (int32_t)entries_.size();
    return;
  }
  slots_.assign(std::max<size_t>(16, slots_.size() * 2), 0);  // (all again, in the larger table)
  for (size_t i = 0; i < entries_.size(); i++) slots_[slot(entries_[i].first)] = (int32_t)i + 1;
}

// The words of a text separated by spaces.
std::vector<std::string> words(const std::string& s) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && s[i] == ' ') i++;
    size_t j = i;
    while (j < s.size() && s[j] != ' ') j++;
    if (j > i) out.push_back(s.substr(i, j - i));
    i = j;
  }
  return out;
}

}  // namespace rulestack
