// Mutations (the operations of spec 002 and the language's additions). An operation changes
// the state at once where nothing can answer it; an event (a move, damage, a draw) is pushed
// as a frame of the resolution machine (resolve.cpp), which runs its reactions around it.
// Several events from one operation are pushed last first, so they happen in order.
#include <algorithm>

#include "rulestack/game.h"
#include "json.h"  // stableSort

namespace rulestack {

int32_t Game::playerZone(int zoneDef, int32_t player) const { return def_->zoneInstance(zoneDef, player); }

void Game::setProp(int32_t e, int32_t p, Value v) {
  const Def& d = *def_;
  endDirty_ |= d.endDirtyOf(p);
  propsVary_ |= e >= d.numPlayers();
  st_.props[(size_t)e * def_->numProps + p] = Slot::of(v);
}

namespace {
// A property operation's new value from the current one.
Value combined(Op op, int32_t cur, Value v) {
  int32_t x = asInt(v);
  switch (op) {
    case Op::Add: return Value::num((int32_t)((uint32_t)cur + (uint32_t)x));
    case Op::Sub: return Value::num((int32_t)((uint32_t)cur - (uint32_t)x));
    case Op::Mul: return Value::num((int32_t)((uint32_t)cur * (uint32_t)x));
    case Op::Div: return Value::num(x == -1 ? (int32_t)(0u - (uint32_t)cur) : x == 0 ? 0 : cur / x);  // (wraps, as /)
    default: return v;
  }
}
}  // namespace

// A property operation on one entity: its stored value combined with the operation's value.
RULESTACK_INLINE void Game::operateProp(int32_t e, const Mutation& m, Value v) {
  setProp(e, m.prop, combined(m.op, asInt(st_.props[(size_t)e * def_->numProps + m.prop].get()), v));
}

void Game::applyOp(const Mutation& m, Ctx& c) {
  const Def& d = *def_;
  if (m.quick) return quickProp(m, c);  // (a property of one player or entity: no list of targets)
  if (m.op == Op::DrawCard && m.target.present() && singleValued(m.target) && !m.from.present() &&
      !m.destination.present() && d.deckZone >= 0 && d.handZone >= 0) {
    // one player draws from their Deck to their Hand (most draws): no list of targets
    int32_t p = singleOf(m.target, c);
    if (p >= d.numPlayers()) p = st_.ents[p].owner;  // (an entity: its owner draws)
    if (p < 0) return;
    int count = m.count.present() ? number(m.count, c) : 1;
    if (count <= 0) return;
    const int32_t hand = playerZone(d.handZone, p);
    if (quietDraw()) {
      drawNow(p, playerZone(d.deckZone, p), hand, count, c.player);
      return;
    }
  }
  // targets: a list of values (zones expand to their entities for entity operations), in
  // a list kept from one operation to the next (no allocation per mutation)
  struct Level {
    int& depth;
    explicit Level(int& d) : depth(d) { depth++; }
    ~Level() { depth--; }
  } level(targetDepth_);
  if ((int)targetPool_.size() < targetDepth_) targetPool_.resize(targetDepth_);
  std::vector<Value>& targets = targetPool_[targetDepth_ - 1];
  targets.clear();
  auto entityTargets = [&]() { opTargets(m, c, targets, false); };
  auto playerTargets = [&]() { opTargets(m, c, targets, true); };
  auto zoneOf = [&](const Expr& e, const char* key) { return opZone(m, c, e, key); };
  auto err = [&](const std::string& msg) { opError(m, msg); };
  if (d.endAny && (m.op == Op::Destroy || m.op == Op::Promote || m.op == Op::Attach || m.op == Op::Shuffle)) endDirty_ |= Def::kEndOther;
  if (m.op == Op::Destroy || m.op == Op::Promote) endDirty_ |= Def::kEndEnts;
  switch (m.op) {
    case Op::Set: case Op::Add: case Op::Sub: case Op::Mul: case Op::Div: {
      Value v = eval(m.value, c);
      if (m.eventField >= 0) {
        if (!c.event) err("$event is only available in a reaction");
        c.event->damage = asInt(combined(m.op, c.event->damage, v));
        return;
      }
      entityTargets();
      for (Value t : targets) operateProp(t.v(), m, v);
      return;
    }
    case Op::MoveZone: {
      entityTargets();
      if (targets.empty()) return;
      int32_t z = zoneOf(m.destination, "destination");
      std::vector<Event>& moves = evScratch_;  // (emitAll never comes back here: no reuse while in use)
      moves.clear();
      noPlayerAmong(m, targets);
      for (Value t : targets) moves.push_back(moveEvent(t.v(), z, c.player));
      emitAll(moves, 3, m.bottom ? 1 : 0);
      return;
    }
    case Op::Destroy: {
      entityTargets();
      std::vector<Event>& discard = evScratch_;  // attachments of what is destroyed
      discard.clear();
      noPlayerAmong(m, targets);
      for (Value t : targets) {
        Entity& e = st_.ents[t.v()];
        goneOutOfSight(t.v());
        if (e.zone >= 0) st_.zones[e.zone].takeOut(t.v());
        e.zone = -1;
        e.alive = false;
        for (int32_t a = d.usesAttach ? d.numPlayers() : (int32_t)st_.ents.size(); a < (int32_t)st_.ents.size(); a++)
          if (st_.ents[a].host == t.v()) {
            st_.ents[a].host = -1;
            if (d.discardZone >= 0) discard.push_back(moveEvent(a, playerZone(d.discardZone, st_.ents[a].owner), c.player));
          }
      }
      emitAll(discard, 3, 0);
      return;
    }
    case Op::Cancel: {
      if (m.target.present() && d.nodes.nodes[m.target.root].op == N::Event) {
        if (!c.event) err("$event is only available in a reaction");
        c.event->cancelled = true;
        return;
      }
      Value t = eval(m.target, c);
      if (t.k() != VK::Item) return;
      if (Item* q = findQueued(t.v())) {
        Item it = std::move(*q);
        st_.queue.erase(st_.queue.begin() + (q - st_.queue.data()));
        cancelItem(std::move(it));
        return;
      }
      if (Item* p = findPending(t.v())) p->cancelled = true;  // being taken or executed
      return;
    }
    case Op::DrawCard: {
      playerTargets();
      int count = m.count.present() ? number(m.count, c) : 1;
      if (count <= 0 || targets.empty()) return;
      if (!m.from.present() && d.deckZone < 0) err("DrawCard without 'from' needs a zone named Deck");
      if (!m.destination.present() && d.handZone < 0) err("DrawCard without 'destination' needs a zone named Hand");
      // the zones first (expressions read the stack), then one frame per player, last first
      thread_local std::vector<int32_t> zones;
      zones.clear();
      for (Value p : targets) {
        zones.push_back(m.from.present() ? zoneOf(m.from, "from") : playerZone(d.deckZone, p.v()));
        zones.push_back(m.destination.present() ? zoneOf(m.destination, "destination") : playerZone(d.handZone, p.v()));
      }
      if (quietDraw()) {  // nothing can interrupt: draw now
        for (size_t i = 0; i < targets.size(); i++) drawNow(targets[i].v(), zones[2 * i], zones[2 * i + 1], count, c.player);
        return;
      }
      for (size_t i = targets.size(); i-- > 0;) {
        Frame& f = pushFrame(FK::Draw);
        f.a = targets[i].v();
        f.b = zones[2 * i];
        f.c = zones[2 * i + 1];
        f.next = count;
        f.ctx.player = c.player;
      }
      return;
    }
    case Op::Damage: {
      Value amount = eval(m.value, c);
      evalList(m.target, c, targets);
      int32_t src = c.selected >= 0 ? c.selected : c.self;
      std::vector<Event>& hits = evScratch_;
      hits.clear();
      for (Value t : targets) {
        if (t.k() != VK::Ent) continue;
        Event ev;
        ev.type = Ev::DamageTaken;
        ev.player = c.player;
        ev.entity = Slot{t.v(), VK::Ent};
        ev.damage = asInt(amount);
        if (src >= 0) ev.source = Slot{src, VK::Ent};
        hits.push_back(ev);
      }
      emitAll(hits, 3, m.prop);  // the damage is dealt between the halves (resolve.cpp)
      return;
    }
    case Op::EndTurn: st_.endTurn = true; return;
    case Op::Draw: endGame(-1); return;
    default: applyRareOp(m, c, targets); return;
  }
}

// Whether nothing can answer a draw (its card's move, or its failure).
RULESTACK_INLINE bool Game::quietDraw() const { return quietKind(Ev::OnZoneEnter, 3) && quietKind(Ev::DrawFailed, 3); }

// `count` cards from the top of zone `from` to zone `to`, at once (quietDraw): an empty zone
// is a DrawFailed for the player, and the draw stops.
RULESTACK_INLINE void Game::drawNow(int32_t player, int32_t from, int32_t to, int count, int32_t mover) {
  for (int k = 0; k < count; k++) {
    if (st_.zones[from].empty()) {
      Event failed;
      failed.type = Ev::DrawFailed;
      failed.player = player;
      emit(failed, 3);
      return;
    }
    emit(moveEvent(st_.zones[from].front(), to, mover), 3, 0);
  }
}

// An operation's targets: the live entities it names, or (players) the players it names, an
// entity standing for its owner.
void Game::opTargets(const Mutation& m, const Ctx& c, std::vector<Value>& targets, bool players) const {
  evalList(m.target, c, targets);
  if (players) {
    for (Value& v : targets)
      if (v.k() == VK::Ent && v.v() >= def_->numPlayers()) v = Value::ent(st_.ents[v.v()].owner);
    targets.erase(std::remove_if(targets.begin(), targets.end(), [&](Value v) { return v.k() != VK::Ent || v.v() < 0; }),
                  targets.end());
    return;
  }
  targets.erase(std::remove_if(targets.begin(), targets.end(),
                               [&](Value v) { return v.k() != VK::Ent || !st_.ents[v.v()].alive; }),
                targets.end());
}

// The zone an operation's key names (an entity stands for its zone).
int32_t Game::opZone(const Mutation& m, const Ctx& c, const Expr& e, const char* key) const {
  Value z = eval(e, c);
  if (z.k() == VK::Ent && st_.ents[z.v()].zone >= 0) return st_.ents[z.v()].zone;
  if (z.k() != VK::Zone) opError(m, std::string(key) + " is not a zone");
  return z.v();
}

// (RULESTACK_SMALL: a definition error, once a game at most)
RULESTACK_SMALL void Game::opError(const Mutation& m, const std::string& msg) const { throw RuntimeError("runtime_error", m.path + ": " + msg); }

// A player where an operation takes entities in zones (MoveZone, Destroy, Promote, Attach): a
// player is in no zone, has no template and is never destroyed.
RULESTACK_SMALL void Game::notAPlayer(const Mutation& m, int32_t player) const {
  static const char* const verbs[] = {"moved to a zone", "destroyed", "promoted", "attached", "given"};
  const int v = m.op == Op::MoveZone ? 0 : m.op == Op::Destroy ? 1 : m.op == Op::Promote ? 2 : m.op == Op::Give ? 4 : 3;
  opError(m, "player " + def_->playerIds[player] + " cannot be " + verbs[v] + ": only entities can");
}

// One new entity: made, then moved into its zone (an event; true when it became a frame).
// (RULESTACK_SMALL: entities are made rarely, next to their moves)
RULESTACK_SMALL bool Game::createOne(int32_t tmpl, int32_t zone, int32_t owner, const std::string* customId, int32_t player) {
  const Def& d = *def_;
  if (st_.ents.size() >= kMaxEntities) {  // as for the queue: a game that outgrew its bounds is a draw
    endGame(-1);
    return false;
  }
  const Template& t = d.templates[tmpl];
  size_t np = d.numProps;
  Entity e;
  e.tmpl = e.idTmpl = tmpl;
  e.owner = e.controller = owner;
  e.handle = e.prevHandle = st_.nextHandle++;  // its own handle from the start, as after any move
  if (customId) {
    e.serial = -1 - (int32_t)st_.customIds.size();
    st_.customIds.push_back({(int32_t)st_.ents.size(), *customId});
  } else {
    e.serial = ++st_.serials[tmpl];
  }
  int32_t idx = (int32_t)st_.ents.size();
  st_.ents.push_back(e);
  entsIndexed_ = false;
  endDirty_ |= Def::kEndEnts;
  st_.props.resize(st_.props.size() + np);
  for (auto& kv : t.props) st_.props[(size_t)idx * np + kv.first] = kv.second;
  return emit(moveEvent(idx, zone, player), 3, 1);
}

// ---- events ----

// (RULESTACK_SMALL: the log is off in searches and playouts)
RULESTACK_SMALL void Game::logEvent(const Event& ev, bool before) {
  if (!logging || (st_.over() && ev.type != Ev::GameOver)) return;  // GameOver is the last event
  LogEntry le{ev, before, causeItem()};
  int np = def_->numPlayers();
  auto hiddenFrom = [&](const Slot& s, int32_t zone, int32_t& handle) {
    uint32_t m = 0;
    if (s.k != VK::Ent || s.v < np) return m;
    for (int p = 0; p < np && p < 31; p++)
      if (!identifiesIn(p, s.v, zone)) m |= 1u << p;
    if (!identifiesIn(-1, s.v, zone)) m |= LogEntry::kSpectator;
    // a move's halves name it by its handle (whoever saw the move can follow it); any other
    // event names a card in a place not everyone sees as "?" (handle 0): a handle would tie
    // it to where it went, through a shuffle too
    const bool followed = ev.type == Ev::OnZoneEnter || zone < 0 || def_->zones[zoneDefOf(zone)].vis == Vis::Everyone;
    handle = followed ? st_.ents[s.v].handle : 0;
    return m;
  };
  // an entity being made is seen as where it is going (a card made into a deck is unnamed)
  int32_t entZone = ev.entity.k == VK::Ent ? st_.ents[ev.entity.v].zone : -1;
  if (ev.type == Ev::OnZoneEnter && entZone < 0 && ev.zone.k == VK::Zone) entZone = ev.zone.v;
  le.hidEnt = hiddenFrom(ev.entity, entZone, le.hEnt);
  le.hidSrc = hiddenFrom(ev.source, ev.source.k == VK::Ent ? st_.ents[ev.source.v].zone : -1, le.hSrc);
  // whom a move showed a card they could not identify where it was: a move's second half, and
  // a card played from a hidden zone (already on the queue when ActionPlayed is first logged)
  const bool moved = before ? ev.type == Ev::ActionPlayed : ev.type == Ev::OnZoneEnter;
  if (moved && ev.from.k == VK::Zone && ev.entity.k == VK::Ent && ev.entity.v >= np) {
    for (int p = -1; p < np && p < 31; p++) {
      uint32_t b = p < 0 ? LogEntry::kSpectator : 1u << p;
      if (!(le.hidEnt & b) && !identifiesIn(p, ev.entity.v, ev.from.v)) le.revealed |= b;
    }
    le.hPrev = st_.ents[ev.entity.v].prevHandle;
  }
  log.push_back(le);
}

// A zone's cards in a random order. Here rather than beside the other rare operations
// (mutations_rare.cpp, compiled for size in wasm): a game's setup shuffles its decks, and
// there the generator and the new handles were calls per card.
void Game::shuffleZone(int32_t zone) {
  Zone& v = st_.zones[zone];
  for (size_t i = v.size(); i > 1; i--) std::swap(v[i - 1], v[st_.rng.below((uint32_t)i)]);
  for (int32_t e : v) rehandle(e);  // a shuffled card cannot be followed
}

}  // namespace rulestack
