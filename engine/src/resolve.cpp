// The resolution machine. Everything that happens between two player choices — taking an
// action, executing a queue item, an event with its $Before and $After reactions, a list of
// mutations — is a frame on State::stack, run one step at a time from the top by step().
// A step that needs a player's choice offers a decision and the machine stops (advance()
// returns); the answer resumes at that very step. Frames are plain values inside the state
// (indexes into the definition, never pointers), so copies, undo, snapshots and the hash
// work at every stop, and a faster interpreter can later drive the same frames.
//
// The rule of every step: read what it needs from its frame and advance the frame's cursor
// first, then act. Acting may push frames (the stack may move), so no reference to a frame
// is used after anything that can push.
#include <algorithm>

#include "rulestack/game.h"

namespace rulestack {

// RULESTACK_SMALL (game.h) on the frames' own bookkeeping (a list's cursor, an event's stages,
// pushing a list, an item leaving): the work they hand on (applyOp, eval, emit) stays fast;
// inlined into step() at -O3 they cost ~1 KB gzip of wasm.

namespace {
constexpr size_t kMaxFrames = 400;
}  // namespace

// ---- the loop's one step ----

void Game::step() {
  int fi = (int)st_.stack.size() - 1;
  const Frame& f = st_.stack[fi];
  if (trace && f.kind != FK::Muts) traceFrame(fi);  // (stepMuts reports each mutation it runs)
  switch (f.kind) {
    case FK::Muts: stepMuts(fi); return;
    case FK::ForEach: stepForEach(fi); return;
    case FK::Event: stepEvent(fi); return;
    case FK::React: stepReact(fi); return;
    case FK::Take: stepTake(fi); return;
    case FK::Exec: stepExec(fi); return;
    case FK::Discard: stepDiscard(fi); return;
    case FK::Draw: stepDraw(fi); return;
    case FK::Create: stepCreate(fi); return;
    case FK::Chain: stepChain(fi); return;
    case FK::Priority: {
      int32_t p = f.a;
      st_.stack.pop_back();
      if (!st_.over()) st_.priority = p;
      return;
    }
  }
}

// (RULESTACK_SMALL: only a scenario's trace asks for it)
RULESTACK_SMALL void Game::traceFrame(int fi) {
  const Frame& f = st_.stack[fi];
  TraceStep t{f.kind, f.stage, fi + 1, f.lk, f.li, f.lj, -1, f.ev, f.item.id};
  if (f.kind == FK::ForEach) t.index = f.next;
  else if (f.kind == FK::React) t.ev = st_.stack[f.a].ev;
  trace->push_back(t);
}

// A new frame on top, built in place (frames are big: no temporary and no move).
Frame& Game::pushFrame(FK kind) {
  if (st_.stack.size() >= kMaxFrames)
    throw RuntimeError("loop_limit", "the resolution nested more than 400 steps deep (reactions setting each other off?); the chain: " +
                                         chainNames());
  return st_.stack.push(kind);
}

const std::vector<Mutation>& Game::listOf(LK lk, int32_t li, int32_t lj) const {
  const Def& d = *def_;
  static const std::vector<Mutation> none;
  switch (lk) {
    case LK::Setup: return d.setup;
    case LK::OnEnter: return d.phases[li].onEnter;
    case LK::Cost: return d.actions[li].cost;
    case LK::Action: return d.actions[li].mutations;
    case LK::Mode: return d.actions[li].modes[lj].mutations;
    case LK::Reaction: return d.reactions[li].mutations;
    case LK::Triggered: return d.triggered[li].mutations;
    case LK::Extra: return extra_[li];
    case LK::None: break;
  }
  return none;
}

// What mutations see, from a frame context (pointers into the stack: valid until a push).
Ctx Game::ctxFrom(const FrameCtx& k) const {
  Ctx c;
  c.player = k.player;
  c.self = k.self;
  c.selected = k.selected;
  c.mode = k.mode;
  c.x = k.x;
  c.item = k.item.get();
  if (k.itemFrame >= 0) {
    const Item& it = st_.stack[k.itemFrame].item;
    c.targets = &it.targets;
    c.props = &it.props;
  } else {
    c.targets = &k.targets;
  }
  if (k.evFrame >= 0) {
    Frame& e = const_cast<Frame&>(st_.stack[k.evFrame]);  // $Before reactions change the event
    c.event = k.evInItem ? &e.item.event : &e.ev;
  }
  return c;
}

Ctx Game::ctxOf(int fi) const { return ctxFrom(st_.stack[fi].ctx); }

// One mutation of a list that runs in this step: its condition, then the operation (a
// property of one player or entity in place: most of a game's mutations).
void Game::runOne(const Mutation& m, Ctx& c) {
  if (m.condition.present() && !holds(m.condition, m.conditionCmp, c)) return;
  if (m.quick) quickProp(m, c);
  else applyOp(m, c);
}

// Runs a list that Def::runsAtOnce allows, in this step.
void Game::runAtOnce(const std::vector<Mutation>& ms, const Ctx& c) {
  Ctx k = c;
  for (const Mutation& m : ms) runOne(m, k);
}

RULESTACK_SMALL bool Game::pushMuts(LK lk, int32_t li, int32_t lj, FrameCtx&& ctx) {
  const std::vector<Mutation>& ms = listOf(lk, li, lj);
  if (ms.empty()) return false;
  if (!trace && def_->runsAtOnce(ms)) {  // (traced, every mutation is a step of its own)
    runAtOnce(ms, ctxFrom(ctx));
    return false;
  }
  pushMutsFrame(lk, li, lj, std::move(ctx));
  return true;
}

// A list as a frame of its own (its mutations run as steps).
void Game::pushMutsFrame(LK lk, int32_t li, int32_t lj, FrameCtx&& ctx) {
  Frame& f = pushFrame(FK::Muts);
  f.lk = lk;
  f.li = li;
  f.lj = lj;
  f.ctx = std::move(ctx);
}

void Game::pushEvent(const Event& ev, uint8_t halves, int32_t a) {
  Frame& f = pushFrame(FK::Event);
  f.halves = halves;
  f.ev = ev;
  f.a = a;
}

Event Game::moveEvent(int32_t e, int32_t zone, int32_t player) const {
  Event ev;
  ev.type = Ev::OnZoneEnter;
  ev.player = player;
  ev.entity = Slot{e, VK::Ent};
  ev.zone = Slot{zone, VK::Zone};
  return ev;
}

// Whether nothing can answer an event (most events of most games): it then happens at once,
// logged as two halves, with no frame. Same order, same log, same state: a shortcut.
bool Game::quiet(const Event& ev, uint8_t halves) const {
  const Def& d = *def_;
  if (ev.type == Ev::PhaseExecute && !d.phases[ev.phase].onEnter.empty() &&
      (trace || !d.phases[ev.phase].onEnterAtOnce))
    return false;  // (its on_enter runs as frames)
  return quietKind(ev.type, halves);
}

// quiet() for an event of a kind other than PhaseExecute, known before it is made.
bool Game::quietKind(Ev type, uint8_t halves) const {
  const Def& d = *def_;
  if (type == Ev::OnZoneEnter && d.usesAttach) return false;  // attachments move with it
  return !((halves & 1) && d.listens[Def::key(true, type)]) && !((halves & 2) && d.listens[Def::key(false, type)]);
}

// An event: at once when quiet, else as a frame. True when it became a frame (the calling
// step must then return: the frame runs next).
bool Game::emit(Event& e, uint8_t halves, int32_t a) {
  if (!quiet(e, halves)) {
    pushEvent(e, halves, a);
    return true;
  }
  if (!startEvent(e)) return false;
  if (halves & 1) {
    countEvent();
    if (logging) logEvent(e, true);
  }
  if (e.type == Ev::PhaseExecute) {  // its on_enter, which runs at once (else not quiet)
    runOnEnter(e);
  } else if (!changeNow(e, a)) {
    return false;
  }
  if (halves & 2) {
    countEvent();
    if (logging) logEvent(e, false);
  }
  return false;
}

// (apart from emit: its context lives in memory, and wasm's emit would set up a stack frame
// for it on every call)
void Game::runOnEnter(Event& e) {
  Ctx c;
  c.player = st_.active;
  c.event = &e;
  runAtOnce(def_->phases[e.phase].onEnter, c);
}

// Several events of one kind from one operation, in order: at once, or as frames pushed
// last first (so that they run first to last, each with its reactions before the next).
void Game::emitAll(const std::vector<Event>& evs, uint8_t halves, int32_t a) {
  if (evs.empty()) return;
  if (quiet(evs[0], halves)) {
    for (const Event& e : evs) emit(Event(e), halves, a);
    return;
  }
  for (size_t i = evs.size(); i-- > 0;) pushEvent(evs[i], halves, a);
}

// As an event starts: false when it cannot happen any more (damage to a destroyed entity).
bool Game::startEvent(Event& ev) {
  if (ev.type == Ev::DamageTaken && !st_.ents[ev.entity.v].alive) return false;
  if (ev.type == Ev::OnZoneEnter) {
    int32_t z = st_.ents[ev.entity.v].zone;
    ev.from = z >= 0 ? Slot{z, VK::Zone} : Slot{};
  }
  return true;
}

// The change an event makes between its halves (attachments aside): false when it did not
// happen (a destroyed entity does not move).
RULESTACK_INLINE bool Game::changeNow(const Event& ev, int32_t a) {
  const Def& d = *def_;
  if (ev.type == Ev::DamageTaken) {
    int32_t e = ev.entity.v;
    if (ev.damage > 0) {
      int32_t cur = asInt(st_.props[(size_t)e * d.numProps + a].get());
      setProp(e, a, Value::num((int32_t)((uint32_t)cur - (uint32_t)ev.damage)));
    }
    return true;
  }
  if (ev.type != Ev::OnZoneEnter) return true;
  int32_t e = ev.entity.v, zone = ev.zone.v;
  Entity& ent = st_.ents[e];
  if (!ent.alive) return false;
  if (d.endAny) endDirty_ |= Def::kEndOther;
  if (ent.zone >= 0) st_.zones[ent.zone].takeOut(e);
  auto& to = st_.zones[zone];
  if (a == 1) to.push_back(e);  // a: 1 to the bottom
  else to.putOnTop(e);
  ent.zone = zone;
  rehandle(e);
  if (ent.host >= 0 && st_.ents[ent.host].zone != zone) ent.host = -1;  // moved away from its host
  return true;
}

// An item to execute; when done, priority goes to `priorityTo` (-1: unchanged).
void Game::pushExec(Item&& it, int32_t priorityTo) {
  if (!failed_.empty())
    if (auto e = failureOf(it.id)) return failItem(std::move(it), priorityTo, *e);
  if (execAtOnce(it, priorityTo)) return;
  Frame& f = pushFrame(FK::Exec);
  f.item = std::move(it);
  f.a = priorityTo;
}

// An action item that nothing can interrupt (no listener of its events, plain mutations, a
// quiet move of its card) executes at once, as stepExec would, with no frame. False when
// it cannot (nothing was changed then).
bool Game::execAtOnce(Item& it, int32_t priorityTo) {
  const Def& d = *def_;
  if (trace || it.kind != ItemKind::Action) return false;
  const Action& a = d.actions[it.def];
  if (d.heard(Ev::Named) ||
      d.listens[Def::key(false, Ev::ActionExecuted)] || d.listens[Def::key(false, Ev::ActionCancelled)] ||
      !a.mutationsAtOnce || (it.mode >= 0 && !a.modes[it.mode].atOnce))
    return false;
  int zd = d.discardZone >= 0 ? d.discardZone : d.cancelZone;
  bool card = a.play && it.source >= 0 && zd >= 0;
  if (card && !quietKind(Ev::OnZoneEnter, 3)) return false;
  int32_t savedCause = quietCause_;
  quietCause_ = it.id;  // the log's cause, as if an Exec frame were there
  if (!targetsStillValid(it)) {
    it.cancelled = true;
    if (card && st_.ents[it.source].zone == d.queueZone)
      emit(moveEvent(it.source, playerZone(d.cancelZone >= 0 ? d.cancelZone : d.discardZone, ownerOf(it.source)), it.player), 3, 0);
    const Slot source = it.source >= 0 ? Slot{it.source, VK::Ent} : Slot{};
    itemLeft(std::move(it), Ev::ActionCancelled, a.nameSym, source, false);  // (the caller drops it)
  } else {
    Event ev;
    ev.type = Ev::Named;
    ev.player = it.player;
    ev.item = it.id;
    ev.named = a.nameSym;
    if (it.source >= 0) ev.entity = Slot{it.source, VK::Ent};
    else if (!it.targets.empty()) ev.entity = it.targets[0];
    countEvent();
    if (logging) logEvent(ev, true);
    Ctx c;
    c.player = it.player;
    c.self = it.self;
    c.selected = it.source;
    c.targets = &it.targets;
    c.mode = it.mode;
    c.x = it.x;
    c.props = &it.props;
    Item* const savedItem = quietItem_;
    quietItem_ = &it;  // (found as an Exec frame's would be: a Cancel of it, a read of it)
    for (const Mutation& m : a.mutations) runOne(m, c);
    if (it.mode >= 0 && !it.cancelled)
      for (const Mutation& m : a.modes[it.mode].mutations) runOne(m, c);
    quietItem_ = savedItem;
    if (card && st_.ents[it.source].zone == d.queueZone) emit(moveEvent(it.source, playerZone(zd, ownerOf(it.source)), it.player), 3, 0);
    itemLeft(std::move(it), Ev::ActionExecuted, ev.named, ev.entity, false);  // (the caller drops it)
    countEvent();
    if (logging) logEvent(ev, false);
  }
  quietCause_ = savedCause;
  if (priorityTo >= 0 && !st_.over()) st_.priority = priorityTo;
  return true;
}

void Game::pushPriority(int32_t player) { pushFrame(FK::Priority).a = player; }

int32_t Game::causeItem() const {
  if (quietCause_ >= 0) return quietCause_;
  for (size_t i = st_.stack.size(); i-- > 0;)
    if (st_.stack[i].kind == FK::Exec) return st_.stack[i].item.id;
  return -1;
}

// ---- mutation lists ----

// Runs the list's mutations one after the other in this step, until one pushes a frame,
// asks for a decision or ends the game: the machine then takes over from there.
RULESTACK_SMALL void Game::stepMuts(int fi) {
  // (the list is the definition's or a scenario's, never in the stack: found once)
  const std::vector<Mutation>& ms = listOf(st_.stack[fi].lk, st_.stack[fi].li, st_.stack[fi].lj);
  for (;;) {
    Frame& f = st_.stack[fi];
    if (f.next >= (int32_t)ms.size()) {
      st_.stack.pop_back();
      return;
    }
    int32_t mi = f.next++;
    const Mutation& m = ms[mi];
    if (trace) trace->push_back(TraceStep{FK::Muts, 0, fi + 1, f.lk, f.li, f.lj, mi, Event{}, -1});
    Ctx c = ctxOf(fi);
    if (m.forEach.present()) {
      thread_local std::vector<Value> values;
      evalList(m.forEach, c, values);
      if (!trace && def_->opAtOnce(m)) {  // (stepForEach's steps, in this one: no frame)
        for (Value v : values) {
          c.item = v;
          runOne(m, c);
        }
        if (!st_.decisions.empty() || st_.over()) return;
        continue;
      }
      FrameCtx ctx = f.ctx;
      LK lk = f.lk;
      int32_t li = f.li, lj = f.lj;
      Frame& g = pushFrame(FK::ForEach);  // (f is not used after this)
      g.lk = lk;
      g.li = li;
      g.lj = lj;
      g.next = mi;
      g.ctx = std::move(ctx);
      for (Value v : values) g.values.push_back(Slot::of(v));
      return;
    }
    if (m.condition.present() && !test(m.condition, c)) continue;
    size_t depth = st_.stack.size();
    applyOp(m, c);
    if (st_.stack.size() != depth || !st_.decisions.empty() || st_.over()) return;
  }
}

RULESTACK_SMALL void Game::stepForEach(int fi) {
  Frame& f = st_.stack[fi];
  if (f.pos >= (int32_t)f.values.size()) {
    st_.stack.pop_back();
    return;
  }
  const Mutation& m = listOf(f.lk, f.li, f.lj)[f.next];
  Ctx c = ctxOf(fi);
  c.item = f.values[f.pos++].get();
  runOne(m, c);
}

// ---- events: $Before reactions, the change itself, $After reactions ----

// An event half: counted, logged, and when something listens, its reactions as a frame.
bool Game::announce(int fi, bool before) {
  const Event& ev = st_.stack[fi].ev;
  countEvent();
  if (logging) logEvent(ev, before);
  if (ev.type == Ev::Count || !def_->listens[Def::key(before, ev.type)]) return false;
  Frame& r = pushFrame(FK::React);
  r.before = before;
  r.a = fi;
  r.e = def_->numPlayers();
  return true;
}

RULESTACK_SMALL void Game::stepEvent(int fi) {
  for (;;) {
    Frame& f = st_.stack[fi];
    switch (f.stage) {
      case 0:
        f.stage = 1;
        if (!startEvent(f.ev)) {
          st_.stack.pop_back();
          return;
        }
        if ((f.halves & 1) && announce(fi, true)) return;
        break;
      case 1: {
        f.stage = 2;
        if (f.ev.cancelled) {  // a $Before reaction cancelled it: it does not happen
          st_.stack.pop_back();
          return;
        }
        int r = applyEvent(fi);
        if (r == 2) st_.stack.pop_back();
        if (r != 0) return;
        break;
      }
      case 2:
        f.stage = 3;
        if ((f.halves & 2) && announce(fi, false)) return;
        break;
      default:
        st_.stack.pop_back();
        return;
    }
  }
}

// What an event changes, between its halves: 0 done, 1 pushed more work, 2 did not happen.
RULESTACK_SMALL int Game::applyEvent(int fi) {
  const Def& d = *def_;
  Frame& f = st_.stack[fi];
  if (f.ev.type == Ev::PhaseExecute) {
    FrameCtx k;
    k.player = st_.active;
    k.evFrame = fi;
    return pushMuts(LK::OnEnter, f.ev.phase, -1, std::move(k)) ? 1 : 0;
  }
  if (!changeNow(f.ev, f.a)) return 2;
  if (f.ev.type != Ev::OnZoneEnter || !d.usesAttach) return 0;
  // attachments follow their host; out of play they are discarded (each a move of its own)
  int32_t e = f.ev.entity.v, zone = f.ev.zone.v, player = f.ev.player;
  bool active = d.zones[zoneDefOf(zone)].active;
  std::vector<Event> discard;
  for (int32_t a = d.numPlayers(); a < (int32_t)st_.ents.size(); a++) {
    if (st_.ents[a].host != e || !st_.ents[a].alive) continue;
    if (!active) {
      st_.ents[a].host = -1;
      if (d.discardZone >= 0) discard.push_back(moveEvent(a, playerZone(d.discardZone, st_.ents[a].owner), player));
      continue;
    }
    st_.zones[st_.ents[a].zone].takeOut(a);
    st_.zones[zone].push_back(a);
    st_.ents[a].zone = zone;
    rehandle(a);
  }
  emitAll(discard, 3, 0);
  return discard.empty() ? 0 : 1;
}

// ---- reactions and triggered actions (stepReact, startReaction): reactions.cpp ----

// ---- decisions: Game::answer is in legal_answers.cpp ----

// RequireDiscard: one player at a time (values: player, from zone, destination zone).
void Game::stepDiscard(int fi) {
  Frame& f = st_.stack[fi];
  while (f.pos + 3 <= (int32_t)f.values.size()) {
    int32_t p = f.values[f.pos].v, from = f.values[f.pos + 1].v, dest = f.values[f.pos + 2].v;
    f.pos += 3;
    int n = std::min<int>(f.a, (int)st_.zones[from].size());
    if (n <= 0) continue;
    Decision& dec = offer(DecisionKind::Discard, p, -1, -1, false, nullptr);
    dec.options = st_.zones[from].list();
    dec.count = n;
    dec.dest = dest;
    return;
  }
  st_.stack.pop_back();
}

// A frame that repeats `next` times: true for one more time, false (popped) when done.
bool Game::once(int fi) {
  Frame& f = st_.stack[fi];
  if (f.next <= 0) {
    st_.stack.pop_back();
    return false;
  }
  f.next--;
  return true;
}

// DrawCard for one player (a the player, b the zone drawn from, c the zone drawn to).
void Game::stepDraw(int fi) {
  while (once(fi)) {
    const Frame& f = st_.stack[fi];
    int32_t player = f.a, from = f.b, to = f.c, mover = f.ctx.player;
    if (st_.zones[from].empty()) {
      st_.stack.pop_back();
      Event ev;
      ev.type = Ev::DrawFailed;
      ev.player = player;
      emit(ev, 3);
      return;
    }
    if (emit(moveEvent(st_.zones[from].front(), to, mover), 3, 0)) return;
  }
}

// Create, one entity a step (a the template, b the zone, c the owner).
void Game::stepCreate(int fi) {
  while (once(fi)) {
    const Frame& f = st_.stack[fi];
    if (createOne(f.a, f.b, f.c, nullptr, f.ctx.player) || st_.over()) return;
  }
}

// The whole queue, last in first (settings.resolution: chain), then priority to the active
// player. The items that execute at once (execAtOnce: most of them) need no frame; from the
// first that does not, or a decision, a Chain frame resolves the rest (stepChain): the same
// order, the same state.
void Game::resolveChain() {
  const int32_t to = st_.active;
  // (traced, every item is a step of its own, as it always was)
  while (!trace && !st_.queue.empty() && !st_.over() && st_.decisions.empty() && failed_.empty()) {
    Item it = std::move(st_.queue.back());
    st_.queue.pop_back();
    if (execAtOnce(it, -1)) continue;
    pushFrame(FK::Chain).a = to;
    pushExec(std::move(it), -1);  // (an Exec frame: execAtOnce declines again, having changed nothing)
    return;
  }
  if (st_.over()) return;
  if (st_.queue.empty()) st_.priority = to;
  else pushFrame(FK::Chain).a = to;
}

// The whole queue, last in first, one item a step; then priority to player `a`.
void Game::stepChain(int fi) {
  if (st_.queue.empty()) {
    int32_t p = st_.stack[fi].a;
    st_.stack.pop_back();
    if (!st_.over()) st_.priority = p;
    return;
  }
  Item it = std::move(st_.queue.back());
  st_.queue.pop_back();
  pushExec(std::move(it), -1);
}

// ---- taking an action ----

void Game::takeAction(int player, const Move& m) {
  const Def& d = *def_;
  const Action& a = d.actions[m.action];
  // nothing can answer it (no ActionPlayed listener, a cost of plain arithmetic): at once
  bool quietTake = !trace && a.costAtOnce && !d.heard(Ev::ActionPlayed);
  Item local;
  Item& it = quietTake ? local : pushFrame(FK::Take).item;  // a reused frame keeps its lists' memory
  if (!quietTake) st_.stack.back().a = player;
  it.id = st_.nextItemId++;
  it.kind = ItemKind::Action;
  it.def = m.action;
  it.player = player;
  it.self = it.source = m.source;
  it.mode = m.mode;
  it.x = m.x;
  it.hasX = a.hasX;
  if (!m.targets.empty()) {  // (it has none yet: most moves have none)
    it.targets = m.targets;
    if (it.targets.size() > 1) inOrderSeen(it.targets, player);
  }
  Ctx c = actionCtx(player, m.source, m);
  c.targets = &it.targets;
  for (auto& kv : a.props) it.props.push_back({kv.first, Slot::of(eval(kv.second, c))});
  if (!quietTake) return;  // stepTake goes on
  c.props = &it.props;
  for (const Mutation& cm : a.cost) runOne(cm, c);
  Event ev = actionPlayed(it);
  countEvent();
  if (logging) logEvent(ev, true);
  st_.passes = 0;
  if (a.queue) pushItem(std::move(it));
  countEvent();
  if (logging) logEvent(ev, false);
  if (!a.queue) pushExec(std::move(it), player);
  else if (!st_.over()) st_.priority = nextInTurn(player);
}

// The card of an action being taken waits on the queue (no zone events: it is not entering
// play), and ActionPlayed says so.
Event Game::actionPlayed(const Item& it) {
  const Def& d = *def_;
  const Action& a = d.actions[it.def];
  int32_t src = it.source;
  Slot from;  // (where a played card came from: the log tells who sees it now, as a move would)
  if (a.play && src >= 0 && st_.ents[src].zone >= 0) {
    Entity& e = st_.ents[src];
    from = Slot{e.zone, VK::Zone};
    st_.zones[e.zone].takeOut(src);
    e.zone = d.queueZone;
    rehandle(src);
    st_.zones[d.queueZone].putOnTop(src);
  }
  Event ev;
  ev.type = Ev::ActionPlayed;
  ev.player = it.player;
  ev.named = a.nameSym;
  ev.entity = src >= 0 ? Slot{src, VK::Ent} : Slot{};
  ev.from = from;
  ev.item = it.id;
  return ev;
}

// Stages: 0 pay the cost; 1 the card waits on the queue, $Before.ActionPlayed; 2 cancelled,
// queued or executed at once; 3-4 $After.ActionPlayed then priority to the next player;
// 5-6 $After.ActionPlayed then execution, the same player keeping priority.
void Game::stepTake(int fi) {
  const Def& d = *def_;
  for (;;) {
    Frame& f = st_.stack[fi];
    const Action& a = d.actions[f.item.def];
    const int32_t player = f.a;
    switch (f.stage) {
      case 0: {
        f.stage = 1;
        FrameCtx k;
        k.player = player;
        k.self = k.selected = f.item.source;
        k.mode = f.item.mode;
        k.x = f.item.x;
        k.itemFrame = fi;
        if (pushMuts(LK::Cost, f.item.def, -1, std::move(k))) return;
        break;
      }
      case 1:
        f.stage = 2;
        f.ev = actionPlayed(f.item);
        if (announce(fi, true)) return;
        break;
      case 2:
        st_.passes = 0;
        if (f.ev.cancelled || f.item.cancelled) {
          Item it = std::move(f.item);
          st_.stack.pop_back();
          pushPriority(player);
          cancelItem(std::move(it));
          return;
        }
        if (a.queue) {
          f.stage = 3;
          pushItem(std::move(f.item));
          st_.stack[fi].item.id = -1;  // the queue holds it now
        } else {
          f.stage = 5;
        }
        break;
      case 3:
      case 5:
        f.stage++;
        if (announce(fi, false)) return;
        break;
      case 4:
        st_.stack.pop_back();
        if (!st_.over()) st_.priority = nextInTurn(player);
        return;
      default: {
        Item it = std::move(f.item);
        st_.stack.pop_back();
        pushExec(std::move(it), player);
        return;
      }
    }
  }
}

// ---- executing a queue item ----

bool Game::targetsStillValid(Item& it) {
  if (it.targets.empty()) return true;  // (most items: nothing to re-check, and no frame for it)
  return targetsKept(it);
}

// targetsStillValid's check: the targets that are still candidates are kept.
bool Game::targetsKept(Item& it) {
  const Def& d = *def_;
  const TargetSpec* spec = nullptr;
  if (it.kind == ItemKind::Action) spec = d.actions[it.def].targetSpec(it.mode);
  else if (it.kind == ItemKind::Triggered) spec = d.triggered[it.def].target.ifPresent();
  else spec = d.reactions[it.def].target.ifPresent();
  if (!spec) return true;
  Ctx c;
  c.player = it.player;
  c.self = it.self;
  c.selected = it.source;
  c.mode = it.mode;
  c.x = it.x;
  c.event = &it.event;
  c.props = &it.props;
  std::vector<Slot> cands;
  targetCandidates(*spec, c, cands);
  std::vector<Slot> kept;
  for (const Slot& t : it.targets)
    if (std::find(cands.begin(), cands.end(), t) != cands.end()) kept.push_back(t);
  it.targets = std::move(kept);
  return !it.targets.empty();
}

// Stages: 0 targets re-checked, $Before.@Action (a reaction or triggered item: its
// mutations); 1 the action's mutations; 2 its mode's; 3 a played card to the discard;
// 4 ActionExecuted; 5 $After.@Action; 6 done.
void Game::stepExec(int fi) {
  const Def& d = *def_;
  for (;;) {
    Frame& f = st_.stack[fi];
    Item& it = f.item;
    auto itemCtx = [&] {  // the item's own mutations see its player, source, targets, mode, X
      FrameCtx k;
      k.player = it.player;
      k.self = it.self;
      k.selected = it.source;
      k.mode = it.mode;
      k.x = it.x;
      k.itemFrame = fi;
      return k;
    };
    switch (f.stage) {
      case 0: {
        f.stage = 1;
        if (!targetsStillValid(it)) {
          f.stage = 6;
          cancelItem(Item(it));
          return;
        }
        f.ev = Event{};
        f.ev.type = Ev::Named;
        f.ev.player = it.player;
        f.ev.item = it.id;
        if (it.source >= 0) f.ev.entity = Slot{it.source, VK::Ent};
        else if (!it.targets.empty()) f.ev.entity = it.targets[0];
        if (it.kind == ItemKind::Action) {
          f.ev.named = d.actions[it.def].nameSym;
          if (announce(fi, true)) return;
          break;
        }
        // a queued reaction or triggered action: its mutations, answering its own event
        bool reaction = it.kind == ItemKind::Reaction;
        f.ev.named = reaction ? d.reactions[it.def].nameSym : d.triggered[it.def].nameSym;
        f.stage = 3;
        FrameCtx k = itemCtx();
        k.evFrame = fi;
        k.evInItem = true;
        if (pushMuts(reaction ? LK::Reaction : LK::Triggered, it.def, -1, std::move(k))) return;
        break;
      }
      case 1:
        if (f.ev.cancelled || it.cancelled) {
          f.stage = 6;
          cancelItem(Item(it));
          return;
        }
        f.stage = 2;
        if (pushMuts(LK::Action, it.def, -1, itemCtx())) return;
        break;
      case 2:
        f.stage = 3;
        if (it.mode >= 0 && !it.cancelled && pushMuts(LK::Mode, it.def, it.mode, itemCtx())) return;
        break;
      case 3: {
        f.stage = 4;
        if (it.kind != ItemKind::Action) break;
        const Action& a = d.actions[it.def];
        if (a.play && it.source >= 0 && st_.ents[it.source].zone == d.queueZone) {
          int zd = d.discardZone >= 0 ? d.discardZone : d.cancelZone;
          if (zd >= 0 && emit(moveEvent(it.source, playerZone(zd, ownerOf(it.source)), it.player), 3, 0)) return;
        }
        break;
      }
      case 4:
        f.stage = 5;
        if (itemLeft(Item(it), Ev::ActionExecuted, f.ev.named, f.ev.entity, false)) return;  // (the frame keeps its own)
        break;
      case 5:
        f.stage = 6;
        if (it.kind == ItemKind::Action && announce(fi, false)) return;
        break;
      default: {
        int32_t p = f.a;
        st_.stack.pop_back();
        if (p >= 0 && !st_.over()) st_.priority = p;
        return;
      }
    }
  }
}

// An item that leaves the queue stays findable a little while ($event.action) and says so
// (true: as a frame, which `framed` forces).
RULESTACK_SMALL bool Game::itemLeft(Item&& it, Ev type, int32_t named, Slot entity, bool framed) {
  Event ev;
  ev.type = type;
  ev.player = it.player;
  ev.item = it.id;
  // the last kRecentItems, in a ring: the newest takes the oldest's place
  if (st_.recent.size() < kRecentItems) st_.recent.push_back(std::move(it));
  else st_.recent[st_.recentAt] = std::move(it);
  st_.recentAt = (st_.recentAt + 1) % kRecentItems;
  ev.named = named;
  ev.entity = entity;
  if (!framed) return emit(ev, 2);
  pushEvent(ev, 2);
  return true;
}

// A cancelled item says so, and a cancelled card goes from the queue to the cache first.
void Game::cancelItem(Item&& it) {
  const Def& d = *def_;
  it.cancelled = true;
  bool card = false;
  if (it.kind == ItemKind::Action) {
    const Action& a = d.actions[it.def];
    card = a.play && it.source >= 0 && st_.ents[it.source].zone == d.queueZone;
  }
  int32_t source = it.source, player = it.player;
  int32_t named = it.kind == ItemKind::Action ? d.actions[it.def].nameSym : -1;
  Slot ent = source >= 0 ? Slot{source, VK::Ent} : Slot{};
  int zd = d.cancelZone >= 0 ? d.cancelZone : d.discardZone;
  if (!card || zd < 0) {
    itemLeft(std::move(it), Ev::ActionCancelled, named, ent, false);
    return;
  }
  Event move = moveEvent(source, playerZone(zd, ownerOf(source)), player);
  if (quiet(move, 3)) {  // the move, then ActionCancelled
    emit(move, 3, 0);
    itemLeft(std::move(it), Ev::ActionCancelled, named, ent, false);
  } else {  // the same order as frames: ActionCancelled under the move
    itemLeft(std::move(it), Ev::ActionCancelled, named, ent, true);
    pushEvent(move, 3, 0);
  }
}

}  // namespace rulestack
