// What the engine derives from a sound definition to run it fast: direct property reads,
// the zone an entity action is listed from, the split of conditions into what reads the card
// and what does not, what each end condition reads, and the fused nodes.
#include "loader_impl.h"

namespace rulestack {
namespace loader {

// Member access to a declared property reads it directly (not the built-ins id, owner,
// controller and zone, which win over a property of the same name).
void Loader::propertyMembers() {
  for (Node& n : d.nodes.nodes) {
    if (n.op != N::Member) continue;
    int p = d.prop(n.imm);
    if (p < 0 || n.imm == d.b.id || n.imm == d.b.owner || n.imm == d.b.controller || n.imm == d.b.zone) continue;
    n = Node{N::Prop, n.a, n.imm, p};
  }
}

// Which entity actions group identical cards, the split conditions, what each end condition
// reads, the hoisted invariants, the fused nodes and the trigger indexes.
void Loader::analyse() {
  // a .where whose test does not read its $candidate tests once (imm 1): nested in each
  // other's tests, wheres over n elements otherwise cost n^depth
  for (Node& nd : d.nodes.nodes)
    if (nd.op == N::Where) nd.imm = (d.reads(nd.b) & Def::kReadsCandidate) ? 0 : 1;
  // entity actions that read their source only through safe members (after the Prop pass)
  for (Action& a : d.actions) {
    if (a.tmpl < 0) continue;
    bool ok = selfSafe(a.condition.root, false) && selfSafe(a.xMin.root, false) && selfSafe(a.xMax.root, false) &&
              selfSafe(a.target.from.root, false) && selfSafe(a.target.filter.root, false);
    for (const Mutation& m : a.cost)
      ok = ok && selfSafe(m.target.root, false) && selfSafe(m.value.root, false) && selfSafe(m.condition.root, false) &&
           selfSafe(m.forEach.root, false);
    for (const Mode& mo : a.modes) ok = ok && selfSafe(mo.target.from.root, false) && selfSafe(mo.target.filter.root, false);
    a.groupable = ok;
  }
  for (Action& a : d.actions) {
    splitCondition(a);
    a.plain = !a.hasX && a.modes.empty() && !a.target.present;
    a.conditionOnce = !(d.reads(a.condition.root) & Def::kReadsModeOrX);
  }
  // what the end conditions read
  d.endPropMask.assign(d.propNames.size(), 0);
  for (EndCondition& c : d.ends) {
    endReads(c.when.root, c.reads);
    endReads(c.winner.root, c.reads);
    if (!c.reads) c.reads = Def::kEndTurn;          // (a constant: checked when a turn starts)
    c.perPlayer = readsCurrentPlayer(c.when.root) || readsCurrentPlayer(c.winner.root);
    if (c.reads & Def::kEndOther) d.endAny = true;
    std::vector<int> parts;
    if (c.when.present()) conjuncts(c.when.root, parts);  // (absent in a definition with errors)
    const size_t bit = (size_t)(&c - d.ends.data()) * d.turnOrder.size();
    if (parts.size() > 1 && !d.hasEffects && bit + d.turnOrder.size() <= 64) {
      endReads(parts[0], c.guardReads);
      if (c.guardReads) {
        c.guard = Expr{parts[0]};
        c.rest = andOf(parts, 1, parts.size());
        c.guardBit = 1ull << bit;
      }
    }
    for (size_t p = 0; p < d.propNames.size(); p++)
      if (c.reads & Def::endBit((int)p)) d.endPropMask[p] |= Def::endBit((int)p);
  }
  if (d.endAny)
    for (uint64_t& m : d.endPropMask) m |= Def::kEndOther;

  d.hoistInvariants();  // (after the analyses above, which read the plain shapes)
  fuse();

  // trigger indexes
  d.reactionsByKey.assign(2 * (int)Ev::Count, {});
  d.triggeredByKey.assign(2 * (int)Ev::Count, {});
  for (size_t i = 0; i < d.reactions.size(); i++)
    d.reactionsByKey[Def::key(d.reactions[i].before, d.reactions[i].event)].push_back((int)i);
  for (size_t i = 0; i < d.triggered.size(); i++)
    d.triggeredByKey[Def::key(d.triggered[i].before, d.triggered[i].event)].push_back((int)i);
  d.listens.assign(d.reactionsByKey.size(), 0);
  for (size_t k = 0; k < d.listens.size(); k++)
    d.listens[k] = !d.reactionsByKey[k].empty() || !d.triggeredByKey[k].empty();
  d.prepare();
}

// A condition whose top-level `and` chain says `$entity.self.zone == $zone.@Z` (or
// $entity.selected): legal-move enumeration then looks only at the entities in Z.
int Loader::requiredZone(int n) {
  const Node& nd = d.nodes.nodes[n];
  if (nd.op == N::And) {
    int z = requiredZone(nd.a);
    return z >= 0 ? z : requiredZone(nd.b);
  }
  return sourceZoneTest(n);
}

// The zone Z when n is `$entity.self.zone == $zone.@Z` (or $entity.selected), else -1.
int Loader::sourceZoneTest(int n) {
  const Node& nd = d.nodes.nodes[n];
  if (nd.op != N::Eq) return -1;
  auto isSourceZone = [&](int k) {
    const Node& m = d.nodes.nodes[k];
    if (m.op != N::Member || m.imm != d.b.zone) return false;
    N o = d.nodes.nodes[m.a].op;
    return o == N::ESelf || o == N::ESelected;
  };
  auto named = [&](int k) { return d.nodes.nodes[k].op == N::ZoneNamed ? d.nodes.nodes[k].imm : -1; };
  if (isSourceZone(nd.a) && named(nd.b) >= 0) return named(nd.b);
  if (isSourceZone(nd.b) && named(nd.a) >= 0) return named(nd.a);
  return -1;
}

// Whether expression n reads $entity.self/selected only as .zone, .type, .template, .tags,
// .controller or a property (`safe`: n is the object of such a member access).
bool Loader::selfSafe(int n, bool safe) {
  if (n < 0) return true;
  const Node& nd = d.nodes.nodes[n];
  if (nd.op == N::ESelf || nd.op == N::ESelected) return safe;
  if (nd.op == N::Member) {
    int s = nd.imm;
    bool member = s == d.b.zone || s == d.b.type || s == d.b.tmpl || s == d.b.tags || s == d.b.controller;
    return selfSafe(nd.a, member);
  }
  if (nd.op == N::Prop) return selfSafe(nd.a, true);
  if (nd.op == N::Sum) return selfSafe(nd.a, false);
  return selfSafe(nd.a, false) && selfSafe(nd.b, false);
}

// A condition's top-level `and` chain, in evaluation order.
void Loader::conjuncts(int n, std::vector<int>& out) {
  const Node& nd = d.nodes.nodes[n];
  if (nd.op == N::And) {
    conjuncts(nd.a, out);
    conjuncts(nd.b, out);
  } else {
    out.push_back(n);
  }
}

Expr Loader::andOf(const std::vector<int>& parts, size_t from, size_t to) {
  if (from >= to) return Expr{};
  int root = parts[from];
  for (size_t i = from + 1; i < to; i++) {
    d.nodes.nodes.push_back(Node{N::And, root, parts[i]});
    d.nodes.cols.push_back(d.nodes.cols[parts[i]]);
    root = (int)d.nodes.nodes.size() - 1;
  }
  return Expr{root};
}

// Action::perAction/perSource, for an action enumerated once per source (an entity action,
// a global one with `source` or reading $entity.selected). Only the leading conjuncts move:
// `and` stops at the first false one, so testing them first (once per enumeration) gives
// every card's result; an expression changes nothing and cannot fail, so it may be tested
// before any card is found. (Not with X: its bounds are evaluated before the condition.)
void Loader::splitCondition(Action& a) {
  if ((a.tmpl < 0 && !a.source.present() && !a.anySource) || a.hasX || !a.condition.present()) return;
  std::vector<int> parts, free;
  conjuncts(a.condition.root, parts);
  size_t k = 0;
  for (; k < parts.size(); k++) {
    // (an entity action listed from its zone only: the test is true for every card listed)
    if (a.tmpl >= 0 && a.fromZone >= 0 && sourceZoneTest(parts[k]) == a.fromZone) continue;
    if (d.reads(parts[k]) & (Def::kReadsMove | Def::kReadsCandidate)) break;  // (the same for every card)
    free.push_back(parts[k]);
  }
  if (free.empty()) return;
  a.perAction = andOf(free, 0, free.size());
  a.perSource = andOf(parts, k, parts.size());
}

bool Loader::readsCurrentPlayer(int n) {
  if (n < 0) return false;
  const Node& nd = d.nodes.nodes[n];
  if (nd.op == N::PCurrent || nd.op == N::POpponent || nd.op == N::ZoneNamed) return true;
  return readsCurrentPlayer(nd.a) || (nd.op != N::Prop && readsCurrentPlayer(nd.b));
}

// What a read of property p depends on: the property, or, when an effect changes it (a value
// derived from whatever the effect's expressions read), anything.
uint64_t Loader::propReads(int p) const {
  const bool derived = (size_t)p < d.effectOnProp.size() && d.effectOnProp[p];
  return derived ? Def::kEndOther : Def::endBit(p);
}

void Loader::endReads(int n, uint64_t& reads) {
  if (n < 0) return;
  const Node& nd = d.nodes.nodes[n];
  switch (nd.op) {
    case N::Const: case N::PCurrent: case N::POpponent: case N::PAll: case N::PIndex:
    case N::X: case N::Mode:
    case N::Add: case N::Sub: case N::Mul: case N::Div: case N::Mod: case N::Neg: case N::Eq: case N::Ne:
    case N::Lt: case N::Le: case N::Gt: case N::Ge: case N::And: case N::Or: case N::Not:
    case N::Min: case N::Max: case N::Abs:
      break;
    case N::Turn: case N::PActive:
      reads |= Def::kEndTurn;
      break;
    case N::Prop:  // b is a symbol, not a node
      reads |= propReads(nd.imm);
      endReads(nd.a, reads);
      return;
    case N::Member: {  // (the order of Game::member: these built-ins first, then a property)
      const Builtins& b = d.b;
      int p = d.prop(nd.imm);
      if (nd.imm == b.owner || nd.imm == b.controller || nd.imm == b.id)
        reads |= Def::kEndEnts;
      else if (p >= 0 && nd.imm != b.zone)
        reads |= propReads(p);
      else if (nd.imm == b.type || nd.imm == b.tmpl || nd.imm == b.tags)
        reads |= Def::kEndEnts;
      else
        reads |= Def::kEndOther;
      break;
    }
    case N::EOfType: case N::EAll:
      reads |= Def::kEndEnts;
      break;
    case N::Sum: {  // b is a symbol, not a node
      int p = d.prop(nd.imm);
      reads |= p >= 0 ? propReads(p) : Def::kEndOther;
      endReads(nd.a, reads);
      return;
    }
    // functions of their operands alone ($candidate: the element a `where` binds)
    case N::Candidate: case N::Where: case N::Size: case N::Count: case N::Contains: case N::Index:
      break;
    default:
      reads |= Def::kEndOther;  // zones, entities, the queue...: re-checked after any change
  }
  endReads(nd.a, reads);
  endReads(nd.b, reads);
}

// Common node shapes fused into one node (after every static analysis, which reads the
// plain shapes): evaluation visits about half the nodes for a typical condition.
void Loader::fuse() {
  auto& nodes = d.nodes.nodes;
  auto constInt = [&](int k, int32_t& v) {
    if (k < 0 || nodes[k].op != N::Const) return false;
    const ConstVal& cv = d.nodes.consts[nodes[k].imm];
    if (cv.kind != 1) return false;
    v = cv.v;
    return true;
  };
  auto who = [&](N op) { return op == N::ESelf ? 0 : op == N::ESelected ? 1 : -1; };
  auto playerWho = [&](N op) { return op == N::PCurrent ? 0 : op == N::PActive ? 1 : op == N::POpponent ? 2 : -1; };
  // a player node as PlayerProp's code (0 current, 1 active, 2 opponent, 3 + k $players[k]), or -1
  auto fusedWho = [&](int p) {
    int32_t k;
    if (playerWho(nodes[p].op) >= 0) return playerWho(nodes[p].op);
    if (nodes[p].op == N::PIndex && constInt(nodes[p].a, k) && k >= 0 && k < d.numPlayers()) return 3 + k;
    return -1;
  };
  for (size_t i = 0; i < nodes.size(); i++) {
    Node& n = nodes[i];
    if (n.op != N::Prop) continue;
    if (who(nodes[n.a].op) >= 0) n = Node{N::SelfProp, who(nodes[n.a].op), -1, n.imm};
    else if (fusedWho(n.a) >= 0) n = Node{N::PlayerProp, fusedWho(n.a), -1, n.imm};  // (and $players[k].<prop>)
  }
  for (size_t i = 0; i < nodes.size(); i++) {
    Node& n = nodes[i];
    int32_t k;
    if (n.op == N::Eq) {
      // $entity.self.zone == $zone.@Z (either side)
      for (int side = 0; side < 2; side++) {
        int l = side ? n.b : n.a, r = side ? n.a : n.b;
        const Node& m = nodes[l];
        if (m.op == N::Member && m.imm == d.b.zone && who(nodes[m.a].op) >= 0 && nodes[r].op == N::ZoneNamed) {
          n = Node{N::SelfInZone, who(nodes[m.a].op), -1, nodes[r].imm};
          break;
        }
      }
    }
    if (n.op == N::Eq || n.op == N::Ne) {  // $player.current == $player.active and the like
      int l = fusedWho(n.a), r = fusedWho(n.b);
      if (l >= 0 && r >= 0) n = Node{N::SamePlayer, l, r, n.op == N::Ne};
    }
    static const std::pair<N, N> cmp[] = {{N::Eq, N::EqConst}, {N::Ne, N::NeConst}, {N::Lt, N::LtConst},
                                          {N::Le, N::LeConst}, {N::Gt, N::GtConst}, {N::Ge, N::GeConst}};
    for (auto& c : cmp)
      if (n.op == c.first && constInt(n.b, k)) { n = Node{c.second, n.a, -1, k}; break; }
  }
}

}  // namespace loader
}  // namespace rulestack
