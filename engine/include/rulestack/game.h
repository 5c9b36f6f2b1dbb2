// The game: one loaded definition plus one state, and the whole contract on it —
// legal moves, apply, clone (copy), view, hash. Rules never depend on search or I/O.
#pragma once
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "rulestack/def.h"
#include "rulestack/state.h"

// Code off the hot path that -O3 would inline and grow (a frame's bookkeeping, a decision
// offered, an error's message): a call of its own, compiled for size in wasm (clang's minsize;
// the files in CMakeLists.txt's RULESTACK_COLD_SOURCES are so as a whole).
#if defined(__clang__)
#define RULESTACK_SMALL __attribute__((noinline, minsize))
#else
#define RULESTACK_SMALL __attribute__((noinline))
#endif

// A small function on the hot path that clang's size heuristics leave as a call in wasm, where
// a call costs more than natively (no register survives it), but that profile feedback would
// inline (native builds have it; wasm has none): inlined by hand. Measured on the wasm build,
// side by side: operateProp, drawNow, quietDraw and fusedPlayer 13 B gzip smaller, random Duel
// games 1.02-1.04x, MCTS 1.025x; then quickProp, amount and changeNow +0.7 KB, random games
// 1.01-1.05x, MCTS 1.03-1.10x (the range over the two orders of loading the modules). (g++ has
// its profile, and would refuse the attribute where the body is in another file.)
#if defined(__clang__)
#define RULESTACK_INLINE __attribute__((always_inline))
#else
#define RULESTACK_INLINE
#endif

// A step of a hot loop that makes an event (whose address is taken, so it lives in memory):
// a call of its own in clang builds (for wasm's sake: LLVM would set up the stack frame it
// needs in linear memory at the entry of the loop's function, on every call, whichever branch
// runs); g++ builds inline as they will.
#if defined(__clang__)
#define RULESTACK_APART __attribute__((noinline))
#else
#define RULESTACK_APART
#endif

namespace rulestack {

struct Move {
  enum Kind : uint8_t { Pass, Take, Answer } kind = Pass;
  int32_t action = -1;     // action index (Take)
  int32_t source = -1;     // entity (Take, when the action has a source)
  std::vector<Slot> targets;
  int32_t mode = -1;
  int32_t x = 0;
  bool hasX = false;
  int32_t decision = -1;   // decision id (Answer)
  bool accept = true;
  bool operator==(const Move& o) const;
};

// A definition error found while the game runs (a bad value, a loop): see Game::apply.
struct RuntimeError : std::runtime_error {
  std::string reason;
  RuntimeError(std::string r, const std::string& msg) : std::runtime_error(msg), reason(std::move(r)) {}
};

struct LogEntry {
  Event ev;
  bool before = false;
  int32_t cause = -1;      // item id that was executing, or -1
  // Who could not identify the event's entity / source when it was logged (bit p: player p,
  // kSpectator: the spectator) and the handles they knew them by; `revealed`: who could not
  // identify the entity before this move and can now (hPrev: its handle before).
  static constexpr uint32_t kSpectator = 1u << 31;
  uint32_t hidEnt = 0, hidSrc = 0, revealed = 0;
  int32_t hEnt = 0, hSrc = 0, hPrev = 0;
  std::shared_ptr<const RuntimeError> error;  // GameError: what failed
};

// What an expression sees besides the state.
struct Ctx {
  int32_t player = -1;     // $player.current
  int32_t self = -1, selected = -1;
  const std::vector<Slot>* targets = nullptr;
  Value candidate, item;
  int32_t x = 0, mode = -1;
  Event* event = nullptr;   // mutable: $Before reactions change or cancel it
  const std::vector<std::pair<int32_t, Slot>>* props = nullptr;  // action properties being built
};

class Game {
 public:
  // logging false: no log from the setup on (simulations, benchmarks: nobody reads it)
  Game(std::shared_ptr<const Def> def, uint64_t seed, bool logging = true);
  // An empty game to restore a snapshot into.
  explicit Game(std::shared_ptr<const Def> def);

