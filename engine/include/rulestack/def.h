// The compiled definition: everything the loader turned from JSON into indexes, symbols
// and expression trees. Immutable once a game runs; shared by every copy of the state.
#pragma once
#include <string>
#include <vector>

#include "rulestack/expr.h"
#include "rulestack/value.h"

namespace rulestack {

enum class Op : uint8_t {
  Set, Add, Sub, Mul, Div, MoveZone, Destroy, Cancel, RequireDiscard, Promote, DrawCard,
  Create, Shuffle, Damage, Attach, EndTurn, Win, Lose, Draw, Give
};

enum class Ev : uint8_t {
  ActionPlayed, ActionExecuted, ActionCancelled, OnZoneEnter, DamageTaken, PhaseExecute,
  TurnStart, DrawFailed, GameOver, Named /* $Before/$After.@Action */, Count,
  // logged only, never reacted to: a pass is logged as Count; GameError says what failed
  GameError
};

// A condition that is one comparison of a player's property with a number
// (`$players[0].life <= 0`, `$player.current.life > 0`: most end conditions' parts), made at
// load (Def::playerCmp) and tested without walking its nodes (Game::holds).
struct PlayerCmp {
  N op = N::Const;   // LtConst, LeConst, GtConst or GeConst; Const: not of that shape
  int32_t who = 0;   // the player, as PlayerProp's `a`
  int32_t prop = 0;  // the property's index
  int32_t k = 0;     // the number
};

struct Mutation {
  Op op = Op::Set;
  Expr target, value, destination, count, from, owner, host, condition, forEach;
  int prop = -1;          // property index for arithmetic
  int eventField = -1;    // target is $event.<field> (arithmetic on the pending event)
  int tmpl = -1;          // Create / Promote
  bool bottom = false;    // MoveZone position
  std::string id;         // Create: explicit id
  std::string path;       // JSON pointer, for run-time errors
  // (Def::prepare) an arithmetic operation or `=` on a property of one player or entity
  // (the target a single reference): applied in place, with no list of targets (Game::quickProp)
  bool quick = false;
  PlayerCmp conditionCmp;  // (Def::prepare) the condition's fused form, if it has one
};

struct TargetSpec {
  bool present = false;
  bool expandZones = false;  // object form: a zone in `from` means its entities
  Expr from, filter;
  int min = 1, max = 1;
  const TargetSpec* ifPresent() const { return present ? this : nullptr; }
};

struct Mode {
  std::string name;
  TargetSpec target;
  std::vector<Mutation> mutations;
  bool atOnce = false;  // Def::runsAtOnce(mutations)
};

struct Reaction {
  std::string name;
  int nameSym = -1;
  bool before = false;
  Ev event = Ev::ActionPlayed;
  int namedAction = -1;   // for Ev::Named: action name symbol
  Expr condition;
  bool queue = false, optional = false;
  TargetSpec target;      // requires_target: chosen when the reaction is accepted
  std::vector<Mutation> mutations;
  int tmpl = -1;          // owner template (-1: the game's own reaction)
  int action = -1;        // action it is declared in (-1: on the entity itself)
};

// What paying an action's cost can fail on (Game::canPay), known at load.
enum class CostShape : uint8_t {
  Free,  // nothing it takes away (no '-' of a property): always payable
  One,   // one '-' of a property of one player or entity, unconditional
  Own,   // One, from $player.current, of a constant or a property of the source (no effects): read in place
  Any    // anything else: added up mutation by mutation
};

struct Action {
  std::string name;
  int nameSym = -1;
  int tmpl = -1;          // entity action: its template; -1: global
  // What the enumeration reads of every action at every decision, kept together (one cache
  // line with tmpl) and known at load:
  int fromZone = -1;       // the condition requires the source to be in this zone (def index): enumerate only it
  int fromBase = -1;       // (Def::prepare) that zone's first instance; fromPerPlayer: one per player
  bool fromPerPlayer = false;
  bool fromActs = false;   // (Def::prepare) entity actions can be taken from that zone: else no moves
  bool group = false;      // (Def::prepare) groupable in a game without effects
  bool direct = false;     // (Def::prepare) plain, nothing tested per card: a move for each card that can pay
  int perActionKey = -1;   // (Def::prepare) the first action with the same perAction: one test serves both
  // (Def::prepare) a perAction of the flow alone (Def::flowReads): where its values are kept
  // in Game's table of them (base -1: not kept), and each fact's stride there (0: not read)
  struct FlowIndex { int16_t base = -1; uint16_t player = 0, active = 0, queue = 0, phase = 0; } flow;
  Expr source, condition;
  TargetSpec target;
  std::vector<Mutation> cost, mutations;
  bool costAtOnce = false, mutationsAtOnce = false;  // Def::runsAtOnce of each
  CostShape costShape = CostShape::Any;
  int32_t tmplAmount = 0;  // (Def::ownCost) Own, of a template: what each of its cards pays while no entity property was set
  bool hasX = false;
  Expr xMin, xMax;
  std::vector<Mode> modes;
  // the targets a move in that mode (-1: none) chooses: the action's, else its mode's (null: none)
  const TargetSpec* targetSpec(int mode) const {
    return target.present || mode < 0 ? target.ifPresent() : modes[mode].target.ifPresent();
  }
  bool play = false, queue = true;
  bool anySource = false;  // global, no `source`, reads $entity.selected: any entity the player controls
  bool groupable = false;  // reads its source only through properties, zone, type, template, tags,
                           // controller: identical cards in one zone have the same moves
  // An action enumerated per source whose condition begins with conjuncts that read nothing
  // of the move (source, targets, X, mode): those are `perAction`, tested once per
  // enumeration before any source is looked at; `perSource` is the rest (absent: none),
  // tested per source. A fromZone action's zone test holds for every card enumerated, so it
  // is in neither.
  Expr perAction, perSource;
  // The condition reads neither $mode nor $x: tested once per source, not once per mode and X.
  bool conditionOnce = true;
  // no modes, no X, no targets: at most one move per source, enumerated without the general loops
  bool plain = false;
  std::vector<std::pair<int, Expr>> props;  // symbol -> value at take time
};

struct Triggered {
  std::string name;
  int nameSym = -1;
  bool before = false;
  Ev event = Ev::ActionPlayed;
  int namedAction = -1;
  Expr condition, player;
  bool optional = true, queue = true;
  TargetSpec target;
  std::vector<Mutation> mutations;
  int tmpl = -1;
};

struct Effect {
  Expr appliesTo, filter, when, value;
  int prop = -1;
  bool set = false;
  int tmpl = -1;
};

struct Template {
  std::string id;
  int idSym = -1;
  int typeSym = -1;
  std::vector<int> tags;                    // symbols
  std::vector<std::pair<int, Slot>> props;  // property index -> default
  std::vector<int> actions, reactions, triggered, effects;
  bool faceDown = false;  // `face_down`: only its owner may identify an entity of this template
};

enum class Vis : uint8_t { Everyone, Owner, Nobody };

struct ZoneDef {
  std::string name;
  int nameSym = -1;
  bool perPlayer = false, ordered = false, active = true;
  bool actions = true;  // entity actions can be taken from here
  Vis vis = Vis::Everyone;
  int base = 0;  // first zone instance
};

struct Phase {
  std::string name;
  int nameSym = -1;
  std::vector<Mutation> onEnter;
  bool onEnterAtOnce = false;    // Def::runsAtOnce(onEnter)
  std::vector<int> actions;      // action indexes valid in this phase
  bool hasActions = false;
  bool canPass = true;           // false: pass only when no action can be taken
  // (Def::zonePhase) Where Game's table of flow facts keeps, for each combination of the
  // players' and the queue's, which actions' perActions hold; -1: not a zone phase. A zone
  // phase's actions (at most 7) are direct template actions from one zone, paid Own, each
  // with no perAction or one of the flow alone (Action::flow): Game::collectZonePhase.
  int16_t zoneMasks = -1;
  // (a zone phase) what its enumeration reads of each action, in the phase's order: the
  // action, its template, the player's property it is paid from and the template's amount
  struct ZoneAct { int32_t action, tmpl, prop, amount; };
  ZoneAct zoneActs[7] = {};
};

struct EndCondition {
  Expr when, winner;
  bool draw = false;
  bool perPlayer = true;  // reads $player.current/opponent: checked once per player, else once
  uint64_t reads = 0;     // Def::endBit of what it reads
  // `when` as its first conjunct and the rest (guard absent: not split). While the guard was
  // false at the last check and nothing it reads has changed, the condition is still false.
  Expr guard, rest;
  PlayerCmp whenCmp, guardCmp, restCmp;  // (Def::prepare)
  uint64_t guardReads = 0;
  uint64_t guardBit = 0;  // its bit in Game's record of false guards (one per player in turn order)
  // (Def::prepare) a guard `$turn > k` or `$turn >= k` (a game's length): it holds from turn
  // guardTurn on, read so where each turn's start would test it once per player
  bool guardIsTurn = false;
  int32_t guardTurn = 0;
};

// Symbols of the built-in member names, interned at load so member access compares ints.
struct Builtins {
  int id, type, tmpl, tags, zone, owner, controller, host, index, name, size, entities, top,
      source, player, targets, target, mode, x, cancelled, entity, health;
};

struct Def {
  std::string name;
  // Legal but almost certainly not what the author meant: (JSON pointer, message), in order.
  std::vector<std::pair<std::string, std::string>> warnings;
  Builtins b{};
  Nodes nodes;                  // every compiled expression's nodes
  Symbols syms;
  std::vector<std::string> playerIds;
  std::vector<std::pair<int, Slot>> playerProps, perTurn;
  std::vector<std::string> propNames;        // property index -> name
  size_t numProps = 0;                       // propNames.size() (kept by Loader::propIndex, which
                                             // adds the names), read where the property table is indexed
  std::vector<int> propOfSym;                // symbol -> property index or -1 (grown lazily)
  std::vector<ZoneDef> zones;
  int numZoneInstances = 0;
  int queueZone = -1;                        // instance index of the built-in Queue
  std::vector<Template> templates;
  // The templates' types as dense indexes (tmplType[template] into typeSyms), for Game's
  // index of the entities by type ($entity.<type>); set by prepare().
  std::vector<int32_t> tmplType, typeSyms;
  int typeIndex(int sym) const;  // -1: no template has that type
  std::vector<Action> actions;
  std::vector<Reaction> reactions;
  std::vector<Triggered> triggered;
  std::vector<Effect> effects;
  std::vector<Mutation> setup;
  std::vector<Phase> phases;
  std::vector<int> turnOrder;
  std::vector<int> nextInTurn;                // player -> the one after it in turn order (a table: read per move)
  int firstPlayer = 0;
  std::vector<EndCondition> ends;
  bool chain = false, autoPass = true;
  int cancelZone = -1, discardZone = -1;     // zone def indexes
  int deckZone = -1, handZone = -1;          // the zones named Deck and Hand (DrawCard's defaults)
  int maxEvents = 10000;
  // indexes built at load
  std::vector<std::vector<int>> reactionsByKey;  // key(before, ev) -> reaction indexes
  std::vector<std::vector<int>> triggeredByKey;
  std::vector<char> listens;                     // key -> some reaction or triggered action
  bool hasEffects = false;
  std::vector<char> effectOnProp;  // property index -> some effect changes it (a read of another is plain)
  std::vector<int32_t> zoneDefOfInstance;  // zone instance -> its zone definition
  bool usesAttach = false;  // some mutation attaches: moves and destroys look for attachments
  // What the end conditions read, so that a change re-checks only the conditions it can make
  // true: a bit per property (endBit), kEndTurn for $turn and the active player, kEndEnts for
  // which entities there are and what they are ($entity.<type>, an entity's id, owner,
  // controller, type, template, tags: changed by Create, Destroy and Promote alone), kEndOther
  // for anything else (zones, the queue, derived values). endPropMask[p]: what a change of
  // property p dirties; endAny: some condition reads kEndOther.
  static constexpr uint64_t kEndEnts = 1ull << 61, kEndTurn = 1ull << 62, kEndOther = 1ull << 63;
  static uint64_t endBit(int p) { return 1ull << (p % 61); }
  std::vector<uint64_t> endPropMask;
  bool endAny = false;
  uint64_t endDirtyOf(int p) const { return (size_t)p < endPropMask.size() ? endPropMask[p] : ~0ull; }

