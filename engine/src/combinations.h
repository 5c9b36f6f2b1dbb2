// Shared by the enumerations of legal moves (legal.cpp, legal_answers.cpp).
#pragma once
#include <cstddef>
#include <vector>

namespace rulestack {

// The most moves one action (or one decision) lists: a bound on the enumeration.
constexpr size_t kMaxMovesPerAction = 512;

// Every combination of `k` out of `n`, in lexicographic order, until `emit` returns false.
template <class F>
void combinations(int n, int k, F emit) {
  if (k > n || k < 0) return;
  std::vector<int> idx(k);
  for (int i = 0; i < k; i++) idx[i] = i;
  for (;;) {
    if (!emit(idx)) return;
    int i = k - 1;
    while (i >= 0 && idx[i] == n - k + i) i--;
    if (i < 0) return;
    idx[i]++;
    for (int j = i + 1; j < k; j++) idx[j] = idx[j - 1] + 1;
  }
}

}  // namespace rulestack
