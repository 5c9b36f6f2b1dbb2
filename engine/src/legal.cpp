// Legal-move enumeration. A move is legal when the enumeration lists it (or is a choice
// past its cap: see Game::check), so that the two never disagree.
#include <algorithm>

#include "rulestack/game.h"
#include "combinations.h"

namespace rulestack {

namespace {
constexpr int kMaxX = 20;  // (an X takes at most 21 values, from its min)

// A move of an action with no target, mode or X, from a card.
void pushTake(std::vector<Move>& out, int action, int32_t source) {
  out.emplace_back();
  Move& m = out.back();
  m.kind = Move::Take;
  m.action = action;
  m.source = source;
}

// The cards z[base .. base + n) (n at most 64) of template tmpl that the player controls and
// that are live, a bit each: which cards match is as random as the deal, and a branch per
// card mispredicts (a branch-free test per card, then one per match).
uint64_t cardsOf(const std::vector<Entity>& ents, const Zone& z, size_t base, size_t n, int32_t tmpl, int player) {
  uint64_t bits = 0;
  for (size_t k = 0; k < n; k++) {
    const Entity& en = ents[z[base + k]];
    bits |= (uint64_t)((en.tmpl == tmpl) & (en.controller == player) & en.alive) << k;
  }
  return bits;
}
}  // namespace

void sortSlots(std::vector<Slot>& v) {
  static const size_t gaps[] = {8858, 3937, 1750, 701, 301, 132, 57, 23, 10, 4, 1};  // Ciura's, extended
  const size_t n = v.size();
  for (size_t gap : gaps)
    for (size_t i = gap; i < n; i++) {
      const Slot x = v[i];
      size_t j = i;
      for (; j >= gap && slotLess(x, v[j - gap]); j -= gap) v[j] = v[j - gap];
      v[j] = x;
    }
}

void Game::targetCandidates(const TargetSpec& t, const Ctx& c, std::vector<Slot>& out) const {
  out.clear();
  thread_local std::vector<Value> raw;  // (eval never enumerates targets: no reentry)
  raw.clear();
  if (t.expandZones) {
    evalList(t.from, c, raw);
  } else {
    Value v = eval(t.from, c);
    if (v.k() == VK::List) {
      for (int32_t i = 0; i < v.n(); i++) raw.push_back(scratch_[v.v() + i]);
    } else if (!v.isNull()) {
      raw.push_back(v);
    }
  }
  for (Value x : raw) {
    if (x.k() != VK::Ent && x.k() != VK::Zone && x.k() != VK::Item) continue;
    if (x.k() == VK::Ent && !st_.ents[x.v()].alive) continue;
    if (t.filter.present()) {
      Ctx c2 = c;
      c2.candidate = x;
      if (!test(t.filter, c2)) continue;
    }
    Slot s = Slot::of(x);
    if (std::find(out.begin(), out.end(), s) == out.end()) out.push_back(s);
  }
}

void Game::xRange(const Action& a, const Ctx& c, int32_t& lo, int32_t& hi) const {
  Value vlo = eval(a.xMin, c), vhi = eval(a.xMax, c);
  lo = std::max(0, vlo.k() == VK::Int ? vlo.v() : 0);
  hi = std::min(lo + kMaxX, vhi.k() == VK::Int ? vhi.v() : 0);
}

bool Game::canPay(const Action& a, const Ctx& c) const {
  switch (a.costShape) {
    case CostShape::Free: return true;
    case CostShape::One: {  // one amount from one player or entity: nothing spent before it
      const Mutation& m = a.cost[0];
      int32_t n = amount(m.value, c);
      int32_t t = singleOf(m.target, c);
      return t < 0 || propInt(t, m.prop) - n >= 0;
    }
    case CostShape::Own: return canPayOwn(c.player, a.cost[0].prop, amount(a.cost[0].value, c));  // (One, paid by the player: no effects, no range checks)
    default: return canPayAll(a.cost, c);
  }
}

bool Game::canPayAll(const std::vector<Mutation>& cost, const Ctx& c) const {
  struct Spend { int32_t ent, prop, amount; };
  thread_local std::vector<Spend> spent;
  thread_local std::vector<Value> targets;
  spent.clear();
  for (const Mutation& m : cost) {
    if (m.op != Op::Sub || m.prop < 0 || m.forEach.present()) continue;
    if (m.condition.present() && !test(m.condition, c)) continue;
    int32_t a = number(m.value, c);
    evalList(m.target, c, targets);
    for (Value t : targets) {
      if (t.k() != VK::Ent) continue;
      int32_t total = a;
      for (auto& s : spent)
        if (s.ent == t.v() && s.prop == m.prop) total += s.amount;
      spent.push_back({t.v(), m.prop, a});
      if (prop(t.v(), m.prop) - total < 0) return false;
    }
  }
  return true;
}

void Game::enumerateAction(int player, int actionIdx, int source, std::vector<Move>& out, size_t cap,
                           const Expr* condition) const {
  const Def& d = *def_;
  const Action& a = d.actions[actionIdx];
  const Expr& cond = condition ? *condition : a.condition;
  Move m;
  m.kind = Move::Take;
  m.action = actionIdx;
  m.source = source;
  m.hasX = a.hasX;
  Ctx c = actionCtx(player, source, m);
  int nModes = a.modes.empty() ? 1 : (int)a.modes.size();
  int32_t xLo = 0, xHi = 0;
  if (a.hasX) xRange(a, c, xLo, xHi);
  size_t start = out.size();
  thread_local std::vector<Slot> cands;
  // (a condition that reads neither the mode nor X has one value for all of them; the
  // targets are none yet when it is tested)
  if (a.conditionOnce && xLo <= xHi && cond.present() && !test(cond, c)) return;
  for (int mode = 0; mode < nModes; mode++) {
    m.mode = a.modes.empty() ? -1 : mode;
    c.mode = m.mode;
    for (int x = xLo; x <= xHi; x++) {
      m.x = a.hasX ? x : 0;
      c.x = m.x;
      m.targets.clear();
      c.targets = &m.targets;
      if (!a.conditionOnce && cond.present() && !test(cond, c)) continue;
      if (!canPay(a, c)) continue;
      const TargetSpec* spec = a.targetSpec(m.mode);
      if (!spec) {
        out.push_back(m);
        if (out.size() - start >= cap) return;
        continue;
      }
      targetCandidates(*spec, c, cands);
      sortSlots(cands);
      for (int k = spec->min; k <= spec->max && k <= (int)cands.size(); k++) {
        if (k == 0) {
          m.targets.clear();
          out.push_back(m);
          continue;
        }
        bool full = false;
        combinations((int)cands.size(), k, [&](const std::vector<int>& idx) {
          m.targets.clear();
          for (int i : idx) m.targets.push_back(cands[i]);
          out.push_back(m);
          if (out.size() - start >= std::min(cap, kMaxMovesPerAction)) { full = true; return false; }
          return true;
        });
        if (full) return;
      }
    }
  }
}

bool Game::sameProperties(int32_t a, int32_t b) const {
  size_t np = def_->numProps;
  if (np == 0) return true;  // (a game without properties: no row to point at)
  const Slot* pa = &st_.props[(size_t)a * np];
  const Slot* pb = &st_.props[(size_t)b * np];
  for (size_t i = 0; i < np; i++)
    if (!(pa[i] == pb[i])) return false;
  return true;
}

void Game::legalMoves(int player, std::vector<Move>& out) const {
  const std::vector<Move>& moves = movesOf(player, out);
  if (&moves != &out) out = moves;
}

const std::vector<Move>& Game::movesOf(int player, std::vector<Move>& scratch) const {
  if (player == movesCachePlayer_ && st_.decisions.empty()) return movesCache_;
  collectMoves(player, scratch, false);
  return scratch;
}

bool Game::hasRealMove(int player) const {
  thread_local std::vector<Move> moves;
  collectMoves(player, moves, true);
  for (auto& m : moves)
    if (m.kind != Move::Pass) return true;
  return false;
}

// Whether the part of an action's condition that reads no source (Action::perAction) holds,
// tested once per enumeration before any source is looked at (true when there is none).
inline bool Game::perActionHolds(const Action& a, int player, PerActionMemo& memo) const {
  if (!a.perAction.present()) return true;
  if (a.perActionKey != memo.key) {  // (Duel's Bolt and Heal: the same test)
    memo.key = a.perActionKey;
    memo.result = testPerAction(a, player);
  }
  return memo.result;
}

// A perAction's value; one of the flow alone is tested once for each combination of the
// facts it reads (while a phase runs, the active player is a player and priority is the
// enumerating player's), and found in Game's table after.
inline bool Game::testPerAction(const Action& a, int player) const {
  const Action::FlowIndex& f = a.flow;
  const size_t q = st_.queue.size();
  uint8_t* kept = nullptr;
  if (f.base >= 0 && (q < Def::kFlowQueue || !f.queue)) {
    kept = &flowMemo_[f.base + player * f.player + st_.active * f.active + (int32_t)q * f.queue + st_.phase * f.phase];
    if (*kept) return *kept == 2;
  }
  bool result = testAs(a.perAction, player);
  if (kept) *kept = result ? 2 : 1;
  return result;
}

// test(e) with $player.current = player. (Its context lives in memory: apart from the hot
// callers, which wasm would otherwise give a stack frame on every call.)
bool Game::testAs(const Expr& e, int player) const {
  Ctx c;
  c.player = player;
  return test(e, c);
}

bool Game::canPayFrom(const Action& a, int player, int32_t source) const {
  Ctx c;
  c.player = player;
  c.self = c.selected = source;
  return canPay(a, c);
}

// A fromZone action's moves: only the cards in the zone its condition requires (the player's,
// for a per-player zone), in zone order. What can rule every card out is tested first, in
// collectMoves (about half of the Duel's tests end there): the zone allows actions, the
// perAction holds, and, for allOrNone, the player can pay the template's amount.
void Game::collectFromZone(int player, int ai, std::vector<Move>& out, bool firstOnly, bool allOrNone) const {
  const Def& d = *def_;
  const Action& a = d.actions[ai];
  const Zone& z = st_.zones[Def::instanceOf(a.fromBase, a.fromPerPlayer, player)];
  // identical cards (same properties) of a groupable action have the same moves but the
  // source: the first of a kind is enumerated, the others copy its moves
  int32_t rep = -1;
  size_t repBegin = 0, repEnd = 0;
  const Expr* perSource = a.perAction.present() ? &a.perSource : nullptr;
  // the zone's cards of this action, 64 at a time, as bits first (cardsOf)
  for (size_t base = 0; base < z.size(); base += 64) {
    uint64_t bits = cardsOf(st_.ents, z, base, std::min<size_t>(64, z.size() - base), a.tmpl, player);
    for (; bits; bits &= bits - 1) {
      int32_t e = z[base + (size_t)__builtin_ctzll(bits)];
      if (allOrNone) {
        pushTake(out, ai, e);
        continue;
      }
      if (a.group && rep >= 0 && (!propsVary_ || sameProperties(rep, e))) {
        for (size_t i = repBegin; i < repEnd; i++) {
          out.push_back(out[i]);
          out.back().source = e;
        }
        continue;
      }
      size_t before = out.size();
      if (a.direct) {  // (what enumerateAction's loops would find)
        if (canPayFrom(a, player, e)) pushTake(out, ai, e);
      } else {
        enumerateAction(player, ai, e, out, firstOnly ? 1 : kMaxMovesPerAction, perSource);
      }
      rep = e;
      repBegin = before;
      repEnd = out.size();
    }
  }
}

void Game::collectMoves(int player, std::vector<Move>& out, bool firstOnly) const {
  const Def& d = *def_;
  out.clear();
  if (st_.over() || player < 0 || player >= d.numPlayers()) return;
  if (!st_.decisions.empty()) {
    if (player == decisionTurnPlayer()) collectAnswers(player, out);
    return;
  }
  if (player != st_.priority || st_.phase < 0 || st_.phase >= (int)d.phases.size()) return;
  // a new enumeration: the conditions' invariant parts are evaluated again, once each (and
  // after it wherever they are met; applyUnchecked ends it too, should an exception leave it)
  if (d.numHoisted) startHoisting();
  const Phase& ph = d.phases[st_.phase];
  if (ph.zoneMasks < 0 || propsVary_ || firstOnly || !collectZonePhase(player, ph, out)) collectEach(player, ph, out, firstOnly);
  hoistOn_ = false;
  if (firstOnly && !out.empty()) return;
  if (out.empty() || ph.canPass || !st_.queue.empty()) out.emplace_back();  // (a pass, made in place)
}

// The phase's actions' moves, action by action (collectMoves).
void Game::collectEach(int player, const Phase& ph, std::vector<Move>& out, bool firstOnly) const {
  const Def& d = *def_;
  PerActionMemo memo;
  for (int ai : ph.actions) {
    const Action& a = d.actions[ai];
    if (a.tmpl >= 0 && a.fromZone >= 0) {
      // The part of the condition that reads no card, tested once before any card is looked
      // at: an expression changes nothing and cannot fail, so whether a card is found first
      // makes no difference to the moves, and most enumerations where the player cannot act
      // (another player's priority on an empty queue) end here without a look at the hand.
      if (!a.fromActs || !perActionHolds(a, player, memo)) continue;
      // Paid by the player from a constant or the card's own property, while no entity
      // property was set since the game began: every card of the template pays the
      // template's amount, so the player can pay for all of them or for none
      const bool allOrNone = a.direct && a.costShape == CostShape::Own && !propsVary_;
      if (allOrNone && !canPayOwn(player, a.cost[0].prop, a.tmplAmount)) continue;
      collectFromZone(player, ai, out, firstOnly, allOrNone);
    } else if (a.tmpl < 0 && !a.source.present() && !a.anySource) {
      enumerateAction(player, ai, -1, out, kMaxMovesPerAction);
    } else if (perActionHolds(a, player, memo)) {  // (then only the rest, per source)
      const Expr* perSource = a.perAction.present() ? &a.perSource : nullptr;
      if (a.tmpl >= 0) {
        for (int32_t e = d.numPlayers(); e < (int32_t)st_.ents.size(); e++) {
          const Entity& en = st_.ents[e];
          if (!en.alive || en.tmpl != a.tmpl || en.controller != player || en.zone < 0) continue;
          if (!d.zones[zoneDefOf(en.zone)].actions) continue;  // not from a zone without actions
          enumerateAction(player, ai, e, out, firstOnly ? 1 : kMaxMovesPerAction, perSource);
        }
      } else if (a.anySource) {
        for (int32_t e = d.numPlayers(); e < (int32_t)st_.ents.size(); e++) {
          const Entity& en = st_.ents[e];
          if (en.alive && en.controller == player && en.zone >= 0 && d.zones[zoneDefOf(en.zone)].actions)
            enumerateAction(player, ai, e, out, kMaxMovesPerAction, perSource);
        }
      } else {
        collectFromSources(player, ai, out, perSource);
      }
    }
    if (firstOnly && !out.empty()) return;
  }
}

// A zone phase's moves (Phase::zoneMasks) while no entity property was set, as collectMoves'
// loop lists them (action by action, each in zone order): which actions can be taken at all
// is known before the zone is looked at, from the flow's facts (which perActions hold: one
// entry of the table, for all the actions) and the player's means (the template's amount).
// False, with nothing listed, for a zone of more than 64 cards: the loop lists those.
bool Game::collectZonePhase(int player, const Phase& ph, std::vector<Move>& out) const {
  const Def& d = *def_;
  const Phase::ZoneAct* acts = ph.zoneActs;
  const size_t q = st_.queue.size();
  uint8_t* kept = q < Def::kFlowQueue ? &flowMemo_[ph.zoneMasks + (player * d.numPlayers() + st_.active) * Def::kFlowQueue + (int)q] : nullptr;
  unsigned live;
  if (kept && *kept) {
    live = *kept & 0x7fu;
  } else {
    PerActionMemo memo;
    live = 0;
    for (size_t j = 0; j < ph.actions.size(); j++)
      if (perActionHolds(d.actions[acts[j].action], player, memo)) live |= 1u << j;
    if (kept) *kept = (uint8_t)(live | 0x80u);
  }
  for (unsigned m = live; m; m &= m - 1) {
    const Phase::ZoneAct& a = acts[__builtin_ctz(m)];
    if (!canPayOwn(player, a.prop, a.amount)) live &= ~(m & -m);
  }
  if (!live) return true;
  const Action& first = d.actions[acts[0].action];
  const Zone& z = st_.zones[Def::instanceOf(first.fromBase, first.fromPerPlayer, player)];
  const size_t n = z.size();
  if (n > 64) return false;
  for (; live; live &= live - 1) {
    const Phase::ZoneAct& a = acts[__builtin_ctz(live)];
    for (uint64_t bits = cardsOf(st_.ents, z, 0, n, a.tmpl, player); bits; bits &= bits - 1)
      pushTake(out, a.action, z[(size_t)__builtin_ctzll(bits)]);
  }
  return true;
}

// An action whose `source` lists its sources: each live one not on the queue.
void Game::collectFromSources(int player, int ai, std::vector<Move>& out, const Expr* perSource) const {
  const Def& d = *def_;
  thread_local std::vector<Value> sources, srcs;
  Ctx c;
  c.player = player;
  evalList(d.actions[ai].source, c, sources);
  srcs = sources;
  for (Value s : srcs)
    if (s.k() == VK::Ent && s.v() >= d.numPlayers() && st_.ents[s.v()].alive && st_.ents[s.v()].zone != d.queueZone)
      enumerateAction(player, ai, s.v(), out, kMaxMovesPerAction, perSource);
}

void Game::startHoisting() const {
  hoistAt_++;
  hoistOn_ = true;
}

}  // namespace rulestack
