// What a definition knows of itself once loaded: which mutation lists run at once, and
// what paying each action's cost can fail on.
#include "rulestack/def.h"

#include <algorithm>

namespace rulestack {

// Arithmetic, Shuffle, Promote and EndTurn never set off an event; a draw, a move, damage
// and a destroy set off only the events their names say, which may have no listener.
bool Def::runsAtOnce(const std::vector<Mutation>& ms) const {
  for (const Mutation& m : ms)
    if (m.forEach.present() || !opAtOnce(m)) return false;
  return true;
}

bool Def::opAtOnce(const Mutation& m) const {
  switch (m.op) {
    case Op::Set: case Op::Add: case Op::Sub: case Op::Mul: case Op::Div: case Op::Shuffle: case Op::Promote:
    case Op::EndTurn: case Op::Give:
      return true;
    case Op::DrawCard:
      if (heard(Ev::DrawFailed)) return false;
      [[fallthrough]];
    case Op::MoveZone: case Op::Destroy:  // (attachments move and are discarded with them)
      return !usesAttach && !heard(Ev::OnZoneEnter);
    case Op::Damage:
      return !heard(Ev::DamageTaken);
    case Op::Cancel:  // (an item taken off the queue: ActionCancelled, and its card's move)
      return !usesAttach && !heard(Ev::ActionCancelled) && !heard(Ev::OnZoneEnter);
    default:
      return false;
  }
}

PlayerCmp Def::playerCmp(const Expr& e) const {
  PlayerCmp q;
  if (!e.present()) return q;
  const Node& n = nodes.nodes[e.root];
  if (n.op != N::LtConst && n.op != N::LeConst && n.op != N::GtConst && n.op != N::GeConst) return q;
  const Node& v = nodes.nodes[n.a];
  if (v.op != N::PlayerProp) return q;
  q.op = n.op;
  q.who = v.a;
  q.prop = v.imm;
  q.k = n.imm;
  return q;
}

// (A mutation that takes nothing away is never a reason not to pay: Game::canPayAll.)
CostShape Def::costShape(const std::vector<Mutation>& cost) const {
  auto takes = [](const Mutation& m) { return m.op == Op::Sub && m.prop >= 0 && !m.forEach.present(); };
  if (std::none_of(cost.begin(), cost.end(), takes)) return CostShape::Free;
  const Mutation& m = cost[0];
  if (cost.size() == 1 && m.target.present() && nodes.singleValued(m.target) && !m.condition.present())
    return CostShape::One;
  return CostShape::Any;
}

// Whether the expressions rooted at a and b are the same tree (the same text, compiled twice).
bool Def::sameExpr(int a, int b) const {
  if (a < 0 || b < 0) return a == b;
  const Node &x = nodes.nodes[a], &y = nodes.nodes[b];
  if (x.op != y.op) return false;
  if (x.op == N::Const) {
    const ConstVal &p = nodes.consts[x.imm], &q = nodes.consts[y.imm];
    return p.kind == q.kind && p.v == q.v;
  }
  return x.imm == y.imm && sameExpr(x.a, y.a) && sameExpr(x.b, y.b);
}

// A One cost is Own when the player pays it from a constant or a property of the source, with
// no effects: Game::canPay reads both in place (Game::amount reads those two amounts so).
void Def::ownCost(Action& a) const {
  if (a.costShape != CostShape::One || hasEffects) return;
  const Mutation& m = a.cost[0];
  if (nodes.nodes[m.target.root].op != N::PCurrent) return;
  const N v = m.value.present() ? nodes.nodes[m.value.root].op : N::Const;
  if (v != N::SelfProp && v != N::Const) return;
  a.costShape = CostShape::Own;
  // what a card of the template pays while no entity's property was set (Game::propsVary_):
  // the constant, or the template's own value of the property (0 when it declares none)
  a.tmplAmount = 0;
  if (!m.value.present() || a.tmpl < 0) return;
  const Node& nd = nodes.nodes[m.value.root];
  if (v == N::Const) a.tmplAmount = constInt(nodes.consts[nd.imm]);
  else
    for (auto& kv : templates[a.tmpl].props)
      if (kv.first == nd.imm) a.tmplAmount = asInt(kv.second.get());
}

void Def::markQuick(std::vector<Mutation>& ms) const {
  for (Mutation& m : ms) {
    m.quick = (m.op == Op::Set || m.op == Op::Add || m.op == Op::Sub || m.op == Op::Mul || m.op == Op::Div) &&
              m.prop >= 0 && m.eventField < 0 && m.target.present() && nodes.singleValued(m.target);
    m.conditionCmp = playerCmp(m.condition);
  }
}

int Def::typeIndex(int sym) const {
  for (size_t t = 0; t < typeSyms.size(); t++)
    if (typeSyms[t] == sym) return (int)t;
  return -1;
}

void Def::prepare() {
  tmplType.clear();
  typeSyms.clear();
  for (const Template& t : templates) {
    int k = typeIndex(t.typeSym);
    if (k < 0) {
      k = (int)typeSyms.size();
      typeSyms.push_back(t.typeSym);
    }
    tmplType.push_back(k);
  }
  for (Phase& p : phases) {
    p.onEnterAtOnce = runsAtOnce(p.onEnter);
    markQuick(p.onEnter);
  }
  for (Reaction& r : reactions) markQuick(r.mutations);
  for (Triggered& t : triggered) markQuick(t.mutations);
  markQuick(setup);
  flowTableSize = 0;  // (prepared again, the table is laid out again)
  for (Action& a : actions) {
    markQuick(a.cost);
    markQuick(a.mutations);
    for (Mode& m : a.modes) markQuick(m.mutations);
    a.costAtOnce = runsAtOnce(a.cost);
    a.costShape = costShape(a.cost);
    ownCost(a);
    a.mutationsAtOnce = runsAtOnce(a.mutations);
    for (Mode& m : a.modes) m.atOnce = runsAtOnce(m.mutations);
    if (a.fromZone >= 0) {
      const ZoneDef& z = zones[a.fromZone];
      a.fromBase = z.base;
      a.fromPerPlayer = z.perPlayer;
      a.fromActs = z.actions;
    }
    a.group = a.groupable && !hasEffects;
    a.direct = a.plain && !(a.perAction.present() ? a.perSource : a.condition).present();
    a.perActionKey = -1;
    if (a.perAction.present())
      for (const Action& b : actions) {
        if (&b == &a) break;
        if (b.perAction.present() && sameExpr(a.perAction.root, b.perAction.root)) { a.perActionKey = b.perActionKey; break; }
      }
    if (a.perAction.present() && a.perActionKey < 0) a.perActionKey = (int)(&a - actions.data());
    // a perAction of the flow alone keeps its values from one enumeration to the next
    if (a.perAction.present()) {
      if (a.perActionKey != (int)(&a - actions.data())) a.flow = actions[a.perActionKey].flow;
      else flowIndex(a);
    }
  }
  for (Phase& ph : phases) zonePhase(ph);
  for (EndCondition& ec : ends) {
    ec.whenCmp = playerCmp(ec.when);
    ec.guardCmp = playerCmp(ec.guard);
    ec.restCmp = playerCmp(ec.rest);
    ec.guardIsTurn = false;
    if (!ec.guard.present()) continue;
    const Node& g = nodes.nodes[ec.guard.root];
    if ((g.op != N::GtConst && g.op != N::GeConst) || nodes.nodes[g.a].op != N::Turn) continue;
    if (g.op == N::GtConst && g.imm == INT32_MAX) continue;  // (never: left to the test)
    ec.guardIsTurn = true;
    ec.guardTurn = g.op == N::GtConst ? g.imm + 1 : g.imm;
  }
}

}  // namespace rulestack
