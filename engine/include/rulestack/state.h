// The game state: a plain value. Copying it is what a bot does per simulation, so it holds
// only flat vectors of small PODs, and nothing from the definition.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include "rulestack/def.h"
#include "rulestack/rng.h"
#include "rulestack/value.h"

namespace rulestack {

struct Entity {
  int32_t tmpl = -1;        // -1: a player
  int32_t idTmpl = -1;      // template it was created as (its id survives Promote)
  int32_t serial = 0;       // n of "<Template>#n"; custom ids: -1 - index into State::customIds
  int32_t owner = -1, controller = -1;
  int32_t zone = -1;        // zone instance, -1: none (players, destroyed)
  int32_t host = -1;        // attached to
  // Who it is to a viewer who may not identify it: a number drawn anew at every change of
  // place (so it cannot be followed from one hidden place to another), shown mixed with the
  // game's salt (Game::handleOf). prevHandle: the one it had before its last move.
  int32_t handle = 0, prevHandle = 0;
  bool alive = true;
  // Destroyed out of a player's sight (bit p: player p): in a zone hidden from them
  // (goneHidden), or face down where they saw only its face (goneFaceDown). p never learnt
  // which card went, so p's fair bot deals it with the cards p cannot tell apart.
  uint8_t goneHidden = 0, goneFaceDown = 0;
};

// A pending or just-happened event: fields are plain values (an item is referenced by id).
// 64 bytes, aligned on 8: LLVM copies it with eight 64-bit loads and stores, where a bigger
// or 4-aligned one is a memory.copy in wasm, which V8 runs as a call out of the module (an
// event is copied at every step that makes or answers one).
struct alignas(8) Event {
  Ev type = Ev::ActionPlayed;
  bool cancelled = false;   // (beside type: in the padding)
  int32_t named = -1;       // action name symbol (ActionExecuted / Named)
  int32_t player = -1;
  Slot entity, zone, from, source;
  int32_t damage = 0;
  int32_t phase = -1;
  int32_t item = -1;        // queue item id
  int32_t winner = -1;      // GameOver: -1 draw
  int32_t turn = 0;         // TurnStart: the turn that starts
};
static_assert(sizeof(Event) <= 64, "Event: see above");

enum class ItemKind : uint8_t { Action, Reaction, Triggered };

// (its plain fields first, in 32 bytes: copied with loads and stores, as Event is)
struct Item {
  int32_t id = 0;
  int32_t def = -1;         // action / reaction / triggered index
  int32_t player = -1;
  int32_t source = -1;      // entity, or -1
  int32_t self = -1;        // $entity.self
  int32_t mode = -1, x = 0;
  ItemKind kind = ItemKind::Action;
  bool hasX = false;
  bool cancelled = false;
  std::vector<Slot> targets;
  std::vector<std::pair<int32_t, Slot>> props;  // action properties
  Event event;              // the event a reaction / triggered action answers

  Item() = default;
  Item(const Item&) = default;
  Item& operator=(const Item&) = default;
  // (out of line in state_copy.cpp, compiled for speed: an item moves three or four times on
  // its way, and an inline move could be a cold file's, its event copied by a call out)
  Item(Item&&) noexcept;
  Item& operator=(Item&&) noexcept;
};

enum class DecisionKind : uint8_t { Trigger, Reaction, Discard };

struct Decision {
  int32_t id = 0;
  DecisionKind kind = DecisionKind::Trigger;
  int32_t player = -1;
  int32_t def = -1;         // triggered / reaction index
  int32_t self = -1;
  bool optional = true;
  Event event;              // a copy, for views and legal moves
  int32_t evFrame = -1;     // the frame holding the live event (a $Before answer changes it)
  // Discard: choose `count` of `options`, moved to `dest`
  std::vector<int32_t> options;
  int32_t count = 0, dest = -1;
};

// ---- the resolution machine's frames (engine/src/resolve.cpp reads them top to bottom) ----

// Which mutation list a frame runs: an index into the definition, never a pointer.
enum class LK : uint8_t { None, Setup, OnEnter, Cost, Action, Mode, Reaction, Triggered, Extra };

// What the mutations of a frame see: $player.current, $entity.self/selected, $item, and
// where $event and the targets, properties, mode and X live (another frame of the stack).
struct alignas(8) FrameCtx {  // (8: its fields are copied with 8-byte loads and stores)
  int32_t player = -1, self = -1, selected = -1, mode = -1, x = 0;
  Slot item;                  // $item of a for-each
  int32_t evFrame = -1;       // frame whose event is $event (-1: none)
  bool evInItem = false;      // ... its item's event (a queued reaction answering it)
  int32_t itemFrame = -1;     // frame whose item gives targets, properties, mode, X
  std::vector<Slot> targets;  // own targets (an answered decision), when itemFrame < 0