  // A copy for search: same state, no log.
  Game clone() const {
    Game g(def_);
    g.copyFrom(*this);
    return g;
  }
  // Becomes what o.clone() would be, reusing this game's memory (a bot's loop of playouts
  // copies one state many times: assignment keeps the vectors' capacity, no allocation).
  void copyFrom(const Game& o) {
    if (def_ != o.def_) std::fill(flowMemo_, flowMemo_ + Def::kFlowTable, 0);
    def_ = o.def_;
    st_ = o.st_;
    propsVary_ = o.propsVary_;
    extra_ = o.extra_;
    setupStart_ = o.setupStart_;
    logging = false;
    trace = nullptr;
    freshRun();
  }
  // Becomes Game(def(), seed, logging) in this game's memory: a simulation plays its games
  // one after another in one Game, with no allocation once the lists have grown.
  void restart(uint64_t seed);
  const Def& def() const { return *def_; }
  std::shared_ptr<const Def> defPtr() const { return def_; }
  const State& state() const { return st_; }
  State& mutableState() {
    endDirty_ = ~0ull;
    movesCachePlayer_ = -1;
    hoistOn_ = false;
    propsVary_ = true;
    entsIndexed_ = false;
    return st_;
  }
  // The state for a bot's deal (determinize), which exchanges whole identities between
  // entities, a template with its properties: whether a property differs from its template's
  // is as it was (an MCTS playout keeps the shortcuts of propsVary_).
  State& dealState() {
    const bool vary = propsVary_;
    State& s = mutableState();
    propsVary_ = vary;
    return s;
  }

  // Players who may move now (decision holders, or the priority player).
  std::vector<int> toAct() const;
  // The first of toAct() (the one a bot moves for), -1 when nobody may act: no allocation.
  int nextToAct() const;
  void legalMoves(int player, std::vector<Move>& out) const;
  // The same moves without a copy: the game's own list when it has them (valid until the
  // next change of the state), else `scratch` filled.
  const std::vector<Move>& movesOf(int player, std::vector<Move>& scratch) const;
  // "" when legal, else the reason code (and a message).
  std::string check(int player, const Move& m, std::string* message) const;
  // Applies a move after checking it. A run-time error (a division by zero, a loop limit)
  // never leaves the game stuck: when an item that was already waiting (not this move's own
  // action) fails, the move is tried again with that item cancelled (a GameError says why);
  // when a pass or an answer fails outside any item, the game ends in a draw (GameError,
  // GameOver). Otherwise (a failing action of this move, out of memory) the move is refused
  // with the reason and the state is unchanged.
  std::string apply(int player, const Move& m, std::string* message);
  // Applies a move known to be legal (bots): no backup, no legality check.
  void applyUnchecked(int player, const Move& m);
  // Engine-side mutations (scenarios' `do`): runs them as the active player.
  std::string runMutations(const std::vector<Mutation>& ms, std::string* message);

  uint64_t hash() const { return hashState(st_); }
  size_t extraLists() const { return extra_.size(); }

  // Expressions (used by views, scenarios and the engine itself).
  Value eval(const Expr& e, const Ctx& c) const;
  void evalList(const Expr& e, const Ctx& c, std::vector<Value>& out) const;
  // e is one player or entity ($player.current, $entity.self, ...): never a list
  bool singleValued(const Expr& e) const;
  bool test(const Expr& e, const Ctx& c) const;       // eval(e, c).truthy(); absent: false
  int32_t number(const Expr& e, const Ctx& c) const;  // asInt(eval(e, c)); absent: 0
  int32_t prop(int32_t ent, int32_t p) const;  // derived (effects applied), as int
  __attribute__((noinline)) Value propValue(int32_t ent, int32_t p) const;
  int32_t propInt(int32_t ent, int32_t p) const;
  int32_t intOf(int n, const Ctx& c) const;
  int32_t amount(const Expr& e, const Ctx& c) const;  // number(e, c), the common leaves read in place
  int32_t selfPropInt(const Node& nd, const Ctx& c) const;  // a SelfProp node as a number
  int32_t singleOf(const Expr& e, const Ctx& c) const;  // a singleValued e's player or entity, -1: none

  // Names
  std::string entityId(int32_t e) const;
  std::string zoneId(int32_t z) const;
  int32_t findEntity(const std::string& id) const;
  int32_t findZone(const std::string& id) const;
  int32_t findPlayer(const std::string& id) const;
  std::string slotId(Slot s) const;   // an entity / zone / player id
  Slot parseTarget(const std::string& id) const;

