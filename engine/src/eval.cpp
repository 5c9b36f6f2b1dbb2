// Expression evaluation over the state, and derived property values (effects).
#include <algorithm>

#include "rulestack/game.h"

namespace rulestack {

namespace {
constexpr int kMaxEffectDepth = 4;
thread_local int effectDepth = 0;
thread_local int evalDepth = 0;

}  // namespace

// Equality, where an entity or zone also equals a string that is its id ($e.id == 'NW').
bool Game::same(Value a, Value b) const {
  if (a.k() == VK::Str && (b.k() == VK::Ent || b.k() == VK::Zone)) std::swap(a, b);
  if (b.k() == VK::Str && a.k() == VK::Ent) return entityId(a.v()) == def_->syms.names[b.v()];
  if (b.k() == VK::Str && a.k() == VK::Zone) return zoneId(a.v()) == def_->syms.names[b.v()];
  return a == b;
}

// A value as a condition: a zone holds when it is not empty (Value::truthy knows no zone's size).
bool Game::truth(Value v) const {
  return v.k() == VK::Zone ? !st_.zones[v.v()].empty() : v.truthy();
}

// The language's ==: two lists are equal when their elements are, in order (sameList).
bool Game::equal(Value a, Value b) const {
  if (a.k() != b.k()) return same(a, b);
  return a.k() == VK::List ? sameList(a, b) : a.v() == b.v();
}

void Game::resetEval() {
  evalDepth = 0;
  effectDepth = 0;
}

int32_t Game::opponentOf(int32_t p) const {
  return p < 0 || p >= (int32_t)def_->nextInTurn.size() ? -1 : def_->nextInTurn[p];
}

// PlayerProp's player: 0 current, 1 active, 2 opponent, 3 + k the k-th declared.
RULESTACK_INLINE int32_t Game::fusedPlayer(int32_t a, const Ctx& c) const { return playerAt(a, c.player); }

int32_t Game::playerAt(int32_t a, int32_t current) const {
  return a == 0 ? current : a == 1 ? st_.active : a == 2 ? opponentOf(current) : a - 3;
}

// An entity reference that may point at a destroyed entity: null then.
Value Game::live(int32_t e) const { return e < 0 || !st_.ents[e].alive ? Value::null() : Value::ent(e); }
Value Game::liveValue(Value v) const { return v.k() == VK::Ent ? live(v.v()) : v; }

void Game::flatten(Value v, std::vector<Value>& out) const {
  for (int32_t i = 0, n = elemCount(v); i < n; i++) out.push_back(elemAt(v, i));
}

Value Game::eval(const Expr& e, const Ctx& c) const {
  if (!e.present()) return Value::null();
  if (evalDepth == 0) scratch_.clear();
  evalDepth++;  // no try/catch here (it costs in wasm): a throwing move resets it (resetEval)
  Value r = evalNode(e.root, c);
  evalDepth--;
  return r;
}

bool Game::test(const Expr& e, const Ctx& c) const {
  if (!e.present()) return false;
  if (evalDepth == 0) scratch_.clear();
  evalDepth++;
  bool r = evalBool(e.root, c);
  evalDepth--;
  return r;
}

int32_t Game::number(const Expr& e, const Ctx& c) const {
  if (!e.present()) return 0;
  if (evalDepth == 0) scratch_.clear();
  evalDepth++;
  int32_t r = evalInt(e.root, c);
  evalDepth--;
  return r;
}

void Game::evalList(const Expr& e, const Ctx& c, std::vector<Value>& out) const {
  out.clear();
  if (!e.present()) return;
  if (singleValued(e)) {  // one player or entity (most targets): no list
    Value v = evalNode(e.root, c);
    if (!v.isNull()) out.push_back(v);
    return;
  }
  if (evalDepth == 0) scratch_.clear();
  evalDepth++;
  flatten(evalNode(e.root, c), out);
  evalDepth--;
}

int32_t Game::prop(int32_t ent, int32_t p) const { return propInt(ent, p); }

// A number where it is compared: the common leaves read here, without a call of their own.
inline int32_t Game::intOf(int n, const Ctx& c) const {
  const Node& nd = def_->nodes.nodes[n];
  switch (nd.op) {
    case N::Turn: return st_.turn;
    case N::QueueSize: return (int32_t)st_.queue.size();
    case N::PlayerProp: {
      int32_t p = fusedPlayer(nd.a, c);
      return p < 0 ? 0 : propInt(p, nd.imm);
    }
    default: return evalInt(n, c);
  }
}

Value Game::propValue(int32_t ent, int32_t p) const {
  const Def& d = *def_;
  if (ent < 0 || ent >= (int32_t)st_.ents.size() || p < 0) return Value::null();
  Value base = st_.props[(size_t)ent * d.numProps + p].get();
  if (!d.hasEffects || (size_t)p >= d.effectOnProp.size() || !d.effectOnProp[p] || effectDepth >= kMaxEffectDepth)
    return base;
  return withEffects(ent, p, base);
}

// The value the effects of the entities in play derive from the stored one.
Value Game::withEffects(int32_t ent, int32_t p, Value base) const {
  const Def& d = *def_;
  effectDepth++;
  Value result = base;
  std::vector<Value> hits;
  for (int32_t s = d.numPlayers(); s < (int32_t)st_.ents.size(); s++) {
    const Entity& src = st_.ents[s];
    if (!src.alive || src.zone < 0 || src.tmpl < 0) continue;
    const Template& t = d.templates[src.tmpl];
    if (t.effects.empty() || !d.zones[zoneDefOf(src.zone)].active) continue;
    for (int ei : t.effects) {
      const Effect& ef = d.effects[ei];
      if (ef.prop != p) continue;
      Ctx c;
      c.player = src.controller;
      c.self = c.selected = s;
      if (ef.when.present() && !test(ef.when, c)) continue;
      evalList(ef.appliesTo, c, hits);
      bool hit = false;
      for (Value h : hits)
        if (h.k() == VK::Ent && h.v() == ent) { hit = true; break; }
      if (!hit) continue;
      if (ef.filter.present()) {
        c.candidate = Value::ent(ent);
        if (!test(ef.filter, c)) continue;
      }
      Value v = eval(ef.value, c);
      if (ef.set) result = v;
      else result = Value::num(asInt(result) + asInt(v));
    }
  }
  effectDepth--;
  return result;
}

// The comparisons of two evaluated operands, apart from evalBool: what they keep across their
// two calls would make evalBool's every call save more registers.
bool Game::compare(int n, const Ctx& c) const {
  const Node& nd = def_->nodes.nodes[n];
  switch (nd.op) {
    case N::Lt: return evalInt(nd.a, c) < evalInt(nd.b, c);
    case N::Le: return evalInt(nd.a, c) <= evalInt(nd.b, c);
    case N::Gt: return evalInt(nd.a, c) > evalInt(nd.b, c);
    case N::Ge: return evalInt(nd.a, c) >= evalInt(nd.b, c);
    default: return (nd.op == N::Ne) != equal(evalNode(nd.a, c), evalNode(nd.b, c));  // Eq, Ne
  }
}

// evalNode(n).truthy() and asInt(evalNode(n)), without making a Value where a node already
// gives a truth or a number (most of the nodes of conditions and amounts).
bool Game::evalBool(int n, const Ctx& c) const {
  const Node& nd = def_->nodes.nodes[n];
  switch (nd.op) {
    case N::And: return evalBool(nd.a, c) && evalBool(nd.b, c);
    case N::Or: return evalBool(nd.a, c) || evalBool(nd.b, c);
    case N::Not: return !evalBool(nd.a, c);
    case N::Lt: case N::Le: case N::Gt: case N::Ge: case N::Eq: case N::Ne: return compare(n, c);
    case N::LtConst: return intOf(nd.a, c) < nd.imm;
    case N::LeConst: return intOf(nd.a, c) <= nd.imm;
    case N::GtConst: return intOf(nd.a, c) > nd.imm;
    case N::GeConst: return intOf(nd.a, c) >= nd.imm;
    case N::EqConst: case N::NeConst: {
      Value v = evalNode(nd.a, c);
      return (nd.op == N::NeConst) != ((v.k() == VK::Int || v.k() == VK::Bool) && v.v() == nd.imm);
    }
    case N::SamePlayer: {  // (a missing player, as null: equal to another missing one)
      int32_t a = fusedPlayer(nd.a, c), b = fusedPlayer(nd.b, c);
      return (nd.imm != 0) != (std::max(a, -1) == std::max(b, -1));
    }
    case N::SelfInZone: {
      int32_t e = fusedSelf(nd.a, c);
      if (e < 0 || st_.ents[e].zone < 0) return false;  // (a destroyed entity has no zone)
      return st_.ents[e].zone == def_->zoneInstance(nd.imm, c.player >= 0 ? c.player : st_.active);
    }
    default: return truth(evalNode(n, c));
  }
}

int32_t Game::evalInt(int n, const Ctx& c) const {
  const Def& d = *def_;
  const Node& nd = d.nodes.nodes[n];
  switch (nd.op) {
    case N::Const: return constInt(d.nodes.consts[nd.imm]);
    case N::Add: return (int32_t)((uint32_t)evalInt(nd.a, c) + (uint32_t)evalInt(nd.b, c));
    case N::Sub: return (int32_t)((uint32_t)evalInt(nd.a, c) - (uint32_t)evalInt(nd.b, c));
    case N::Mul: return (int32_t)((uint32_t)evalInt(nd.a, c) * (uint32_t)evalInt(nd.b, c));
    case N::Min: return std::min(evalInt(nd.a, c), evalInt(nd.b, c));
    case N::Max: return std::max(evalInt(nd.a, c), evalInt(nd.b, c));
    case N::X: return c.x;
    case N::Turn: return st_.turn;
    case N::QueueSize: return (int32_t)st_.queue.size();
    case N::SelfProp: return selfPropInt(nd, c);
    case N::PlayerProp: {
      int32_t p = fusedPlayer(nd.a, c);
      return p < 0 ? 0 : propInt(p, nd.imm);
    }
    default: return asInt(evalNode(n, c));
  }
}

// The common nodes, in a function kept small (its prologue runs on every node); the rest,
// with their lists and loops, in evalCold (eval_cold.cpp).
Value Game::evalNode(int n, const Ctx& c) const {
  const Def& d = *def_;
  const Node& nd = d.nodes.nodes[n];
  auto player = [&](int32_t p) { return p < 0 ? Value::null() : Value::ent(p); };
  switch (nd.op) {
    case N::Const: {
      const ConstVal& cv = d.nodes.consts[nd.imm];
      switch (cv.kind) {
        case 1: return Value::num(cv.v);
        case 2: return Value::boolean(cv.v != 0);
        case 3: return Value::str(cv.v);
        default: return Value::null();
      }
    }
    case N::PCurrent: return player(c.player);
    case N::PActive: return player(st_.active);
    case N::POpponent: return player(opponentOf(c.player));
    case N::PPriority: return player(st_.priority);
    case N::PIndex: {
      Value i = evalNode(nd.a, c);
      if (i.k() != VK::Int || i.v() < 0 || i.v() >= d.numPlayers()) return Value::null();
      return Value::ent(i.v());  // declaration order (players.ids), not turn order
    }
    case N::ESelf: return live(c.self);
    case N::ESelected: return live(c.selected);
    case N::Target: return (c.targets && !c.targets->empty()) ? liveValue((*c.targets)[0].get()) : Value::null();
    case N::Candidate: return c.candidate;
    case N::Item: return c.item;
    case N::X: return Value::num(c.x);
    case N::Mode: return c.mode < 0 ? Value::null() : Value::num(c.mode);
    case N::Turn: return Value::num(st_.turn);
    case N::ZoneNamed: {
      int32_t p = c.player >= 0 ? c.player : st_.active;
      return Value::zone(d.zoneInstance(nd.imm, p));
    }
    case N::EventField: {
      if (!c.event) return Value::null();
      const Event& ev = *c.event;
      switch ((EvField)nd.imm) {
        case EvField::Action: return ev.item < 0 ? Value::null() : Value::item(ev.item);
        case EvField::Player: return player(ev.player);
        case EvField::Entity: return liveValue(ev.entity.get());
        case EvField::Zone: return ev.zone.get();
        case EvField::From: return ev.from.get();
        case EvField::DamageValue: return Value::num(ev.damage);
        case EvField::Source: return liveValue(ev.source.get());
        case EvField::Phase:
          return ev.phase < 0 ? Value::null() : Value::str(d.phases[ev.phase].nameSym);
        case EvField::Winner: return player(ev.winner);
        case EvField::Turn: return Value::num(st_.turn);
        default: return Value::null();
      }
    }
    case N::QueueSize: return Value::num((int32_t)st_.queue.size());
    case N::QueueTop: return st_.queue.empty() ? Value::null() : Value::item(st_.queue.back().id);
    case N::Member: {
      Value o = evalNode(nd.a, c);
      if (o.k() == VK::List && nd.imm == d.b.zone) return zonesOfEntities(o);
      return member(o, nd.imm, c);
    }
    case N::Prop: {
      Value o = evalNode(nd.a, c);
      if (o.k() == VK::Ent) return st_.ents[o.v()].alive ? propValue(o.v(), nd.imm) : Value::null();
      return member(o, nd.b, c);
    }
    case N::Add: case N::Sub: case N::Mul: case N::Min: case N::Max:
      return Value::num(evalInt(n, c));
    case N::Eq: case N::Ne: case N::EqConst: case N::NeConst: case N::SamePlayer:
    case N::And: case N::Or: case N::Not: case N::Lt: case N::Le: case N::Gt: case N::Ge: case N::LtConst: case N::LeConst: case N::GtConst: case N::GeConst:
      return Value::boolean(evalBool(n, c));  // (one definition of each: evalBool)
    case N::SelfProp: {
      int32_t e = fusedSelf(nd.a, c);
      return e < 0 || !st_.ents[e].alive ? Value::null() : propValue(e, nd.imm);
    }
    case N::PlayerProp: {
      int32_t p = fusedPlayer(nd.a, c);
      return p < 0 ? Value::null() : propValue(p, nd.imm);
    }
    case N::SelfInZone: return Value::boolean(evalBool(n, c));
    default: return evalCold(n, c);
  }
}
}  // namespace rulestack