  FrameCtx() = default;
  FrameCtx(const FrameCtx&) = default;
  FrameCtx& operator=(const FrameCtx&) = default;
  FrameCtx(FrameCtx&&) noexcept;  // (in state_copy.cpp, as Item's)
  FrameCtx& operator=(FrameCtx&&) noexcept;
};

enum class FK : uint8_t {
  Muts,      // a mutation list: lk/li/lj, next = the next mutation
  ForEach,   // mutation `next` of the list over `values`, pos = the next value
  Event,     // an event: stage 0 before-reactions, 1 apply, 2 after-reactions, 3 done
  React,     // the reactions and triggered actions of one event half: a cursor over holders
  Take,      // taking an action: cost, $Before.ActionPlayed, then the queue or execution
  Exec,      // executing a queue item; then priority to player `a` (-1: unchanged)
  Discard,   // RequireDiscard: one decision per player in `values` (player, from, dest)
  Draw,      // DrawCard for one player: `next` cards left
  Create,    // Create: `next` entities left
  Chain,     // resolve the whole queue (settings.resolution: chain); then priority to `a`
  Priority,  // when the work above is done, priority goes to player `a`
};

struct Frame {
  FK kind = FK::Muts;
  uint8_t stage = 0;
  uint8_t halves = 3;         // Event: 1 before, 2 after, 3 both
  bool before = false;        // React: which half
  LK lk = LK::None;
  int32_t li = -1, lj = -1;   // the list: Setup; OnEnter phase; Cost/Action action; Mode action+mode; ...
  int32_t next = 0, pos = 0;
  int32_t a = -1, b = -1, c = -1;  // kind-specific (see resolve.cpp)
  int32_t k = 0, idx = 0, e = 0;   // React: holder cursor (turn-order position, list index, entity)
  uint8_t part = 0;                // React: 0 game reactions, 1 entity reactions, 2 triggered
  FrameCtx ctx;
  Event ev;
  Item item;
  std::vector<Slot> values;

  // Back to a new frame of that kind, keeping the memory of its lists (FrameStack reuses it).
  void reset(FK k) {
    kind = k;
    stage = 0;
    halves = 3;
    before = false;
    lk = LK::None;
    li = lj = a = b = c = -1;
    next = pos = this->k = idx = e = 0;
    part = 0;
    ctx.player = ctx.self = ctx.selected = ctx.mode = ctx.evFrame = ctx.itemFrame = -1;
    ctx.x = 0;
    ctx.item = Slot{};
    ctx.evInItem = false;
    ctx.targets.clear();
    ev = Event{};
    item.id = 0;
    item.kind = ItemKind::Action;
    item.def = item.player = item.source = item.self = item.mode = -1;
    item.x = 0;
    item.hasX = item.cancelled = false;
    item.targets.clear();
    item.props.clear();
    item.event = Event{};
    values.clear();
  }
};

// The machine's stack. A push reuses the frame that was popped there (no allocation once a
// game has run a while); a copy (bots, undo) copies only the live frames.
class FrameStack {
 public:
  FrameStack() = default;
  FrameStack(const FrameStack& o) : f_(o.begin(), o.end()), n_(o.n_) {}
  FrameStack& operator=(const FrameStack& o) {
    if (this != &o) {
      f_.assign(o.begin(), o.end());
      n_ = o.n_;
    }
    return *this;
  }
  FrameStack(FrameStack&&) noexcept = default;
  FrameStack& operator=(FrameStack&&) noexcept = default;

  size_t size() const { return n_; }
  bool empty() const { return n_ == 0; }
  Frame& operator[](size_t i) { return f_[i]; }
  const Frame& operator[](size_t i) const { return f_[i]; }
  Frame& back() { return f_[n_ - 1]; }
  const Frame* begin() const { return f_.data(); }
  const Frame* end() const { return f_.data() + n_; }
  void pop_back() { n_--; }
  void clear() { n_ = 0; }
  Frame& push(FK kind) {
    if (n_ == f_.size()) {
      if (f_.capacity() == 0) f_.reserve(8);
      f_.emplace_back();
      f_.back().kind = kind;
    } else {
      f_[n_].reset(kind);
    }
    return f_[n_++];
  }