  // Hidden information. A viewer is a player index, -1 the spectator, -2 the full record.
  // A viewer sees the entities of a zone its visibility shows them, and identifies an entity
  // there unless its template is face down and the viewer is not its owner. An entity the
  // viewer may not identify is named by its handle ("?3fa9c2d1"): not its template, not its
  // creation order, and a new one after every move.
  bool seesZone(int32_t z, int viewer) const;
  bool identifies(int viewer, int32_t e) const;
  bool identifiesIn(int viewer, int32_t e, int32_t zone) const;  // were it in that zone
  uint32_t handleCode(int32_t handle) const;  // what handleName writes
  std::string handleName(int32_t handle) const;
  std::string entityIdFor(int32_t e, int viewer) const;
  std::string slotIdFor(Slot s, int viewer) const;
  // An id as that viewer may write it: a handle for what they may not identify, never the
  // real id of such an entity (no probing with ids). Null slot when unknown.
  Slot parseTargetFor(const std::string& id, int viewer) const;
  int32_t findEntityFor(const std::string& id, int viewer) const;
  // The engine keeps targets and lists moves in the order the entities were made, which for
  // entities the viewer may not identify would tell which is which. A target's key in the
  // order the viewer is shown targets in (equal keys keep the engine's order): 0 for those it
  // identifies, first; a hidden one's by its handle (which says nothing). orderAsSeen: the
  // indexes of `moves` with each run of one action's (or one decision's) moves that shows a
  // handle sorted by its source's key, then its targets' (what the viewer is shown, and what a
  // fair bot chooses from).
  uint32_t seenKey(const Slot& t, int viewer) const;
  // the next of `targets` in that order from `from` on, as key << 32 | index (~0: none left)
  uint64_t nextAsSeen(const std::vector<Slot>& targets, int viewer, uint64_t from) const;
  std::vector<uint32_t> orderAsSeen(const std::vector<Move>& moves, int viewer) const;
  int32_t zoneOwner(int32_t z) const;
  int32_t zoneDefOf(int32_t z) const;

  bool logging = true;
  std::vector<LogEntry> log;
  // Tools: when set, every step the resolution machine runs is appended here (cheap when null).
  struct TraceStep {
    FK kind;
    uint8_t stage;
    int32_t depth;   // stack size when the step ran
    LK lk;
    int32_t li, lj, index;  // the mutation list and the mutation (Muts/ForEach)
    Event ev;        // Event/React/Take/Exec: the event
    int32_t item;    // Take/Exec: item id
  };
  std::vector<TraceStep>* trace = nullptr;

 private:
  friend struct Runner;
  std::shared_ptr<const Def> def_;
  State st_;
  mutable std::vector<Value> scratch_;
  int eventsThisMove_ = 0;
  uint64_t endDirty_ = ~0ull;  // Def::endBit of what changed since the end conditions were checked
  // EndCondition::guardBit of the guards that were false at the last check (meaningful where
  // what a guard reads is not in endDirty_)
  uint64_t falseGuards_ = 0;
  // Whether an entity's property may differ from its template's (a player's aside): one was
  // set, an entity was promoted, or the state came from outside (mutableState). Until then
  // identical cards are known identical without comparing their properties, and an Own cost is
  // the template's for every card of it (collectFromZone).
  bool propsVary_ = false;
  // The legal moves of the priority player, computed when advance() decided whether to
  // pass for them automatically; valid until the state changes.
  mutable std::vector<Move> movesCache_;
  mutable int movesCachePlayer_ = -1;
  // Mutation lists that are not part of the definition (scenarios' `do`), by LK::Extra index.
  std::vector<std::vector<Mutation>> extra_;
  std::vector<Event> evScratch_;  // an operation's events, before they are emitted
  // applyOp's target lists, one per nesting level (an operation's events may run another)
  std::vector<std::vector<Value>> targetPool_;
  int targetDepth_ = 0;
  int32_t quietCause_ = -1;       // the item executing at once (execAtOnce), for the log
  Item* quietItem_ = nullptr;     // ... and the item itself, while its mutations run (findPending)
  int64_t steps_ = 0;  // machine steps in this move (bounded)
  // The items that failed at run time in this move's earlier tries (apply), with the error:
  // the next try cancels them when they would execute. (The functions: failures.cpp.)
  std::vector<std::pair<int32_t, std::shared_ptr<const RuntimeError>>> failed_;
  // Where every seed's setup is still the same (before its first draw from the RNG), kept by
  // the first restart without a log or trace: the later ones start from there (game_start.cpp).
  struct SetupStart;
  std::shared_ptr<const SetupStart> setupStart_;
  const std::shared_ptr<const RuntimeError>* failureOf(int32_t item) const;
  void abortItem(int fi, const std::shared_ptr<const RuntimeError>& e);
  void failItem(Item&& it, int32_t priorityTo, const std::shared_ptr<const RuntimeError>& e);
  void logError(const std::shared_ptr<const RuntimeError>& e, const Item* it);
  void rollbackTo(State backup, size_t logSize, size_t traceSize);  // (moved in where it is not needed again: no allocation)
  std::string chainNames() const;  // the reactions running, for a loop error

