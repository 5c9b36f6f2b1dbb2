// What a load can know about an expression's value before the game runs: its kind, from the
// declarations (property defaults, the built-in members, the event fields). The loader uses
// it to refuse what can never work — a list added to a number, a number as a destination —
// with its place, instead of a game that silently does nothing.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "rulestack/def.h"

namespace rulestack {

enum class Kind : uint8_t { Unknown, Null, Int, Bool, Str, Ent, Zone, Item, List };

// "an integer", "a list", ... (for messages)
const char* kindName(Kind k);

class Typer {
 public:
  // Property kinds: the kind of every declared default when they agree and every '=' that
  // sets the property agrees too; otherwise unknown (a property may hold anything).
  explicit Typer(const Def& d);
  Kind of(int node) const;
  // The kind of the elements of a list (or of the entities of a zone); unknown when not known.
  Kind elemOf(int node) const;
  Kind prop(int p) const { return p >= 0 && p < (int)props_.size() ? props_[p] : Kind::Unknown; }

  // What the context references read in the nodes [first, end): $target and the elements of
  // $targets (ref N::Target), $candidate, $item. The loader binds them from the key that
  // gives them (a requires_target's `from`, a for_each); then bindWheres() gives each
  // `.where(...)`'s $candidate the kind of its list's elements.
  void bind(int first, int end, N ref, Kind k);
  void bindWheres();
  // Whether a context reference was bound at all: $item outside a for_each, $candidate
  // outside a filter or .where(...), read null for ever.
  bool bound(int n) const { return n >= 0 && n < (int)bound_.size() && bound_[n]; }

 private:
  const Def& d_;
  std::vector<Kind> props_;
  std::vector<Kind> ctx_;  // per node: a context reference's kind
  std::vector<char> bound_;
  void bindTree(int n, N ref, Kind k);
};

// What a key of the language takes.
enum class Want : uint8_t {
  Zone,        // a destination: a zone (or an entity: its zone)
  Choices,     // a target's `from`: the entities, players, zones or items to choose from
  Number,      // an amount: an arithmetic value, a count
  Changeable,  // the target of a property change: an entity or player, or a list of them
  Condition,   // a condition: true or false (an integer: not 0 — a warning says so)
  Cancellable, // Cancel's target: one queue item or event
  Players,     // Win, Lose, DrawCard, RequireDiscard: a player (an entity: its owner), or a list
  Entities,    // MoveZone, Destroy, Promote, Attach: an entity, or a list of them
  Zones,       // Shuffle: a zone, or a list of zones
};

// "" when an expression of kind k can be what `want` asks for, else what was expected.
std::string mismatch(Want want, Kind k);

// The first operation of the expression (nodes [first, end)) that can never work on the
// kinds of its operands: the node, and the message. {-1, ""} when there is none.
std::pair<int, std::string> operandMismatch(const Typer& t, const Def& d, int first, int end);

}  // namespace rulestack
