// The game state: a plain value. Copying it is what a bot does per simulation, so it holds
// only flat vectors of small PODs, and nothing from the definition.
#pragma once
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
  bool alive = true;
};

// A pending or just-happened event: fields are plain values (an item is referenced by id).
struct Event {
  Ev type = Ev::ActionPlayed;
  int32_t named = -1;       // action name symbol (ActionExecuted / Named)
  int32_t player = -1;
  Slot entity, zone, from, source;
  int32_t damage = 0;
  int32_t phase = -1;
  int32_t item = -1;        // queue item id
  int32_t winner = -1;      // GameOver: -1 draw
  int32_t turn = 0;         // TurnStart: the turn that starts
  bool cancelled = false;
};

enum class ItemKind : uint8_t { Action, Reaction, Triggered };

struct Item {
  int32_t id = 0;
  ItemKind kind = ItemKind::Action;
  int32_t def = -1;         // action / reaction / triggered index
  int32_t player = -1;
  int32_t source = -1;      // entity, or -1
  int32_t self = -1;        // $entity.self
  int32_t mode = -1, x = 0;
  bool hasX = false;
  bool cancelled = false;
  std::vector<Slot> targets;
  std::vector<std::pair<int32_t, Slot>> props;  // action properties
  Event event;              // the event a reaction / triggered action answers
};

enum class DecisionKind : uint8_t { Trigger, Reaction, Discard };

struct Decision {
  int32_t id = 0;
  DecisionKind kind = DecisionKind::Trigger;
  int32_t player = -1;
  int32_t def = -1;         // triggered / reaction index
  int32_t self = -1;
  bool optional = true;
  Event event;
  // Discard: choose `count` of `options`, moved to `dest`
  std::vector<int32_t> options;
  int32_t count = 0, dest = -1;
};

struct State {
  std::vector<Entity> ents;             // players first (index = player), then instances
  std::vector<Slot> props;              // ents.size() * numProps
  std::vector<std::vector<int32_t>> zones;  // entity indexes, index 0 = top
  std::vector<int32_t> serials;         // per template: instances made so far
  std::vector<Item> queue;              // back = top
  std::vector<Item> recent;             // items that just left the queue (for $event.action)
  std::vector<Decision> decisions;
  std::vector<std::pair<int32_t, std::string>> customIds;
  int32_t turn = 0, phase = -1, active = 0, priority = -1, passes = 0;
  int32_t nextItemId = 1, nextDecisionId = 1;
  int32_t result = -2;                  // -2 playing, -1 draw, >= 0 winner
  bool phaseStarted = false, endTurn = false, started = false;
  Rng rng;

  bool over() const { return result != -2; }
};

uint64_t hashState(const State& s);

}  // namespace rulestack