  // keepStart: also keeps where the setup starts to depend on the seed (setupStart_)
  void init(uint64_t seed, bool keepStart = false);
  void seedRng(uint64_t seed);
  void keepSetupStart();
  // No log and nothing left of a move (caches, counters, the evaluator's depth: a playout
  // that threw may have left it mid-expression).
  void freshRun() {
    log.clear();
    eventsThisMove_ = 0;
    endDirty_ = ~0ull;
    movesCachePlayer_ = -1;
    targetDepth_ = 0;
    quietCause_ = -1;
    quietItem_ = nullptr;
    steps_ = 0;
    failed_.clear();
    hoistOn_ = false;
    entsIndexed_ = false;
    resetEval();
  }
  void rehandle(int32_t e) {  // a change of place: a new handle
    st_.ents[e].prevHandle = st_.ents[e].handle;
    st_.ents[e].handle = st_.nextHandle++;
  }
  __attribute__((noinline)) Value withEffects(int32_t ent, int32_t p, Value base) const;
  Value evalNode(int n, const Ctx& c) const;
  bool evalBool(int n, const Ctx& c) const;
  bool holds(const Expr& e, const PlayerCmp& q, const Ctx& c) const;
  bool holdsFor(const Expr& e, const PlayerCmp& q, int player) const;
  bool compared(const PlayerCmp& q, int32_t p) const;
  __attribute__((noinline)) void endFor(const EndCondition& ec, int player);
  [[noreturn]] void winnerError(const EndCondition& ec) const;  // (failures.cpp: compiled for size)
  __attribute__((noinline)) bool compare(int n, const Ctx& c) const;  // (of evalBool)
  int32_t evalInt(int n, const Ctx& c) const;
  __attribute__((noinline)) Value evalCold(int n, const Ctx& c) const;  // the rarer nodes
  Value member(Value obj, int sym, const Ctx& c) const;
  // the list of what was put in the scratch from `off` on
  Value listFrom(int32_t off) const { return Value::list(off, (int32_t)scratch_.size() - off); }
  int32_t elemCount(Value v) const;
  Value elemAt(Value v, int32_t i) const;
  template <class F>
  Value zonesOf(Value list, F f) const;
  Value zonesOfEntities(Value list) const;
  Value live(int32_t e) const;
  Value liveValue(Value v) const;
  __attribute__((noinline)) bool same(Value a, Value b) const;  // (ids compared as text: rare)
  bool equal(Value a, Value b) const;
  bool sameList(Value a, Value b) const;
  bool truth(Value v) const;  // a condition's value: a zone holds when not empty
  int32_t opponentOf(int32_t player) const;  // the next player in turn order, -1 for none
  int32_t fusedPlayer(int32_t a, const Ctx& c) const;  // a fused node's player (PlayerProp)
  int32_t playerAt(int32_t a, int32_t current) const;  // the same, $player.current = current
  static int32_t fusedSelf(int32_t a, const Ctx& c) { return a == 0 ? c.self : c.selected; }  // SelfProp, SelfInZone
  static void resetEval();  // after an exception unwound an evaluation
  void flatten(Value v, std::vector<Value>& out) const;

