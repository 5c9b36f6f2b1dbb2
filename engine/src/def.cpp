// What a definition knows of itself once loaded: which mutation lists run at once, and
// what paying each action's cost can fail on.
#include "rulestack/def.h"

#include <algorithm>

namespace rulestack {

// Arithmetic, Shuffle, Promote and EndTurn never set off an event; a draw, a move, damage
// and a destroy set off only the events their names say, which may have no listener.
bool Def::runsAtOnce(const std::vector<Mutation>& ms) const {
  for (const Mutation& m : ms) {
    if (m.forEach.present()) return false;
    switch (m.op) {
      case Op::Set: case Op::Add: case Op::Sub: case Op::Mul: case Op::Div: case Op::Shuffle: case Op::Promote:
      case Op::EndTurn:
        break;
      case Op::DrawCard:
        if (heard(Ev::DrawFailed)) return false;
        [[fallthrough]];
      case Op::MoveZone: case Op::Destroy:  // (attachments move and are discarded with them)
        if (usesAttach || heard(Ev::OnZoneEnter)) return false;
        break;
      case Op::Damage:
        if (heard(Ev::DamageTaken)) return false;
        break;
      default:
        return false;
    }
  }
  return true;
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

void Def::prepare() {
  for (Phase& p : phases) p.onEnterAtOnce = runsAtOnce(p.onEnter);
  for (Action& a : actions) {
    a.costAtOnce = runsAtOnce(a.cost);
    a.costShape = costShape(a.cost);
    a.mutationsAtOnce = runsAtOnce(a.mutations);
    for (Mode& m : a.modes) m.atOnce = runsAtOnce(m.mutations);
  }
}

}  // namespace rulestack
