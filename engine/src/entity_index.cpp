// Game's index of the entities by type (see Game::byType_): rebuilt when read after a change
// of which entities there are or what they are made from, which is rare (compiled for size in
// wasm, see CMakeLists.txt).
#include <algorithm>

#include "rulestack/game.h"

namespace rulestack {

// byType_ from the state: a counting sort by type (ids stay in order within a type).
void Game::indexEntities() const {
  const Def& d = *def_;
  const int32_t first = d.numPlayers(), n = (int32_t)st_.ents.size();
  byTypeStart_.assign(d.typeSyms.size() + 1, 0);
  for (int32_t e = first; e < n; e++) byTypeStart_[d.tmplType[st_.ents[e].tmpl] + 1]++;
  for (size_t t = 1; t < byTypeStart_.size(); t++) byTypeStart_[t] += byTypeStart_[t - 1];
  byType_.resize((size_t)byTypeStart_.back());
  std::vector<int32_t> next(byTypeStart_.begin(), byTypeStart_.end() - 1);
  for (int32_t e = first; e < n; e++) byType_[next[d.tmplType[st_.ents[e].tmpl]]++] = e;
  entsIndexed_ = true;
}

std::pair<const int32_t*, const int32_t*> Game::entitiesOfType(int t, int32_t from) const {
  if (!entsIndexed_) indexEntities();
  const int32_t* b = byType_.data() + byTypeStart_[t];
  const int32_t* e = byType_.data() + byTypeStart_[t + 1];
  return {std::lower_bound(b, e, from), e};
}

}  // namespace rulestack