  // flow (game.cpp)
  void advance();
  void startTurn();
  [[noreturn]] void advanceLimit();
  void startPhase();
  void endPhase();
  bool checkEnd() {  // (most checks find nothing changed: no call)
    if (st_.over()) return true;
    return endDirty_ && checkEndNow();
  }
  bool checkEndNow();
  void doPass(int player);
  void takeAction(int player, const Move& m);
  Event actionPlayed(const Item& it);
  void answer(int player, const Move& m);
  void pushItem(Item&& it);
  __attribute__((noinline)) void queueFull();
  // A new queue item / pending decision with the next id (the caller fills the rest).
  Item newItem(ItemKind kind, int32_t def, int32_t player, int32_t self, const Event* ev);
  Decision& offer(DecisionKind kind, int32_t player, int32_t def, int32_t self, bool optional, const Event* ev);
  void collectMoves(int player, std::vector<Move>& out, bool firstOnly) const;
  __attribute__((noinline)) void collectFromSources(int player, int ai, std::vector<Move>& out, const Expr* perSource) const;
  __attribute__((noinline)) bool testAs(const Expr& e, int player) const;
  __attribute__((noinline)) bool canPayFrom(const Action& a, int player, int32_t source) const;
  __attribute__((noinline)) void startHoisting() const;  // (of collectMoves: rare, apart)
  // the last perAction tested in one enumeration (Action::perActionKey) and its result
  struct PerActionMemo { int key = -1; bool result = false; };
  void collectFromZone(int player, int ai, std::vector<Move>& out, bool firstOnly, bool allOrNone) const;
  void collectEach(int player, const Phase& ph, std::vector<Move>& out, bool firstOnly) const;
  bool collectZonePhase(int player, const Phase& ph, std::vector<Move>& out) const;
  bool perActionHolds(const Action& a, int player, PerActionMemo& memo) const;
  bool testPerAction(const Action& a, int player) const;
  void collectAnswers(int player, std::vector<Move>& out) const;  // (decisions: legal_answers.cpp)
  void discardOptions(const Decision& dec, std::vector<int32_t>& opts) const;
  bool offerSpec(int player, const Decision& dec, Event& ev, Ctx& c, const TargetSpec*& spec) const;
  bool answerPicked(int player, const Decision& dec, const std::vector<Slot>& picked) const;  // (reasons.cpp)
  bool sameProperties(int32_t a, int32_t b) const;
  bool hasRealMove(int player) const;
  int nextInTurn(int player) const;

  // the resolution machine (resolve.cpp)
  void step();
  void traceFrame(int fi);
  Frame& pushFrame(FK kind);
  bool pushMuts(LK lk, int32_t li, int32_t lj, FrameCtx&& ctx);  // false: no frame (empty, or ran at once)
  void pushMutsFrame(LK lk, int32_t li, int32_t lj, FrameCtx&& ctx);
  void runAtOnce(const std::vector<Mutation>& ms, const Ctx& c);
  void pushEvent(const Event& ev, uint8_t halves, int32_t a = -1);
  Event moveEvent(int32_t e, int32_t zone, int32_t player) const;
  bool quiet(const Event& ev, uint8_t halves) const;
  bool quietKind(Ev type, uint8_t halves) const;
  // (the event in place, changed as it starts: by value, its 64 bytes were copied at every call
  // just after they were written field by field, and the copy's wide loads wait on those stores)
  bool emit(Event& ev, uint8_t halves, int32_t a = 0);
  __attribute__((noinline)) void runOnEnter(Event& e);
  bool emit(Event&& ev, uint8_t halves, int32_t a = 0) { return emit(ev, halves, a); }
  void emitAll(const std::vector<Event>& evs, uint8_t halves, int32_t a);
  bool startEvent(Event& ev);
  bool changeNow(const Event& ev, int32_t a);
  void pushExec(Item&& it, int32_t priorityTo);
  bool execAtOnce(Item& it, int32_t priorityTo);
  void pushPriority(int32_t player);
  const std::vector<Mutation>& listOf(LK lk, int32_t li, int32_t lj) const;
  Ctx ctxOf(int fi) const;
  Ctx ctxFrom(const FrameCtx& k) const;
  bool announce(int fi, bool before);
  void stepMuts(int fi);
  void stepForEach(int fi);
  void stepEvent(int fi);
  void stepReact(int fi);
  bool itemCancelled(int32_t id) const;
  [[noreturn]] void notAPlayer(const Mutation& m, int32_t player) const;
  // MoveZone, Destroy, Promote, Attach: a player among the targets is a run-time error
  void noPlayerAmong(const Mutation& m, const std::vector<Value>& targets) const {
    for (Value t : targets)
      if (t.v() < def_->numPlayers()) notAPlayer(m, t.v());
  }
  void goneOutOfSight(int32_t e);  // Destroy: who could not identify it (Entity::goneHidden)
  void inOrderSeen(std::vector<Slot>& targets, int player) const;  // a move's, as its player sees them
  bool priorityGivenLater() const;
  void stepTake(int fi);
  void stepExec(int fi);
  void stepDiscard(int fi);
  bool once(int fi);
  void stepDraw(int fi);
  void stepCreate(int fi);
  void stepChain(int fi);
  void resolveChain();
  int applyEvent(int fi);
  void startReaction(int ri, int32_t player, int32_t self, int32_t evFrame, const std::vector<Slot>& targets);
  void cancelItem(Item&& it);
  bool itemLeft(Item&& it, Ev type, int32_t named, Slot entity, bool framed);  // to recent items + its event
  bool targetsStillValid(Item& it);
  __attribute__((noinline)) bool targetsKept(Item& it);
  int32_t causeItem() const;

