// Ids as the outside world sees them: "Bolt#3" for entities, "Hand:0" for a player's zone,
// "0" for a player. Only the JSON boundary uses these; the engine works on indexes.
#include <algorithm>

#include "rulestack/game.h"
#include "json.h"  // stableOrder

namespace rulestack {

int32_t Game::zoneDefOf(int32_t z) const {
  const auto& of = def_->zoneDefOfInstance;
  return z >= 0 && (size_t)z < of.size() ? of[z] : 0;
}

int32_t Game::zoneOwner(int32_t z) const {
  const ZoneDef& zd = def_->zones[zoneDefOf(z)];
  return zd.perPlayer ? z - zd.base : -1;
}

std::string Game::entityId(int32_t e) const {
  const Def& d = *def_;
  if (e < 0 || e >= (int32_t)st_.ents.size()) return "";
  if (e < d.numPlayers()) return d.playerIds[e];
  const Entity& en = st_.ents[e];
  if (en.serial < 0) return st_.customIds[-1 - en.serial].second;
  return d.templates[en.idTmpl].id + "#" + std::to_string(en.serial);
}

std::string Game::zoneId(int32_t z) const {
  const Def& d = *def_;
  const ZoneDef& zd = d.zones[zoneDefOf(z)];
  if (!zd.perPlayer) return zd.name;
  return zd.name + ":" + d.playerIds[z - zd.base];
}

int32_t Game::findPlayer(const std::string& id) const {
  const auto& ids = def_->playerIds;
  auto it = std::find(ids.begin(), ids.end(), id);
  return it == ids.end() ? -1 : (int32_t)(it - ids.begin());
}

int32_t Game::findEntity(const std::string& id) const {
  const Def& d = *def_;
  for (auto& kv : st_.customIds)
    if (kv.second == id) return kv.first;
  auto hash = id.rfind('#');
  if (hash == std::string::npos) return findPlayer(id);
  std::string name = id.substr(0, hash);
  long serial = 0;
  for (size_t i = hash + 1; i < id.size(); i++) {
    if (id[i] < '0' || id[i] > '9' || serial > 100000000) return -1;
    serial = serial * 10 + (id[i] - '0');
  }
  for (int32_t e = d.numPlayers(); e < (int32_t)st_.ents.size(); e++) {
    const Entity& en = st_.ents[e];
    if (en.serial == serial && d.templates[en.idTmpl].id == name) return e;
  }
  return -1;
}

int32_t Game::findZone(const std::string& id) const {
  const Def& d = *def_;
  auto colon = id.find(':');
  std::string name = colon == std::string::npos ? id : id.substr(0, colon);
  for (size_t i = 0; i < d.zones.size(); i++) {
    const ZoneDef& z = d.zones[i];
    if (z.name != name) continue;
    if (!z.perPlayer) return colon == std::string::npos ? z.base : -1;
    if (colon == std::string::npos) return -1;
    int32_t p = findPlayer(id.substr(colon + 1));
    return p < 0 ? -1 : z.base + p;
  }
  return -1;
}

std::string Game::slotId(Slot s) const {
  switch (s.k) {
    case VK::Ent: return entityId(s.v);
    case VK::Zone: return zoneId(s.v);
    case VK::Item: return "q" + std::to_string(s.v);
    default: return "";
  }
}

Slot Game::parseTarget(const std::string& id) const {
  int32_t e = findEntity(id);
  if (e >= 0) return Slot{e, VK::Ent};
  int32_t z = findZone(id);
  if (z >= 0) return Slot{z, VK::Zone};
  if (id.size() > 1 && id[0] == 'q') {
    int32_t n = 0;
    for (size_t i = 1; i < id.size(); i++) {
      if (id[i] < '0' || id[i] > '9' || n > 100000000) return Slot{};
      n = n * 10 + (id[i] - '0');
    }
    return Slot{n, VK::Item};
  }
  return Slot{};
}

bool Game::seesZone(int32_t z, int viewer) const {
  if (viewer == -2) return true;
  const ZoneDef& zd = def_->zones[zoneDefOf(z)];
  return zd.vis == Vis::Everyone || (zd.vis == Vis::Owner && viewer >= 0 && viewer == zoneOwner(z));
}

bool Game::identifies(int viewer, int32_t e) const { return identifiesIn(viewer, e, st_.ents[e].zone); }

bool Game::identifiesIn(int viewer, int32_t e, int32_t zone) const {
  if (viewer == -2 || e < def_->numPlayers()) return true;
  const Entity& en = st_.ents[e];
  if (zone >= 0 && !seesZone(zone, viewer)) return false;
  return !def_->templates[en.tmpl].faceDown || viewer == en.owner;
}

// A move's targets in the order its player is shown them (writeSlotList): what they identify
// first, in the engine's order, then the others by handle. $target is the first of them: the
// engine's order (the order the cards were made) would tell which hidden card is which.
void Game::inOrderSeen(std::vector<Slot>& targets, int player) const {
  for (size_t i = 1; i < targets.size(); i++)  // (stably, by Game::seenKey: as nextAsSeen lists them)
    for (size_t j = i; j > 0 && seenKey(targets[j], player) < seenKey(targets[j - 1], player); j--)
      std::swap(targets[j], targets[j - 1]);
}

void Game::goneOutOfSight(int32_t e) {
  Entity& en = st_.ents[e];
  for (int p = 0; p < def_->numPlayers(); p++)
    if (!identifies(p, e)) (en.zone >= 0 && !seesZone(en.zone, p) ? en.goneHidden : en.goneFaceDown) |= (uint8_t)(1u << p);
}

uint32_t Game::handleCode(int32_t handle) const {
  // splitmix64's finaliser over the salt and the number: without the salt (which only the
  // full record holds) a handle says nothing about when it was drawn
  uint64_t z = st_.salt + (uint64_t)(uint32_t)handle * 0x9E3779B97F4A7C15ULL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return (uint32_t)(z ^ (z >> 31));
}

std::string Game::handleName(int32_t handle) const {
  const uint32_t z = handleCode(handle);  // (8 hex digits: names sort as their codes)
  static const char* hex = "0123456789abcdef";
  std::string s = "?";
  for (int i = 7; i >= 0; i--) s += hex[(z >> (4 * i)) & 15];
  return s;
}

uint32_t Game::seenKey(const Slot& t, int viewer) const {
  return t.k == VK::Ent && !identifies(viewer, t.v) ? handleCode(st_.ents[t.v].handle) | 1 : 0;
}

uint64_t Game::nextAsSeen(const std::vector<Slot>& targets, int viewer, uint64_t from) const {
  uint64_t next = ~0ULL;
  for (size_t i = 0; i < targets.size(); i++) {
    uint64_t k = (uint64_t)seenKey(targets[i], viewer) << 32 | i;
    if (k >= from && k < next) next = k;
  }
  return next;
}

namespace {
uint32_t sourceKey(const Game& g, const Move& m, int viewer) {
  return m.source < 0 ? 0u : g.seenKey(Slot{m.source, VK::Ent}, viewer);
}
}  // namespace

std::vector<uint32_t> Game::orderAsSeen(const std::vector<Move>& moves, int viewer) const {
  // runs of one action's (or one decision's) moves, as the viewer names them: the moves of
  // actions of one name (several templates may each have a Cast) are one run, at the place of
  // its first move, else the runs' order would tell which template a hidden source is. A run
  // that shows a handle is sorted by the source's key, then the targets' keys in the order
  // shown (fewer first); equal keys, and any other run, keep the engine's order (which then
  // follows only what the viewer identifies)
  struct Runs {
    const Game* g;
    const std::vector<Move>* moves;
    int viewer;
    std::vector<uint32_t> run, hidden;  // each move's run; whether a run shows a handle
  } x{this, &moves, viewer, {}, {}};
  struct RunKey {
    int kind, name, decision;
    bool accept;
  };
  std::vector<RunKey> keys;
  for (size_t i = 0; i < moves.size(); i++) {
    const Move& m = moves[i];
    const RunKey k{(int)m.kind, m.kind == Move::Take && m.action >= 0 ? def_->actions[m.action].nameSym : m.action, m.decision, m.accept};
    size_t r = 0;
    while (r < keys.size() && !(keys[r].kind == k.kind && keys[r].name == k.name && keys[r].decision == k.decision && keys[r].accept == k.accept)) r++;
    if (r == keys.size()) {
      keys.push_back(k);
      x.hidden.push_back(0);
    }
    x.run.push_back((uint32_t)r);
    x.hidden[r] |= sourceKey(*this, m, viewer);
    for (const Slot& t : m.targets) x.hidden[r] |= seenKey(t, viewer);
  }
  return stableOrder(moves.size(), [](const void* c, size_t a, size_t b) {
    const Runs& x = *static_cast<const Runs*>(c);
    if (x.run[a] != x.run[b]) return x.run[a] < x.run[b];
    if (!x.hidden[x.run[a]]) return false;
    const Move &ma = (*x.moves)[a], &mb = (*x.moves)[b];
    uint32_t sa = sourceKey(*x.g, ma, x.viewer), sb = sourceKey(*x.g, mb, x.viewer);
    if (sa != sb) return sa < sb;
    uint64_t ka = x.g->nextAsSeen(ma.targets, x.viewer, 0), kb = x.g->nextAsSeen(mb.targets, x.viewer, 0);
    for (; ka != ~0ULL && kb != ~0ULL; ka = x.g->nextAsSeen(ma.targets, x.viewer, ka + 1), kb = x.g->nextAsSeen(mb.targets, x.viewer, kb + 1))
      if (ka >> 32 != kb >> 32) return ka >> 32 < kb >> 32;
    return ka == ~0ULL && kb != ~0ULL;
  }, &x);
}

std::string Game::entityIdFor(int32_t e, int viewer) const {
  if (e < 0 || e >= (int32_t)st_.ents.size() || identifies(viewer, e)) return entityId(e);
  return handleName(st_.ents[e].handle);
}

std::string Game::slotIdFor(Slot s, int viewer) const {
  return s.k == VK::Ent ? entityIdFor(s.v, viewer) : slotId(s);
}

int32_t Game::findEntityFor(const std::string& id, int viewer) const {
  if (!id.empty() && id[0] == '?') {
    for (int32_t e = def_->numPlayers(); e < (int32_t)st_.ents.size(); e++)
      if (st_.ents[e].alive && !identifies(viewer, e) && handleName(st_.ents[e].handle) == id) return e;
    return -1;
  }
  int32_t e = findEntity(id);
  return e >= 0 && identifies(viewer, e) ? e : -1;
}

Slot Game::parseTargetFor(const std::string& id, int viewer) const {
  if (!id.empty() && id[0] == '?') {
    int32_t e = findEntityFor(id, viewer);
    return e >= 0 ? Slot{e, VK::Ent} : Slot{};
  }
  Slot s = parseTarget(id);
  if (s.k == VK::Ent && !identifies(viewer, s.v)) return Slot{};
  return s;
}

}  // namespace rulestack
