// The rarer nodes of expression evaluation, those that build lists or loop: evalNode hands
// them here. Rarer, not rare: a game of many cards ($entity.<type>.where(...), as Nexus's
// attacks and end conditions) reads them at every move, so wasm compiles them for speed too.
#include <algorithm>

#include "rulestack/game.h"

namespace rulestack {

// The zones f gives for the live entities and players of a list, each once, in list order.
template <class F>
Value Game::zonesOf(Value list, F f) const {
  int32_t off = (int32_t)scratch_.size();
  for (int32_t i = 0; i < list.n(); i++) {
    Value x = scratch_[list.v() + i];  // (read by index: the pushes below may move scratch_)
    if (x.k() != VK::Ent || !st_.ents[x.v()].alive) continue;
    Value z = f(x);
    if (z.isNull() || std::find(scratch_.begin() + off, scratch_.end(), z) != scratch_.end()) continue;
    scratch_.push_back(z);
  }
  return listFrom(off);
}

// The zones the live entities of a list are in, each once ($cards.zone).
Value Game::zonesOfEntities(Value list) const {
  return zonesOf(list, [&](Value x) { return st_.ents[x.v()].zone < 0 ? Value::null() : Value::zone(st_.ents[x.v()].zone); });
}

// A value as a list: a list's elements, a zone's entities, anything else itself (null: none).
int32_t Game::elemCount(Value v) const {
  return v.k() == VK::List ? v.n() : v.k() == VK::Zone ? (int32_t)st_.zones[v.v()].size() : v.isNull() ? 0 : 1;
}
Value Game::elemAt(Value v, int32_t i) const {
  return v.k() == VK::List ? scratch_[v.v() + i] : v.k() == VK::Zone ? Value::ent(st_.zones[v.v()][i]) : v;
}

// A member of a value by name (the built-ins, a property not read in place, an item's
// fields): rarer than the fused property reads evalNode does itself.
Value Game::member(Value obj, int sym, const Ctx& c) const {
  const Def& d = *def_;
  const Builtins& b = d.b;
  switch (obj.k()) {
    case VK::Ent: {
      const Entity& e = st_.ents[obj.v()];
      if (!e.alive) return Value::null();  // a destroyed entity reads as null through any reference
      if (sym == b.id) return obj;
      if (sym == b.owner) return e.tmpl < 0 ? obj : (e.owner < 0 ? Value::null() : Value::ent(e.owner));
      if (sym == b.controller) return e.tmpl < 0 ? obj : (e.controller < 0 ? Value::null() : Value::ent(e.controller));
      if (sym == b.zone) return e.zone < 0 ? Value::null() : Value::zone(e.zone);
      int p = d.prop(sym);
      if (p >= 0) return propValue(obj.v(), p);
      if (sym == b.type) return Value::str(e.tmpl < 0 ? b.player : d.templates[e.tmpl].typeSym);  // (a player's: 'player')
      if (sym == b.tmpl) return e.tmpl < 0 ? Value::null() : Value::str(d.templates[e.tmpl].idSym);
      if (sym == b.tags) {
        int32_t off = (int32_t)scratch_.size();
        if (e.tmpl >= 0)
          for (int t : d.templates[e.tmpl].tags) scratch_.push_back(Value::str(t));
        return listFrom(off);
      }
      if (sym == b.host) return e.host < 0 ? Value::null() : Value::ent(e.host);
      if (sym == b.index) {
        if (e.zone < 0) return Value::null();
        auto& z = st_.zones[e.zone];
        return Value::num((int32_t)(std::find(z.begin(), z.end(), obj.v()) - z.begin()));
      }
      if (sym == b.entity) return obj;
      if (sym == b.player) return e.tmpl < 0 ? obj : Value::null();  // $target.player
      return Value::null();
    }
    case VK::Zone: {
      if (sym == b.size) return Value::num((int32_t)st_.zones[obj.v()].size());
      if (sym == b.entities) {
        int32_t off = (int32_t)scratch_.size();
        for (int32_t e : st_.zones[obj.v()]) scratch_.push_back(Value::ent(e));
        return listFrom(off);
      }
      if (sym == b.top) return st_.zones[obj.v()].empty() ? Value::null() : Value::ent(st_.zones[obj.v()].front());
      if (sym == b.owner) {
        int32_t o = zoneOwner(obj.v());
        return o < 0 ? Value::null() : Value::ent(o);
      }
      if (sym == b.name) return Value::str(d.zones[zoneDefOf(obj.v())].nameSym);
      if (sym == b.zone) return obj;
      return Value::null();
    }
    case VK::Item: {
      const Item* it = findItem(obj.v());
      if (!it) return Value::null();
      if (sym == b.name) {  // (the action's, the reaction's or the triggered action's: as the view shows it)
        switch (it->kind) {
          case ItemKind::Action: return Value::str(d.actions[it->def].nameSym);
          case ItemKind::Reaction: return Value::str(d.reactions[it->def].nameSym);
          case ItemKind::Triggered: return Value::str(d.triggered[it->def].nameSym);
        }
      }
      if (sym == b.source || sym == b.entity) return live(it->source);
      if (sym == b.player) return Value::ent(it->player);
      if (sym == b.targets) {
        int32_t off = (int32_t)scratch_.size();
        for (const Slot& s : it->targets)
          if (!liveValue(s.get()).isNull()) scratch_.push_back(s.get());
        return listFrom(off);
      }
      if (sym == b.target) return it->targets.empty() ? Value::null() : liveValue(it->targets[0].get());
      if (sym == b.mode) return it->mode < 0 ? Value::null() : Value::num(it->mode);
      if (sym == b.x) return it->hasX ? Value::num(it->x) : Value::null();
      if (sym == b.cancelled) return Value::boolean(it->cancelled);
      for (auto& kv : it->props)
        if (kv.first == sym) return kv.second.get();
      if (it->source >= 0) return member(live(it->source), sym, c);
      return Value::null();
    }
    case VK::Str:
      if (sym == b.size) return Value::num((int32_t)d.syms.names[obj.v()].size());
      return Value::null();
    default:
      return Value::null();
  }
}

Value Game::evalCold(int n, const Ctx& c) const {
  const Def& d = *def_;
  const Node& nd = d.nodes.nodes[n];
  switch (nd.op) {
    case N::Hoisted: {  // (a list lives in this evaluation's scratch only: never kept)
      if (!hoistOn_) return evalNode(nd.a, c);
      Hoisted& h = hoisted_[nd.imm];
      if (h.at == hoistAt_) return h.v;
      Value v = evalNode(nd.a, c);
      if (v.k() != VK::List) h = Hoisted{hoistAt_, v};
      return v;
    }
    case N::PAll: {
      int32_t off = (int32_t)scratch_.size();
      if (nd.imm == 1)
        for (int p = 0; p < d.numPlayers(); p++) scratch_.push_back(Value::ent(p));  // $players: declared order
      else
        for (int p : d.turnOrder) scratch_.push_back(Value::ent(p));
      return Value::list(off, (int32_t)d.turnOrder.size());
    }
    case N::EOfType: {  // (from the index by type: the same entities, in id order)
      int32_t off = (int32_t)scratch_.size();
      int t = d.typeIndex(nd.imm);
      if (t < 0) return listFrom(off);
      for (auto [at, end] = entitiesOfType(t); at != end; at++)
        if (st_.ents[*at].alive) scratch_.push_back(Value::ent(*at));
      return listFrom(off);
    }
    case N::EAll: {
      int32_t off = (int32_t)scratch_.size();
      for (int32_t e = d.numPlayers(); e < (int32_t)st_.ents.size(); e++)
        if (st_.ents[e].alive) scratch_.push_back(Value::ent(e));
      return listFrom(off);
    }
    case N::Targets: {
      int32_t off = (int32_t)scratch_.size();
      if (c.targets)
        for (const Slot& s : *c.targets)
          if (!liveValue(s.get()).isNull()) scratch_.push_back(s.get());
      return listFrom(off);
    }
    case N::PhaseName:
      return st_.phase < 0 || st_.phase >= (int)d.phases.size() ? Value::null() : Value::str(d.phases[st_.phase].nameSym);
    case N::ZoneOf: {
      Value p = evalNode(nd.a, c);
      auto zoneOf = [&](Value x) {
        int32_t pl = x.v() < d.numPlayers() ? x.v() : st_.ents[x.v()].owner;
        return Value::zone(d.zoneInstance(nd.imm, pl));
      };
      if (p.k() == VK::List) return zonesOf(p, zoneOf);  // each player's (or owner's) zone, once
      if (p.k() != VK::Ent) return Value::null();
      return zoneOf(p);
    }
    case N::Event: return Value::null();
    case N::QueueItems: {
      int32_t off = (int32_t)scratch_.size();
      for (auto it = st_.queue.rbegin(); it != st_.queue.rend(); ++it) scratch_.push_back(Value::item(it->id));
      return Value::list(off, (int32_t)st_.queue.size());
    }
    case N::Index: {
      Value l = evalNode(nd.a, c);
      Value i = evalNode(nd.b, c);
      if (i.k() != VK::Int) return Value::null();
      if (l.k() == VK::List) return (i.v() >= 0 && i.v() < l.n()) ? scratch_[l.v() + i.v()] : Value::null();
      if (l.k() == VK::Zone) {
        auto& z = st_.zones[l.v()];
        return (i.v() >= 0 && i.v() < (int32_t)z.size()) ? Value::ent(z[i.v()]) : Value::null();
      }
      return Value::null();
    }
    case N::Contains: {
      Value l = evalNode(nd.a, c);
      Value x = evalNode(nd.b, c);
      // (as == compares: an entity, zone or player also matches the string of its id)
      if (l.k() == VK::List) {
        for (int32_t i = 0; i < l.n(); i++)
          if (equal(scratch_[l.v() + i], x)) return Value::boolean(true);
        return Value::boolean(false);
      }
      if (l.k() == VK::Zone) {
        const int32_t e = x.k() == VK::Str ? findEntity(def_->syms.names[x.v()]) : x.k() == VK::Ent ? x.v() : -1;
        return Value::boolean(e >= 0 && st_.ents[e].zone == l.v());
      }
      return Value::boolean(!l.isNull() && equal(l, x));
    }
    case N::Where: {
      // the elements read where they are (by index: the test may add lists of its own to the
      // scratch), which are kept noted as bits, then put after all the test added
      const Value l = evalNode(nd.a, c);
      const int32_t n = elemCount(l);
      uint64_t few = 0;
      std::vector<uint64_t> many;  // (more than 64 elements)
      uint64_t* keep = &few;
      if (n > 64) many.assign((size_t)(n + 63) / 64, 0), keep = many.data();
      Ctx c2 = c;
      // (what a test adds to the scratch is read for its truth only: dropped at once, else
      // .where nested in a test would keep a list per element of each level)
      const size_t mark = scratch_.size();
      for (int32_t i = 0; i < n; i++) {
        c2.candidate = elemAt(l, i);
        keep[i >> 6] |= (uint64_t)truth(evalNode(nd.b, c2)) << (i & 63);
        scratch_.resize(mark);
        if (nd.imm && i == 0) {  // a test that does not read $candidate: the same for all (Loader::analyse)
          if (n > 1 && (keep[0] & 1)) for (int32_t k = 1; k < n; k++) keep[k >> 6] |= (uint64_t)1 << (k & 63);
          break;
        }
      }
      int32_t off = (int32_t)scratch_.size();
      for (int32_t i = 0; i < n; i++)
        if (keep[i >> 6] >> (i & 63) & 1) scratch_.push_back(elemAt(l, i));
      return listFrom(off);
    }
    case N::Size:
    case N::Count: {
      Value l = evalNode(nd.a, c);
      if (l.k() == VK::List) return Value::num(l.n());
      if (l.k() == VK::Zone) return Value::num((int32_t)st_.zones[l.v()].size());
      return Value::num(l.isNull() ? 0 : 1);
    }
    case N::Sum: {
      const Value l = evalNode(nd.a, c);
      int p = d.prop(nd.imm);
      int32_t s = 0;
      for (int32_t i = 0, n = elemCount(l); i < n; i++) {
        Value v = elemAt(l, i);
        if (v.k() == VK::Ent && p >= 0) s += prop(v.v(), p);
      }
      return Value::num(s);
    }
    case N::Div: {
      int32_t a = evalInt(nd.a, c), b = evalInt(nd.b, c);
      if (b == -1) return Value::num((int32_t)(0u - (uint32_t)a));  // (wraps: INT32_MIN / -1 is INT32_MIN)
      return Value::num(b == 0 ? 0 : a / b);
    }
    case N::Mod: {
      int32_t a = evalInt(nd.a, c), b = evalInt(nd.b, c);
      return Value::num(b == 0 || b == -1 ? 0 : a % b);
    }
    case N::Neg: return Value::num((int32_t)(0u - (uint32_t)evalInt(nd.a, c)));
    case N::Abs: {
      int32_t a = evalInt(nd.a, c);
      return Value::num(a < 0 ? (int32_t)(0u - (uint32_t)a) : a);  // (wraps: abs(INT32_MIN) is INT32_MIN)
    }
    default: return Value::null();
  }
}

// Two lists (both in the scratch, which only grows while an expression is evaluated: neither
// operand's list is overwritten by the other's) are equal when they have as many elements and
// each equals the other's at its place.
bool Game::sameList(Value a, Value b) const {
  if (a.n() != b.n()) return false;
  for (int32_t i = 0; i < a.n(); i++)
    if (!equal(scratch_[a.v() + i], scratch_[b.v() + i])) return false;
  return true;
}

}  // namespace rulestack