  int zoneInstance(int zoneDef, int player) const {
    const ZoneDef& z = zones[zoneDef];
    return instanceOf(z.base, z.perPlayer, player);
  }
  // a zone's instance for a player, from its first instance (per player: one each; no player: the first)
  static int instanceOf(int base, bool perPlayer, int player) { return base + (perPlayer ? (player < 0 ? 0 : player) : 0); }
  int prop(int sym) const { return sym >= 0 && sym < (int)propOfSym.size() ? propOfSym[sym] : -1; }
  int numPlayers() const { return (int)playerIds.size(); }
  static int key(bool before, Ev e) { return (before ? 0 : 1) * (int)Ev::Count + (int)e; }
  bool heard(Ev e) const { return listens[key(true, e)] || listens[key(false, e)]; }
  // Whether a list can run to its end at once, with no frame of the resolution machine:
  // nothing in it can set off an event someone answers, ask a player or end the game.
  // (Known at load, like who listens; kept per list in Phase, Action and Mode.)
  bool runsAtOnce(const std::vector<Mutation>& ms) const;
  bool opAtOnce(const Mutation& m) const;  // (the operation alone, whatever its for_each)
  PlayerCmp playerCmp(const Expr& e) const;
  void markQuick(std::vector<Mutation>& ms) const;
  CostShape costShape(const std::vector<Mutation>& cost) const;
  bool sameExpr(int a, int b) const;
  void ownCost(Action& a) const;
  void prepare();  // sets what is kept of those in the definition (once the listeners are known)
  // What the expression at node n reads and does, as bits (hoist.cpp): the move (its source,
  // targets, X, mode, the event), $mode or $x among those, the context's $candidate (not the
  // one a `where` binds), and whether it loops over entities or a list.
  static constexpr unsigned kReadsMove = 1, kReadsModeOrX = 2, kReadsCandidate = 4, kLoops = 8;
  unsigned reads(int n) const;
  // The parts of the actions' conditions that are the same for every source of one
  // enumeration and cost a loop, each made an N::Hoisted node with a slot (hoist.cpp).
  void hoistInvariants();
  int numHoisted = 0;
  static constexpr int kMaxHoisted = 16;  // (the first 16: a game's conditions rarely have more)
  // Which facts of the flow an expression reads, when it reads nothing else (hoist.cpp): the
  // context's player (or the priority player's: the same where moves are listed), the active
  // player, the queue's size, the turn, the phase; -1 when it reads anything more (a property,
  // a zone's cards, the move...). Such an expression is a function of those facts alone.
  static constexpr int kFlowPlayer = 1, kFlowActive = 2, kFlowQueueSize = 4, kFlowTurn = 8, kFlowPhase = 16;
  int flowReads(int n) const;
  // Game's table of the values of such perActions, one entry per combination of the facts
  // read (a queue of up to kFlowQueue items; the turn is never kept): its size so far
  static constexpr int kFlowTable = 1024, kFlowQueue = 8;
  int flowTableSize = 0;
  void flowIndex(Action& a);
  void zonePhase(Phase& ph);
};

}  // namespace rulestack