 private:
  std::vector<Frame> f_;
  size_t n_ = 0;
};

// A zone's entities, top first. Cards come and go mostly at the top (a draw, a card played,
// a card discarded), so they sit at the end of a buffer with room before them: a card put on
// or taken from the top moves no other (a vector with its top at index 0 shifted them all:
// in wasm, a loop per element). A card taken from the middle shifts the shorter side.
class Zone {
 public:
  using value_type = int32_t;
  using iterator = int32_t*;
  using const_iterator = const int32_t*;
  Zone() = default;
  Zone(const Zone&) = default;
  Zone(Zone&&) = default;
  Zone& operator=(Zone&&) = default;
  // The same entities in the same order, in this zone's own buffer (its room may differ):
  // out of line in state_copy.cpp, compiled for speed (a bot copies every zone of the state
  // for every iteration of its search, a simulation for every game).
  Zone& operator=(const Zone& o);
  size_t size() const { return buf_.size() - head_; }
  bool empty() const { return buf_.size() == head_; }
  int32_t* begin() { return buf_.data() + head_; }
  int32_t* end() { return buf_.data() + buf_.size(); }
  const int32_t* begin() const { return buf_.data() + head_; }
  const int32_t* end() const { return buf_.data() + buf_.size(); }
  int32_t& operator[](size_t i) { return buf_[head_ + i]; }
  int32_t operator[](size_t i) const { return buf_[head_ + i]; }
  int32_t front() const { return buf_[head_]; }
  std::vector<int32_t> list() const { return {begin(), end()}; }
  size_t footprint() const { return buf_.size(); }  // the entities and the room above them
  void assign(const std::vector<int32_t>& es) {
    buf_ = es;
    head_ = 0;
  }
  void clear() { head_ = (uint32_t)buf_.size(); }  // (all of it room on top: a new game reuses it)
  void push_back(int32_t e) {  // at the bottom
    if (head_ > size() + 8) compact();  // (taken from the top, put at the bottom: a queue)
    buf_.push_back(e);
  }
  void putOnTop(int32_t e) {
    if (head_ == 0) makeRoom();
    buf_[--head_] = e;
  }
  // Takes e out (where it is once at most); false when it was not there.
  bool takeOut(int32_t e) {
    int32_t* b = begin();
    const size_t n = size();
    size_t i = 0;
    while (i < n && b[i] != e) i++;
    if (i == n) return false;
    // the cards above it move down one; also for the middle card (as many moves either way),
    // a zone's only card among them, so that the room stays on top, where putOnTop needs it
    // (a queue's one card taken out from below shrank the buffer, and every few cards played
    // grew it again: makeRoom, a resize that wasm runs as calls)
    if (2 * i < n) {
      for (; i > 0; i--) b[i] = b[i - 1];
      head_++;
    } else {  // the cards below it move up one
      for (; i + 1 < n; i++) b[i] = b[i + 1];
      buf_.pop_back();
    }
    return true;
  }

 private:
  void makeRoom() {  // (head_ is 0) room on top for as many cards as it holds, 4 at least
    const size_t n = buf_.size(), room = std::max<size_t>(4, n);
    buf_.resize(room + n);
    for (size_t i = n; i-- > 0;) buf_[room + i] = buf_[i];
    head_ = (uint32_t)room;
  }
  void compact() {
    buf_.erase(buf_.begin(), buf_.begin() + head_);
    head_ = 0;
  }
  std::vector<int32_t> buf_;  // the entities are buf_[head_..]
  uint32_t head_ = 0;
};

// The bounds of a game (documented in docs/language.md, Mutations): a game that would pass
// one ends in a draw; a snapshot past one is refused.
constexpr size_t kMaxEntities = 20000;  // players included
constexpr size_t kMaxQueue = 1000;

// How many of the items that left the queue a State keeps (State::recent).
constexpr size_t kRecentItems = 8;

struct State {
  std::vector<Entity> ents;             // players first (index = player), then instances
  std::vector<Slot> props;              // ents.size() * numProps
  std::vector<Zone> zones;              // entity indexes, top first
  std::vector<int32_t> serials;         // per template: instances made so far
  std::vector<Item> queue;              // back = top
  std::vector<Item> recent;             // items that just left the queue (for $event.action)
  uint32_t recentAt = 0;                // the next place in `recent` (a ring) to fill
  std::vector<Decision> decisions;
  FrameStack stack;                     // suspended resolution: empty whenever a player has priority
  std::vector<std::pair<int32_t, std::string>> customIds;
  int32_t turn = 0, phase = -1, active = 0, priority = -1, passes = 0;
  int32_t nextItemId = 1, nextDecisionId = 1;
  int32_t nextHandle = 1;               // the next Entity::handle
  uint64_t salt = 0;                    // mixes handles into names that tell nothing
  int32_t result = -2;                  // -2 playing, -1 draw, >= 0 winner
  bool phaseStarted = false, endTurn = false, started = false;
  Rng rng;

  bool over() const { return result != -2; }
};

uint64_t hashState(const State& s);

}  // namespace rulestack
