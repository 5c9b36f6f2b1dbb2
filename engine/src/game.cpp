// The flow of time and the priority loop: turns, phases, passing, taking actions,
// executing the queue, decisions. DESIGN.md "The queue and the priority loop" made code.
#include "rulestack/game.h"

#include <algorithm>

namespace rulestack {

namespace {
constexpr int kMaxAdvanceSteps = 200000;
constexpr int kMaxTurnsWithoutInput = 100;
constexpr size_t kRecentItems = 8;
}  // namespace

bool Move::operator==(const Move& o) const {
  if (kind != o.kind) return false;
  switch (kind) {
    case Pass: return true;
    case Answer: return decision == o.decision && accept == o.accept && targets == o.targets;
    case Take:
      return action == o.action && source == o.source && targets == o.targets && mode == o.mode &&
             hasX == o.hasX && (!hasX || x == o.x);
  }
  return false;
}

Game::Game(std::shared_ptr<const Def> def, uint64_t seed) : def_(std::move(def)) { init(seed); }

Game::Game(std::shared_ptr<const Def> def) : def_(std::move(def)) {}

void Game::init(uint64_t seed) {
  const Def& d = *def_;
  int np = d.numPlayers();
  size_t nprops = d.propNames.size();
  st_ = State{};
  st_.ents.resize(np);
  for (int p = 0; p < np; p++) {
    st_.ents[p].owner = st_.ents[p].controller = p;
  }
  st_.props.assign((size_t)np * nprops, Slot{});
  for (int p = 0; p < np; p++) {
    for (auto& kv : d.playerProps) st_.props[(size_t)p * nprops + kv.first] = kv.second;
    for (auto& kv : d.perTurn) st_.props[(size_t)p * nprops + kv.first] = kv.second;
  }
  st_.zones.assign(d.numZoneInstances, {});
  st_.serials.assign(d.templates.size(), 0);
  st_.rng.seed(seed);
  st_.active = d.firstPlayer;
  Ctx c;
  c.player = d.firstPlayer;
  eventsThisMove_ = 0;
  run(d.setup, c);
  st_.started = true;
  eventsThisMove_ = 0;
  advance();
}

int32_t Game::ownerOf(int32_t e) const { return e < 0 ? -1 : st_.ents[e].owner; }

// ---- the loop ----

void Game::advance() {
  const Def& d = *def_;
  int turnsWithoutInput = 0;
  for (int guard = 0;; guard++) {
    if (guard > kMaxAdvanceSteps) throw RuntimeError("loop_limit", "the flow of time ran more than 200000 steps without asking a player");
    if (st_.over()) { st_.priority = -1; return; }
    if (!st_.decisions.empty()) return;
    if (!st_.phaseStarted) {
      if (st_.phase < 0 || st_.phase >= (int)d.phases.size() || st_.endTurn) {
        // a new turn
        if (st_.turn > 0) {
          auto& to = d.turnOrder;
          auto it = std::find(to.begin(), to.end(), st_.active);
          st_.active = (it == to.end() || it + 1 == to.end()) ? to.front() : *(it + 1);
        }
        if (++turnsWithoutInput > kMaxTurnsWithoutInput) {
          // nobody can ever act again and no end condition ends the game: a stalemate, a draw
          endGame(-1);
          continue;
        }
        st_.endTurn = false;
        startTurn();
        continue;
      }
      startPhase();
      continue;
    }
    if (st_.queue.empty()) {
      if (checkEnd()) continue;
      if (st_.endTurn) { st_.phaseStarted = false; st_.priority = -1; continue; }
      if (!d.phases[st_.phase].hasActions) { endPhase(); continue; }
    }
    if (st_.priority < 0) { st_.priority = st_.active; st_.passes = 0; }
    if (d.autoPass) {
      collectMoves(st_.priority, movesCache_, false);
      bool real = false;
      for (const Move& m : movesCache_) real = real || m.kind != Move::Pass;
      if (!real) {
        doPass(st_.priority);
        continue;
      }
      movesCachePlayer_ = st_.priority;  // the bot's next legalMoves() call reuses it
    }
    turnsWithoutInput = 0;
    return;
  }
}

void Game::startTurn() {
  const Def& d = *def_;
  st_.turn++;
  endDirty_ = true;
  st_.phase = 0;
  st_.phaseStarted = false;
  st_.priority = -1;
  st_.passes = 0;
  size_t np = d.propNames.size();
  for (int p = 0; p < d.numPlayers(); p++)
    for (auto& kv : d.perTurn) st_.props[(size_t)p * np + kv.first] = kv.second;
  if (checkEnd()) return;
  Event ev;
  ev.type = Ev::TurnStart;
  ev.player = st_.active;
  ev.turn = st_.turn;
  fire(ev, true);
  fire(ev, false);
}

void Game::startPhase() {
  const Def& d = *def_;
  st_.phaseStarted = true;
  st_.priority = -1;
  st_.passes = 0;
  Event ev;
  ev.type = Ev::PhaseExecute;
  ev.player = st_.active;
  ev.phase = st_.phase;
  fire(ev, true);
  if (ev.cancelled) return;
  Ctx c;
  c.player = st_.active;
  c.event = &ev;
  run(d.phases[st_.phase].onEnter, c);
  fire(ev, false);
}

void Game::endPhase() {
  st_.phase++;
  st_.phaseStarted = false;
  st_.priority = -1;
  st_.passes = 0;
}

bool Game::checkEnd() {
  const Def& d = *def_;
  if (st_.over()) return true;
  if (!endDirty_) return false;  // nothing changed since the last check
  endDirty_ = false;
  for (const EndCondition& ec : d.ends) {
    for (int p : d.turnOrder) {
      if (!ec.perPlayer && p != d.turnOrder.front()) break;  // the same for every player
      Ctx c;
      c.player = p;
      if (!eval(ec.when, c).truthy()) continue;
      if (ec.draw) { endGame(-1); return true; }
      Value w = eval(ec.winner, c);
      if (w.k() == VK::Ent && w.v() < d.numPlayers()) { endGame(w.v()); return true; }
      throw RuntimeError("runtime_error", "an end condition's winner is not a player");
    }
  }
  return false;
}

void Game::endGame(int32_t winner) {
  if (st_.over()) return;
  st_.result = winner;
  st_.priority = -1;
  Event ev;
  ev.type = Ev::GameOver;
  ev.winner = winner;
  fire(ev, false);
}

void Game::doPass(int player) {
  const Def& d = *def_;
  if (logging) {
    Event ev;
    ev.type = Ev::Count;  // a pass, logged only
    ev.player = player;
    logEvent(ev, false);
  }
  st_.passes++;
  if (st_.passes >= d.numPlayers()) {
    st_.passes = 0;
    if (!st_.queue.empty()) {
      if (d.chain) {
        while (!st_.queue.empty() && !st_.over()) resolveTop();
      } else {
        resolveTop();
      }
      st_.priority = st_.over() ? -1 : st_.active;
    } else {
      endPhase();
    }
    return;
  }
  auto& to = d.turnOrder;
  auto it = std::find(to.begin(), to.end(), player);
  st_.priority = (it == to.end() || it + 1 == to.end()) ? to.front() : *(it + 1);
}

void Game::resolveTop() {
  Item it = std::move(st_.queue.back());
  st_.queue.pop_back();
  executeItem(it);
}

void Game::pushItem(Item&& it) {
  if (st_.queue.size() >= 1000) throw RuntimeError("loop_limit", "the queue holds more than 1000 items");
  st_.queue.push_back(std::move(it));
}

Item Game::newItem(ItemKind kind, int32_t def, int32_t player, int32_t self, const Event* ev) {
  Item it;
  it.id = st_.nextItemId++;
  it.kind = kind;
  it.def = def;
  it.player = player;
  it.self = it.source = self;
  if (ev) it.event = *ev;
  return it;
}

Decision& Game::offer(DecisionKind kind, int32_t player, int32_t def, int32_t self, bool optional, const Event* ev) {
  Decision dc;
  dc.id = st_.nextDecisionId++;
  dc.kind = kind;
  dc.player = player;
  dc.def = def;
  dc.self = self;
  dc.optional = optional;
  if (ev) dc.event = *ev;
  st_.decisions.push_back(std::move(dc));
  return st_.decisions.back();
}

// Items that just left the queue stay findable a little while ($event.action); dropped in
// halves, not one at a time (each is a few vectors to move).
void Game::trimRecent() {
  if (st_.recent.size() >= 2 * kRecentItems)
    st_.recent.erase(st_.recent.begin(), st_.recent.begin() + (st_.recent.size() - kRecentItems));
}

const Item* Game::findItem(int32_t id) const {
  for (auto& it : st_.queue)
    if (it.id == id) return &it;
  if (pending_ && pending_->id == id) return pending_;
  for (auto* it : executing_)
    if (it->id == id) return it;
  for (auto& it : st_.recent)
    if (it.id == id) return &it;
  return nullptr;
}

Item* Game::findQueued(int32_t id) {
  for (auto& it : st_.queue)
    if (it.id == id) return &it;
  return nullptr;
}

// ---- taking, executing, cancelling ----

Ctx Game::actionCtx(int player, int source, const Move& m) const {
  Ctx c;
  c.player = player;
  c.self = c.selected = source;
  c.targets = &m.targets;
  c.mode = m.mode;
  c.x = m.x;
  return c;
}

void Game::takeAction(int player, const Move& m) {
  const Def& d = *def_;
  const Action& a = d.actions[m.action];
  Item it = newItem(ItemKind::Action, m.action, player, m.source, nullptr);
  it.mode = m.mode;
  it.x = m.x;
  it.hasX = a.hasX;
  it.targets = m.targets;
  Ctx c = actionCtx(player, m.source, m);
  c.targets = &it.targets;
  for (auto& kv : a.props) it.props.push_back({kv.first, Slot::of(eval(kv.second, c))});
  c.props = &it.props;
  pending_ = &it;
  struct Reset { Item*& p; ~Reset() { p = nullptr; } } reset{pending_};
  run(a.cost, c);
  if (a.play && m.source >= 0) {
    // the card waits on the queue (no zone events: it is not entering play)
    Entity& e = st_.ents[m.source];
    auto& from = st_.zones[e.zone];
    from.erase(std::find(from.begin(), from.end(), m.source));
    e.zone = d.queueZone;
    st_.zones[d.queueZone].insert(st_.zones[d.queueZone].begin(), m.source);
  }
  Event ev;
  ev.type = Ev::ActionPlayed;
  ev.player = player;
  ev.named = a.nameSym;
  ev.entity = m.source >= 0 ? Slot{m.source, VK::Ent} : Slot{};
  ev.item = it.id;
  fire(ev, true);
  st_.passes = 0;
  if (ev.cancelled || it.cancelled) {
    cancelItem(it);
    st_.priority = player;
    return;
  }
  if (a.queue) {
    pushItem(std::move(it));
    pending_ = nullptr;
    fire(ev, false);
    auto& to = d.turnOrder;
    auto pi = std::find(to.begin(), to.end(), player);
    if (!st_.over()) st_.priority = (pi == to.end() || pi + 1 == to.end()) ? to.front() : *(pi + 1);
  } else {
    fire(ev, false);
    pending_ = nullptr;
    executeItem(it);
    if (!st_.over()) st_.priority = player;
  }
}

bool Game::targetsStillValid(Item& it) {
  const Def& d = *def_;
  const TargetSpec* spec = nullptr;
  Ctx c;
  c.player = it.player;
  c.self = it.self;
  c.selected = it.source;
  c.mode = it.mode;
  c.x = it.x;
  c.event = &it.event;
  c.props = &it.props;
  if (it.kind == ItemKind::Action) {
    const Action& a = d.actions[it.def];
    if (a.target.present) spec = &a.target;
    else if (it.mode >= 0 && a.modes[it.mode].target.present) spec = &a.modes[it.mode].target;
  } else if (it.kind == ItemKind::Triggered) {
    if (d.triggered[it.def].target.present) spec = &d.triggered[it.def].target;
  }
  if (!spec || it.targets.empty()) return true;
  std::vector<Slot> cands;
  targetCandidates(*spec, c, cands);
  std::vector<Slot> kept;
  for (const Slot& t : it.targets)
    if (std::find(cands.begin(), cands.end(), t) != cands.end()) kept.push_back(t);
  it.targets = std::move(kept);
  return !it.targets.empty();
}

void Game::executeItem(Item& it) {
  const Def& d = *def_;
  executing_.push_back(&it);
  struct Pop { std::vector<Item*>& v; ~Pop() { v.pop_back(); } } pop{executing_};
  int32_t savedCause = cause_;
  cause_ = it.id;
  struct Restore { int32_t& c; int32_t v; ~Restore() { c = v; } } restore{cause_, savedCause};

  if (!targetsStillValid(it)) {
    cancelItem(it);
    return;
  }
  Ctx c;
  c.player = it.player;
  c.self = it.self;
  c.selected = it.source;
  c.targets = &it.targets;
  c.mode = it.mode;
  c.x = it.x;
  c.props = &it.props;
  Event ev;
  ev.type = Ev::Named;
  ev.player = it.player;
  ev.item = it.id;
  if (it.source >= 0) ev.entity = Slot{it.source, VK::Ent};
  else if (!it.targets.empty()) ev.entity = it.targets[0];
  if (it.kind == ItemKind::Action) {
    const Action& a = d.actions[it.def];
    ev.named = a.nameSym;
    fire(ev, true);
    if (ev.cancelled || it.cancelled) {
      cancelItem(it);
      return;
    }
    run(a.mutations, c);
    if (it.mode >= 0 && !it.cancelled && !st_.over()) run(a.modes[it.mode].mutations, c);
    if (a.play && it.source >= 0 && st_.ents[it.source].zone == d.queueZone) {
      int zd = d.discardZone >= 0 ? d.discardZone : d.cancelZone;
      if (zd >= 0) moveEntity(it.source, playerZone(zd, ownerOf(it.source)), false, c);
    }
  } else {
    // a queued reaction or triggered action: its mutations, answering its own event
    bool reaction = it.kind == ItemKind::Reaction;
    const std::string& name = reaction ? d.reactions[it.def].name : d.triggered[it.def].name;
    ev.named = reaction ? d.reactions[it.def].nameSym : d.triggered[it.def].nameSym;
    c.event = &it.event;
    chain_.push_back(&name);
    run(reaction ? d.reactions[it.def].mutations : d.triggered[it.def].mutations, c);
    chain_.pop_back();
  }
  itemLeft(it, Ev::ActionExecuted, ev.named, ev.entity);
  if (it.kind == ItemKind::Action) fire(ev, false);
}

// An item that leaves the queue stays findable a little while ($event.action) and says so.
void Game::itemLeft(const Item& it, Ev type, int32_t named, Slot entity) {
  st_.recent.push_back(it);
  trimRecent();
  Event ev;
  ev.type = type;
  ev.player = it.player;
  ev.item = it.id;
  ev.named = named;
  ev.entity = entity;
  fire(ev, false);
}

void Game::cancelItem(Item& it) {
  const Def& d = *def_;
  it.cancelled = true;
  if (it.kind == ItemKind::Action) {
    const Action& a = d.actions[it.def];
    if (a.play && it.source >= 0 && st_.ents[it.source].zone == d.queueZone) {
      int zd = d.cancelZone >= 0 ? d.cancelZone : d.discardZone;
      Ctx c;
      c.player = it.player;
      if (zd >= 0) moveEntity(it.source, playerZone(zd, ownerOf(it.source)), false, c);
    }
  }
  itemLeft(it, Ev::ActionCancelled, it.kind == ItemKind::Action ? d.actions[it.def].nameSym : -1,
           it.source >= 0 ? Slot{it.source, VK::Ent} : Slot{});
}

// ---- decisions ----

int Game::decisionTurnPlayer() const {
  const Def& d = *def_;
  if (st_.decisions.empty()) return -1;
  auto& to = d.turnOrder;
  auto start = std::find(to.begin(), to.end(), st_.active);
  size_t s = start == to.end() ? 0 : (size_t)(start - to.begin());
  for (size_t k = 0; k < to.size(); k++) {
    int p = to[(s + k) % to.size()];
    for (auto& dec : st_.decisions)
      if (dec.player == p) return p;
  }
  return st_.decisions.front().player;
}

void Game::answer(int player, const Move& m) {
  const Def& d = *def_;
  auto di = std::find_if(st_.decisions.begin(), st_.decisions.end(), [&](const Decision& x) { return x.id == m.decision; });
  Decision dec = *di;
  st_.decisions.erase(di);
  if (!m.accept) return;
  Ctx c;
  c.player = player;
  c.self = c.selected = dec.self;
  c.event = &dec.event;
  c.targets = &m.targets;
  switch (dec.kind) {
    case DecisionKind::Discard:
      for (const Slot& s : m.targets) moveEntity(s.v, dec.dest, false, c);
      break;
    case DecisionKind::Reaction: {
      const Reaction& r = d.reactions[dec.def];
      if (r.queue) {
        pushItem(newItem(ItemKind::Reaction, dec.def, player, dec.self, &dec.event));
        break;
      }
      chain_.push_back(&r.name);
      if (r.action >= 0) run(d.actions[r.action].cost, c);
      run(r.mutations, c);
      if (r.action >= 0) run(d.actions[r.action].mutations, c);
      chain_.pop_back();
      break;
    }
    case DecisionKind::Trigger: {
      const Triggered& t = d.triggered[dec.def];
      Item it = newItem(ItemKind::Triggered, dec.def, player, dec.self, &dec.event);
      it.targets = m.targets;
      if (t.queue) {
        pushItem(std::move(it));
        st_.passes = 0;
        auto& to = d.turnOrder;
        auto pi = std::find(to.begin(), to.end(), player);
        if (st_.priority >= 0) st_.priority = (pi == to.end() || pi + 1 == to.end()) ? to.front() : *(pi + 1);
      } else {
        executeItem(it);
      }
      break;
    }
  }
}

// ---- applying moves ----

void Game::applyUnchecked(int player, const Move& m) {
  movesCachePlayer_ = -1;
  eventsThisMove_ = 0;
  depth_ = 0;
  chain_.clear();
  switch (m.kind) {
    case Move::Pass: doPass(player); break;
    case Move::Take: takeAction(player, m); break;
    case Move::Answer: answer(player, m); break;
  }
  advance();
}

std::string Game::apply(int player, const Move& m, std::string* message) {
  std::string reason = check(player, m, message);
  if (!reason.empty()) return reason;
  State backup = st_;
  size_t logSize = log.size();
  auto rollback = [&] {
    resetEval();
    movesCachePlayer_ = -1;
    st_ = std::move(backup);
    log.resize(logSize);
    pending_ = nullptr;
    executing_.clear();
    chain_.clear();
    endDirty_ = true;
  };
  try {
    applyUnchecked(player, m);
  } catch (const RuntimeError& e) {
    rollback();
    if (message) *message = e.what();
    return e.reason;
  } catch (const std::exception& e) {  // out of memory and the like: still transactional
    rollback();
    if (message) *message = std::string("internal error: ") + e.what();
    return "runtime_error";
  }
  return "";
}

std::string Game::runMutations(const std::vector<Mutation>& ms, std::string* message) {
  movesCachePlayer_ = -1;
  State backup = st_;
  size_t logSize = log.size();
  try {
    eventsThisMove_ = 0;
    Ctx c;
    c.player = st_.active;
    run(ms, c);
    advance();
  } catch (const RuntimeError& e) {
    resetEval();
    st_ = std::move(backup);
    log.resize(logSize);
    endDirty_ = true;
    if (message) *message = e.what();
    return e.reason;
  } catch (const std::exception& e) {
    resetEval();
    st_ = std::move(backup);
    log.resize(logSize);
    endDirty_ = true;
    if (message) *message = std::string("internal error: ") + e.what();
    return "runtime_error";
  }
  return "";
}

std::vector<int> Game::toAct() const {
  std::vector<int> out;
  if (st_.over()) return out;
  if (!st_.decisions.empty()) {
    out.push_back(decisionTurnPlayer());
    return out;
  }
  if (st_.priority >= 0) out.push_back(st_.priority);
  return out;
}

}  // namespace rulestack