  // actions and legality
  // condition: what to test of the action's condition (null: all of it; collectMoves passes
  // Action::perSource once it has tested perAction)
  void enumerateAction(int player, int actionIdx, int source, std::vector<Move>& out, size_t cap,
                       const Expr* condition = nullptr) const;
  void targetCandidates(const TargetSpec& t, const Ctx& c, std::vector<Slot>& out) const;
  // Whether the player can pay an action's cost: every amount it takes away (a '-' of a
  // property) leaves that property at 0 or more.
  bool canPay(const Action& a, const Ctx& c) const;
  bool canPayOwn(int32_t player, int32_t prop, int32_t n) const;
  bool canPayAll(const std::vector<Mutation>& cost, const Ctx& c) const;  // (any cost)
  // The values X may take: from its min (at least 0) to its max, at most 21 of them.
  void xRange(const Action& a, const Ctx& c, int32_t& lo, int32_t& hi) const;
  Ctx actionCtx(int player, int source, const Move& m) const;
  int decisionTurnPlayer() const;

  // mutations (mutations.cpp)
  void applyOp(const Mutation& m, Ctx& c);
  void runOne(const Mutation& m, Ctx& c);
  void quickProp(const Mutation& m, const Ctx& c);
  void operateProp(int32_t e, const Mutation& m, Value v);
  void applyRareOp(const Mutation& m, Ctx& c, std::vector<Value>& targets);  // mutations_rare.cpp
  void shuffleZone(int32_t zone);  // (in mutations.cpp, compiled for speed: a card game's start shuffles)
  bool quietDraw() const;
  void drawNow(int32_t player, int32_t from, int32_t to, int count, int32_t mover);
  void opTargets(const Mutation& m, const Ctx& c, std::vector<Value>& targets, bool players) const;
  int32_t opZone(const Mutation& m, const Ctx& c, const Expr& e, const char* key) const;
  [[noreturn]] void opError(const Mutation& m, const std::string& msg) const;
  void setProp(int32_t e, int32_t p, Value v);
  void logEvent(const Event& ev, bool before);
  void countEvent() {  // (on every event: in place; the error apart, in failures.cpp)
    if (++eventsThisMove_ > def_->maxEvents) tooManyEvents();
  }
  [[noreturn]] void tooManyEvents() const;
  bool createOne(int32_t tmpl, int32_t zone, int32_t owner, const std::string* customId, int32_t player);
  void endGame(int32_t winner);
  const Item* findItem(int32_t id) const;
  void trimRecent();
  Item* findQueued(int32_t id);
  Item* findPending(int32_t id);  // an item being taken or executed (in a frame)
  int32_t playerZone(int zoneDef, int32_t player) const;
  int32_t ownerOf(int32_t e) const;
  // The player a value stands for, as Win's target and Give's owner read it: a player itself
  // (who owns itself), an entity its owner, a list its first; -1 for anything else.
  int32_t playerOf(Value v) const;

