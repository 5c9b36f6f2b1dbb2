// The flow of time and the priority loop: turns, phases, passing, taking actions,
// executing the queue, decisions. DESIGN.md "The queue and the priority loop" made code.
#include "rulestack/game.h"

#include <algorithm>

namespace rulestack {

namespace {
constexpr int kMaxAdvanceSteps = 2000000;
constexpr int kMaxTurnsWithoutInput = 100;
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

Game::Game(std::shared_ptr<const Def> def, uint64_t seed, bool log) : def_(std::move(def)) {
  logging = log;
  init(seed);
}

Game::Game(std::shared_ptr<const Def> def) : def_(std::move(def)) {}

int32_t Game::ownerOf(int32_t e) const { return e < 0 ? -1 : st_.ents[e].owner; }

// ---- the loop ----

void Game::advance() {
  const Def& d = *def_;
  int turnsWithoutInput = 0;
  for (int guard = 0;; guard++) {
    if (guard > kMaxAdvanceSteps) advanceLimit();
    if (st_.over()) {  // whatever was still to resolve is moot
      st_.priority = -1;
      st_.stack.clear();
      st_.decisions.clear();
      return;
    }
    if (!st_.decisions.empty()) return;  // the machine waits for an answer
    if (!st_.stack.empty()) {            // the machine first: resolution before the flow of time
      step();
      continue;
    }
    if (!st_.phaseStarted) {
      if (st_.phase < 0 || st_.phase >= (int)d.phases.size() || st_.endTurn) {
        // a new turn
        if (st_.turn > 0) {
          st_.active = nextInTurn(st_.active);
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
      // (a pass is listed last, and only once: a real move, if any, is first)
      if (movesCache_.empty() || movesCache_.front().kind == Move::Pass) {
        doPass(st_.priority);
        continue;
      }
      movesCachePlayer_ = st_.priority;  // the bot's next legalMoves() call reuses it
    }
    turnsWithoutInput = 0;
    return;
  }
}

// (apart from advance: the error's strings live in memory)
RULESTACK_SMALL void Game::advanceLimit() {
  throw RuntimeError("loop_limit", "the flow of time ran more than 2000000 steps without asking a player");
}

RULESTACK_APART void Game::startTurn() {
  const Def& d = *def_;
  st_.turn++;
  endDirty_ |= Def::kEndTurn | Def::kEndOther;  // (the turn, the active player, the phase)
  st_.phase = 0;
  st_.phaseStarted = false;
  st_.priority = -1;
  st_.passes = 0;
  size_t np = d.numProps;
  for (int p = 0; p < d.numPlayers(); p++)
    for (auto& kv : d.perTurn) {
      st_.props[(size_t)p * np + kv.first] = kv.second;
      endDirty_ |= d.endDirtyOf(kv.first);
    }
  if (checkEnd()) return;
  Event ev;
  ev.type = Ev::TurnStart;
  ev.player = st_.active;
  ev.turn = st_.turn;
  emit(ev, 3);
}

// The phase's on_enter mutations run between the halves of PhaseExecute (resolve.cpp).
RULESTACK_APART void Game::startPhase() {
  st_.phaseStarted = true;
  st_.priority = -1;
  st_.passes = 0;
  Event ev;
  ev.type = Ev::PhaseExecute;
  ev.player = st_.active;
  ev.phase = st_.phase;
  emit(ev, 3);
}

void Game::endPhase() {
  st_.phase++;
  st_.phaseStarted = false;
  st_.priority = -1;
  st_.passes = 0;
}

// The end conditions whose inputs changed since the last check (endDirty_), tested.
bool Game::checkEndNow() {
  const Def& d = *def_;
  const uint64_t dirty = endDirty_;
  endDirty_ = 0;
  for (const EndCondition& ec : d.ends) {
    if (!(ec.reads & dirty)) continue;  // false when last checked, and nothing it reads changed
    uint64_t bit = ec.guardBit;
    for (int p : d.turnOrder) {
      if (!ec.perPlayer && p != d.turnOrder.front()) break;  // the same for every player
      if (bit) {  // the first conjunct apart (the same order of evaluation)
        const uint64_t b = bit;
        bit <<= 1;
        if ((falseGuards_ & b) && !(ec.guardReads & dirty)) continue;
        if (ec.guardIsTurn ? st_.turn < ec.guardTurn : !holdsFor(ec.guard, ec.guardCmp, p)) { falseGuards_ |= b; continue; }
        falseGuards_ &= ~b;
        if (!holdsFor(ec.rest, ec.restCmp, p)) continue;
      } else if (!holdsFor(ec.when, ec.whenCmp, p)) {
        continue;
      }
      endFor(ec, p);
      return true;
    }
  }
  return false;
}

// A condition that held: the game ends, in a draw or with its winner. (Apart from
// checkEndNow, as the tests are: what needs a context in memory is not in the hot loop, which
// wasm would otherwise give a stack frame on every check.)
void Game::endFor(const EndCondition& ec, int player) {
  if (ec.draw) return endGame(-1);
  Ctx c;
  c.player = player;
  const int32_t winner = playerOf(eval(ec.winner, c));
  if (winner < 0) winnerError(ec);
  endGame(winner);
}

// q's comparison of player p's property (a missing player reads 0, as intOf does).
inline bool Game::compared(const PlayerCmp& q, int32_t p) const {
  const int32_t v = p < 0 ? 0 : propInt(p, q.prop);
  switch (q.op) {
    case N::LtConst: return v < q.k;
    case N::LeConst: return v <= q.k;
    case N::GtConst: return v > q.k;
    default: return v >= q.k;  // GeConst
  }
}

// test(e, c), e read in its fused form when it has one (evalBool's LeConst ... over a
// PlayerProp, without the calls).
bool Game::holds(const Expr& e, const PlayerCmp& q, const Ctx& c) const {
  return q.op == N::Const ? test(e, c) : compared(q, fusedPlayer(q.who, c));
}

// The same with $player.current = player. (One copy for checkEndNow's three tests.)
__attribute__((noinline)) bool Game::holdsFor(const Expr& e, const PlayerCmp& q, int player) const {
  return q.op == N::Const ? testAs(e, player) : compared(q, playerAt(q.who, player));
}

RULESTACK_APART void Game::endGame(int32_t winner) {
  if (st_.over()) return;
  st_.result = winner;
  st_.priority = -1;
  // said, not reacted to: nothing resolves after the end (advance() drops the stack)
  Event ev;
  ev.type = Ev::GameOver;
  ev.winner = winner;
  countEvent();
  logEvent(ev, false);
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
      // the top item executes (or, in a chain, the whole queue), then the active player acts
      if (d.chain) {
        resolveChain();
      } else {
        Item it = std::move(st_.queue.back());
        st_.queue.pop_back();
        pushExec(std::move(it), st_.active);
      }
    } else {
      endPhase();
    }
    return;
  }
  st_.priority = nextInTurn(player);
}

int Game::nextInTurn(int player) const {
  const auto& next = def_->nextInTurn;
  return player >= 0 && player < (int)next.size() ? next[player] : def_->turnOrder.front();
}

// A queue past its bound is a loop nobody can stop (each move adds more than resolves): the
// game ends in a draw, rather than refusing every move from then on.
void Game::pushItem(Item&& it) {
  if (st_.queue.size() >= kMaxQueue) return queueFull();
  st_.queue.push_back(std::move(it));
}

// (apart from pushItem: endGame's event lives in memory, and wasm would give pushItem a stack
// frame for it on every call)
void Game::queueFull() { endGame(-1); }

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

// (RULESTACK_SMALL: decisions are rare next to the moves around them; ~0.5 KB gzip of wasm)
RULESTACK_SMALL Decision& Game::offer(DecisionKind kind, int32_t player, int32_t def, int32_t self, bool optional, const Event* ev) {
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

const Item* Game::findItem(int32_t id) const {
  for (auto& it : st_.queue)
    if (it.id == id) return &it;
  for (size_t i = st_.stack.size(); i-- > 0;) {
    const Frame& f = st_.stack[i];
    if ((f.kind == FK::Take || f.kind == FK::Exec) && f.item.id == id) return &f.item;
  }
  if (quietItem_ && quietItem_->id == id) return quietItem_;
  for (auto& it : st_.recent)
    if (it.id == id) return &it;
  return nullptr;
}

Item* Game::findPending(int32_t id) {
  for (size_t i = st_.stack.size(); i-- > 0;) {
    Frame& f = st_.stack[i];
    if ((f.kind == FK::Take || f.kind == FK::Exec) && f.item.id == id) return &f.item;
  }
  if (quietItem_ && quietItem_->id == id) return quietItem_;  // executing at once, with no frame
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

// ---- applying moves ----

void Game::applyUnchecked(int player, const Move& m) {
  movesCachePlayer_ = -1;
  hoistOn_ = false;
  eventsThisMove_ = 0;
  quietCause_ = -1;
  quietItem_ = nullptr;
  switch (m.kind) {
    case Move::Pass: doPass(player); break;
    case Move::Take: takeAction(player, m); break;
    case Move::Answer: answer(player, m); break;
  }
  advance();
}

std::vector<int> Game::toAct() const {
  std::vector<int> out;
  int p = nextToAct();
  if (p >= 0) out.push_back(p);
  return out;
}

int Game::nextToAct() const {
  if (st_.over()) return -1;
  if (!st_.decisions.empty()) return decisionTurnPlayer();
  return st_.priority >= 0 ? st_.priority : -1;
}

}  // namespace rulestack
