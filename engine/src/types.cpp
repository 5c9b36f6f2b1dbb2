// Static kinds of expressions (see types.h).
#include "types.h"

#include <algorithm>

namespace rulestack {

namespace {

Kind ofSlot(const Slot& s) {
  switch (s.k) {
    case VK::Null: return Kind::Null;
    case VK::Int: return Kind::Int;
    case VK::Bool: return Kind::Bool;
    case VK::Str: return Kind::Str;
    case VK::Ent: return Kind::Ent;
    case VK::Zone: return Kind::Zone;
    case VK::Item: return Kind::Item;
    case VK::List: return Kind::List;
  }
  return Kind::Unknown;
}

template <class F>
void eachMutation(const Def& d, F f) {
  auto all = [&](const std::vector<Mutation>& ms) {
    for (const Mutation& m : ms) f(m);
  };
  all(d.setup);
  for (const Phase& p : d.phases) all(p.onEnter);
  for (const Action& a : d.actions) {
    all(a.cost);
    all(a.mutations);
    for (const Mode& mo : a.modes) all(mo.mutations);
  }
  for (const Reaction& r : d.reactions) all(r.mutations);
  for (const Triggered& t : d.triggered) all(t.mutations);
}

// Integers are what arithmetic and order comparisons read (null and booleans count as numbers).
bool numeric(Kind k) { return k == Kind::Unknown || k == Kind::Int || k == Kind::Bool || k == Kind::Null; }

const char* opName(N op) {
  switch (op) {
    case N::Add: return "'+'";
    case N::Sub: return "'-'";
    case N::Mul: return "'*'";
    case N::Div: return "'/'";
    case N::Mod: return "'%'";
    case N::Neg: return "'-'";
    case N::Lt: return "'<'";
    case N::Le: return "'<='";
    case N::Gt: return "'>'";
    case N::Ge: return "'>='";
    case N::Min: return "min";
    case N::Max: return "max";
    case N::Abs: return "abs";
    default: return "this operation";
  }
}

}  // namespace

const char* kindName(Kind k) {
  switch (k) {
    case Kind::Unknown: return "a value";
    case Kind::Null: return "null";
    case Kind::Int: return "an integer";
    case Kind::Bool: return "a boolean";
    case Kind::Str: return "a string";
    case Kind::Ent: return "an entity or player";
    case Kind::Zone: return "a zone";
    case Kind::Item: return "a queue item";
    case Kind::List: return "a list";
  }
  return "a value";
}

Typer::Typer(const Def& d)
    : d_(d), props_(d.propNames.size(), Kind::Unknown), ctx_(d.nodes.nodes.size(), Kind::Unknown), bound_(ctx_.size(), 0) {
  std::vector<char> seen(props_.size(), 0), mixed(props_.size(), 0);
  auto meet = [&](int p, Kind k) {
    if (p < 0 || p >= (int)props_.size() || k == Kind::Unknown || k == Kind::Null) {
      if (p >= 0 && p < (int)props_.size() && k == Kind::Unknown) mixed[p] = 1;
      return;
    }
    if (!seen[p]) { seen[p] = 1; props_[p] = k; }
    else if (props_[p] != k) mixed[p] = 1;
  };
  for (auto& kv : d.playerProps) meet(kv.first, ofSlot(kv.second));
  for (auto& kv : d.perTurn) meet(kv.first, ofSlot(kv.second));
  for (const Template& t : d.templates)
    for (auto& kv : t.props) meet(kv.first, ofSlot(kv.second));
  for (size_t p = 0; p < props_.size(); p++)
    if (!seen[p]) props_[p] = Kind::Unknown;  // declared by a mutation only (default null)
  // what '=' stores decides too (read with the defaults' kinds: a property set from another
  // property of a mixed kind is mixed)
  eachMutation(d, [&](const Mutation& m) {
    if (m.op == Op::Set && m.prop >= 0 && m.value.present()) meet(m.prop, of(m.value.root));
  });
  for (size_t p = 0; p < props_.size(); p++)
    if (mixed[p]) props_[p] = Kind::Unknown;
}

Kind Typer::of(int n) const {
  if (n < 0 || n >= (int)d_.nodes.nodes.size()) return Kind::Unknown;
  const Node& nd = d_.nodes.nodes[n];
  const Builtins& b = d_.b;
  switch (nd.op) {
    case N::Const: {
      const ConstVal& cv = d_.nodes.consts[nd.imm];
      return cv.kind == 1 ? Kind::Int : cv.kind == 2 ? Kind::Bool : cv.kind == 3 ? Kind::Str : Kind::Null;
    }
    case N::PCurrent: case N::PActive: case N::POpponent: case N::PPriority: case N::PIndex:
    case N::ESelf: case N::ESelected:
      return Kind::Ent;
    case N::PAll: case N::EOfType: case N::EAll: case N::Targets: case N::QueueItems: case N::Where:
      return Kind::List;
    case N::Target: case N::Candidate: case N::Item:
      return ctx_[n];
    case N::Index: {
      Kind a = of(nd.a);
      return a == Kind::List || a == Kind::Zone ? elemOf(nd.a) : Kind::Unknown;
    }
    case N::X: case N::Mode: case N::Turn: case N::QueueSize: case N::Size: case N::Count: case N::Sum:
    case N::Add: case N::Sub: case N::Mul: case N::Div: case N::Mod: case N::Neg:
    case N::Min: case N::Max: case N::Abs:
      return Kind::Int;
    case N::Eq: case N::Ne: case N::Lt: case N::Le: case N::Gt: case N::Ge: case N::And: case N::Or: case N::Not:
    case N::Contains:
      return Kind::Bool;
    case N::PhaseName: return Kind::Str;
    case N::ZoneNamed: return Kind::Zone;
    case N::ZoneOf: return of(nd.a) == Kind::List ? Kind::List : Kind::Zone;  // a list's: the list of their zones
    case N::QueueTop: return Kind::Item;
    case N::EventField:
      switch ((EvField)nd.imm) {
        case EvField::Action: return Kind::Item;
        case EvField::Player: case EvField::Entity: case EvField::Source: case EvField::Winner: return Kind::Ent;
        case EvField::Zone: case EvField::From: return Kind::Zone;
        case EvField::DamageValue: case EvField::Turn: return Kind::Int;
        case EvField::Phase: return Kind::Str;
        default: return Kind::Unknown;
      }
    case N::Prop: return prop(nd.imm);
    case N::Member: {
      int m = nd.imm;
      if (m == b.owner || m == b.controller || m == b.host || m == b.top || m == b.id || m == b.entity || m == b.player ||
          m == b.source)
        return Kind::Ent;
      if (m == b.zone) return of(nd.a) == Kind::List ? Kind::List : Kind::Zone;
      if (m == b.type || m == b.tmpl || m == b.name) return Kind::Str;
      if (m == b.tags || m == b.entities || m == b.targets) return Kind::List;
      if (m == b.index || m == b.size || m == b.mode || m == b.x) return Kind::Int;
      if (m == b.cancelled) return Kind::Bool;
      return Kind::Unknown;  // .target (one of an item's targets), action properties
    }
    default:
      return Kind::Unknown;  // $event as a whole
  }
}

Kind Typer::elemOf(int n) const {
  if (n < 0 || n >= (int)d_.nodes.nodes.size()) return Kind::Unknown;
  const Node& nd = d_.nodes.nodes[n];
  const Builtins& b = d_.b;
  switch (nd.op) {
    case N::PAll: case N::EOfType: case N::EAll: return Kind::Ent;
    case N::QueueItems: return Kind::Item;
    case N::Targets: return ctx_[n];
    case N::Where: return elemOf(nd.a);
    case N::ZoneOf: return of(nd.a) == Kind::List ? Kind::Zone : Kind::Ent;
    case N::Member:
      if (nd.imm == b.zone) return of(nd.a) == Kind::List ? Kind::Zone : Kind::Ent;
      if (nd.imm == b.tags) return Kind::Str;
      if (nd.imm == b.entities) return Kind::Ent;
      break;
    default: break;
  }
  return of(n) == Kind::Zone ? Kind::Ent : Kind::Unknown;  // a zone's elements: its entities
}

namespace {
// Which of a node's a/b are nodes (the fused forms come after the analysis: none here).
bool aIsNode(N op) {
  switch (op) {
    case N::PIndex: case N::ZoneOf: case N::Member: case N::Prop: case N::Index: case N::Contains: case N::Where:
    case N::Size: case N::Add: case N::Sub: case N::Mul: case N::Div: case N::Mod: case N::Neg: case N::Eq: case N::Ne:
    case N::Lt: case N::Le: case N::Gt: case N::Ge: case N::And: case N::Or: case N::Not: case N::Min: case N::Max:
    case N::Abs: case N::Count: case N::Sum:
      return true;
    default:
      return false;
  }
}
bool bIsNode(N op) {
  switch (op) {
    case N::Index: case N::Contains: case N::Where: case N::Add: case N::Sub: case N::Mul: case N::Div: case N::Mod:
    case N::Eq: case N::Ne: case N::Lt: case N::Le: case N::Gt: case N::Ge: case N::And: case N::Or: case N::Min:
    case N::Max:
      return true;
    default:
      return false;
  }
}
}  // namespace

void Typer::bind(int first, int end, N ref, Kind k) {
  for (int n = std::max(first, 0); n < end && n < (int)ctx_.size(); n++) {
    N op = d_.nodes.nodes[n].op;
    if (op == ref || (ref == N::Target && op == N::Targets)) ctx_[n] = k, bound_[n] = 1;
  }
}

void Typer::bindTree(int n, N ref, Kind k) {
  if (n < 0 || n >= (int)ctx_.size()) return;
  const Node& nd = d_.nodes.nodes[n];
  if (nd.op == ref) ctx_[n] = k, bound_[n] = 1;
  if (aIsNode(nd.op)) bindTree(nd.a, ref, k);
  if (bIsNode(nd.op)) bindTree(nd.b, ref, k);
}

void Typer::bindWheres() {
  // outer first (a node comes after its operands): an inner .where rebinds its own $candidate
  for (int n = (int)ctx_.size() - 1; n >= 0; n--) {
    const Node& nd = d_.nodes.nodes[n];
    if (nd.op == N::Where) bindTree(nd.b, N::Candidate, elemOf(nd.a));
  }
}

std::string mismatch(Want want, Kind k) {
  if (k == Kind::Unknown || k == Kind::Null) return "";
  switch (want) {
    case Want::Zone:
      return k == Kind::Zone || k == Kind::Ent ? "" : "a zone (or an entity: its zone)";
    case Want::Choices:
      return k == Kind::List || k == Kind::Ent || k == Kind::Zone || k == Kind::Item
                 ? ""
                 : "the entities, players, zones or queue items to choose from (a list or one of them)";
    case Want::Number:
      return numeric(k) ? "" : "a number";
    case Want::Changeable:
      return k == Kind::Ent || k == Kind::List ? "" : "an entity or a player (or a list of them)";
    case Want::Players:
      return k == Kind::Ent || k == Kind::List ? "" : "a player (or an entity: its owner), or a list of them";
    case Want::Entities:
      return k == Kind::Ent || k == Kind::List ? "" : "an entity or a list of entities (a zone's entities: $zone.@Name.entities)";
    case Want::Zones:
      return k == Kind::Zone || k == Kind::List ? "" : "a zone or a list of zones";
    case Want::Cancellable:
      return k == Kind::Item ? "" : "one queue item or event ($event.action, $event, $queue.top, $queue.items[i]; to cancel several, give for_each and target: $item)";
    case Want::Condition:  // (a list or a zone: true when not empty; an entity: when there is one)
      return k == Kind::Str ? "a condition (a comparison, .contains(...), and/or/not; a text is always true)" : "";
  }
  return "";
}

std::pair<int, std::string> operandMismatch(const Typer& t, const Def& d, int first, int end) {
  const Builtins& b = d.b;
  for (int n = first; n < end; n++) {
    const Node& nd = d.nodes.nodes[n];
    switch (nd.op) {
      case N::Add: case N::Sub: case N::Mul: case N::Div: case N::Mod:
      case N::Lt: case N::Le: case N::Gt: case N::Ge: case N::Min: case N::Max: {
        Kind l = t.of(nd.a), r = t.of(nd.b);
        if (!numeric(l)) return {n, std::string(opName(nd.op)) + " takes numbers, but its left side is " + kindName(l) +
                                        (l == Kind::List ? " (lists do not add up: list them in 'from' one by one, or use count(...) or sum(...))" : "")};
        if (!numeric(r)) return {n, std::string(opName(nd.op)) + " takes numbers, but its right side is " + kindName(r) +
                                        (r == Kind::List ? " (use count(...) or sum(...) for a number from a list)" : "")};
        break;
      }
      case N::Neg: case N::Abs: {
        Kind a = t.of(nd.a);
        if (!numeric(a)) return {n, std::string(opName(nd.op)) + " takes a number, but it was given " + kindName(a)};
        break;
      }
      case N::Prop: case N::Member: {
        // one value's member, read from a list: always null (but .zone: the list of their zones)
        if (nd.op == N::Member && (nd.imm == b.size || nd.imm == b.entities || nd.imm == b.zone)) break;
        if (t.of(nd.a) == Kind::List) {
          std::string name = d.syms.names[nd.op == N::Prop ? nd.b : nd.imm];
          return {n, "'." + name + "' is read from one value, but this is a list (choose one with [i] or .where(...), or use sum(list, prop))"};
        }
        break;
      }
      case N::Sum: {
        Kind a = t.of(nd.a);
        if (a != Kind::Unknown && a != Kind::List && a != Kind::Zone && a != Kind::Null)
          return {n, std::string("sum takes a list, but it was given ") + kindName(a)};
        break;
      }
      default:
        break;
    }
  }
  return {-1, ""};
}

}  // namespace rulestack