  // (last: the other members' offsets stay short)
  // The values of the actions' invariant parts (N::Hoisted) in the enumeration under way:
  // slot -> the value and the enumeration it was found in (hoistAt_ counts them); only while
  // collectMoves lists actions' moves (hoistOn_), when the state cannot change.
  struct Hoisted { uint64_t at = 0; Value v; };
  mutable Hoisted hoisted_[Def::kMaxHoisted];
  mutable uint64_t hoistAt_ = 0;
  mutable bool hoistOn_ = false;
  // The values of the perActions of the flow alone (Action::flow), by the facts they read:
  // 0 not known yet, 1 false, 2 true. A function of those facts (and the definition), kept
  // across moves: most enumerations where a player cannot act end here with no test.
  mutable uint8_t flowMemo_[Def::kFlowTable] = {};
  // The entities (not players) of each type, dead ones too, in id order: byType_[byTypeStart_[t]
  // .. byTypeStart_[t + 1]) for Def type t. Built when read and stale (entsIndexed_ false):
  // entities are made, promoted or dealt rarely, and $entity.<type> and the entities'
  // reactions are looked for at every move and event.
  mutable std::vector<int32_t> byType_, byTypeStart_;
  mutable bool entsIndexed_ = false;
  void indexEntities() const;
  // The entities of Def type t with an id from `from` on (a scan's cursor), in id order.
  std::pair<const int32_t*, const int32_t*> entitiesOfType(int t, int32_t from = 0) const;
};

// (inline here: the hot paths of legal.cpp and mutations.cpp call them)
// A property as a number: the stored value itself when no effect can change it (the common case).
inline int32_t Game::propInt(int32_t ent, int32_t p) const {
  const Def& d = *def_;
  if (!d.hasEffects && ent >= 0 && (size_t)ent < st_.ents.size() && p >= 0)
    return asInt(st_.props[(size_t)ent * d.numProps + p].get());
  return asInt(propValue(ent, p));
}

// (propInt without its range checks: a live entity, and imm a declared property's index)
inline int32_t Game::selfPropInt(const Node& nd, const Ctx& c) const {
  const Def& d = *def_;
  int32_t e = fusedSelf(nd.a, c);
  if (e < 0 || !st_.ents[e].alive) return 0;
  return d.hasEffects ? asInt(propValue(e, nd.imm)) : asInt(st_.props[(size_t)e * d.numProps + nd.imm].get());
}

// A Mutation::quick: the value (a number but for `=`), the one target, the operation.
RULESTACK_INLINE inline void Game::quickProp(const Mutation& m, const Ctx& c) {
  const Value v = m.op == Op::Set ? eval(m.value, c) : Value::num(amount(m.value, c));
  const int32_t t = singleOf(m.target, c);
  if (t >= 0 && st_.ents[t].alive) operateProp(t, m, v);
}

// An Own cost (CostShape::Own) of n: whether the player has n of the property it is paid from.
inline bool Game::canPayOwn(int32_t player, int32_t prop, int32_t n) const {
  return asInt(st_.props[(size_t)player * def_->numProps + prop].get()) - n >= 0;
}

RULESTACK_INLINE inline int32_t Game::amount(const Expr& e, const Ctx& c) const {
  if (!e.present()) return 0;
  const Node& nd = def_->nodes.nodes[e.root];
  if (nd.op == N::SelfProp) return selfPropInt(nd, c);
  if (nd.op == N::Const) return constInt(def_->nodes.consts[nd.imm]);
  return number(e, c);
}

inline bool Game::singleValued(const Expr& e) const { return def_->nodes.singleValued(e); }

inline int32_t Game::singleOf(const Expr& e, const Ctx& c) const {
  auto live = [&](int32_t x) { return x < 0 || !st_.ents[x].alive ? -1 : x; };
  switch (def_->nodes.nodes[e.root].op) {
    case N::PCurrent: return c.player;
    case N::PActive: return st_.active;
    case N::POpponent: return opponentOf(c.player);
    case N::ESelf: return live(c.self);
    default: return live(c.selected);  // N::ESelected
  }
}

}  // namespace rulestack
