// The copies and moves of the state's parts that the hot path makes, in a file compiled for
// speed (in wasm, the code that only loads, checks and hashes is compiled for size, and an
// inline copy could be taken from there: the link keeps one).
#include "rulestack/state.h"

namespace rulestack {

__attribute__((noinline)) Item::Item(Item&&) noexcept = default;
__attribute__((noinline)) Item& Item::operator=(Item&&) noexcept = default;
__attribute__((noinline)) FrameCtx::FrameCtx(FrameCtx&&) noexcept = default;
__attribute__((noinline)) FrameCtx& FrameCtx::operator=(FrameCtx&&) noexcept = default;

// The entities go at the end of this zone's buffer, which only grows: no allocation once a
// search or a simulation has copied its states a few times. Copied one by one: a zone holds
// a few entities, and wasm's memory.copy is a call out of the module in V8.
#if defined(__clang__)
__attribute__((no_builtin("memcpy", "memmove")))
#endif
Zone& Zone::operator=(const Zone& o) {
  const size_t n = o.size();
  if (buf_.size() < n) buf_.resize(n);
  head_ = (uint32_t)(buf_.size() - n);
  int32_t* to = buf_.data() + head_;
  const int32_t* from = o.begin();
  for (size_t i = 0; i < n; i++) to[i] = from[i];
  return *this;
}

}  // namespace rulestack
