// Loop-invariant parts of the actions' conditions. A condition is tested once per source
// (each card of a hand, say); a part of it that reads nothing of the move (no source,
// targets, X, mode or event) has the same value for every source of one enumeration, since
// the state does not change while moves are listed. Where such a part loops (over the
// entities of a type, a list, a `where`), it is marked N::Hoisted: Game::evalCold evaluates it
// once per enumeration and gives the same value to every source after (Crazy Eights'
// `$entity.table[0].suit`: a scan of every entity, once per card before). What an expression
// reads (Def::reads) also decides the loader's other shortcuts: Action::perAction and
// Action::conditionOnce.
#include <algorithm>

#include "rulestack/def.h"

namespace rulestack {

// (Before the fused forms: every a/b is a node but Prop's b, a symbol.)
unsigned Def::reads(int n) const {
  if (n < 0) return 0;
  const Node& nd = nodes.nodes[n];
  // (in a `where`'s test $candidate is the `where`'s own)
  unsigned f = reads(nd.a) | (nd.op == N::Prop ? 0 : reads(nd.b) & (nd.op == N::Where ? ~kReadsCandidate : ~0u));
  switch (nd.op) {
    case N::X: case N::Mode: return f | kReadsMove | kReadsModeOrX;
    case N::ESelf: case N::ESelected: case N::Target: case N::Targets: case N::Item: case N::Event: case N::EventField:
      return f | kReadsMove;
    case N::Candidate: return f | kReadsCandidate;
    case N::EOfType: case N::EAll: case N::Where: case N::Count: case N::Sum: case N::QueueItems: case N::Contains:
      return f | kLoops;
    default: return f;
  }
}

int Def::flowReads(int n) const {
  if (n < 0) return 0;
  const Node& nd = nodes.nodes[n];
  int f = 0;
  switch (nd.op) {
    case N::Const: case N::PIndex: break;
    case N::PCurrent: case N::POpponent: case N::PPriority: f = kFlowPlayer; break;
    case N::PActive: f = kFlowActive; break;
    case N::QueueSize: f = kFlowQueueSize; break;
    case N::Turn: f = kFlowTurn; break;
    case N::PhaseName: f = kFlowPhase; break;
    case N::ZoneNamed: f = kFlowPlayer | kFlowActive; break;  // (the context's player's, else the active one's)
    case N::SamePlayer: {  // PlayerProp's numbering: 0 current, 1 active, 2 opponent, 3+ a declared one
      for (int32_t x : {nd.a, nd.b}) f |= x == 1 ? kFlowActive : x == 0 || x == 2 ? kFlowPlayer : 0;
      return f;
    }
    case N::EqConst: case N::NeConst: case N::LtConst: case N::LeConst: case N::GtConst: case N::GeConst:
    case N::Eq: case N::Ne: case N::Lt: case N::Le: case N::Gt: case N::Ge: case N::And: case N::Or: case N::Not:
    case N::Add: case N::Sub: case N::Mul: case N::Div: case N::Mod: case N::Neg: case N::Min: case N::Max: case N::Abs:
      break;
    default: return -1;
  }
  int a = flowReads(nd.a), b = flowReads(nd.b);
  return a < 0 || b < 0 ? -1 : f | a | b;
}

void Def::flowIndex(Action& a) {
  a.flow = Action::FlowIndex{};
  const int r = flowReads(a.perAction.root);
  if (r < 0 || (r & kFlowTurn)) return;
  const int np = numPlayers();
  Action::FlowIndex f;
  int size = 1;
  if (r & kFlowPlayer) f.player = (uint16_t)size, size *= np;
  if (r & kFlowActive) f.active = (uint16_t)size, size *= np;
  if (r & kFlowQueueSize) f.queue = (uint16_t)size, size *= kFlowQueue;
  if (r & kFlowPhase) f.phase = (uint16_t)size, size *= std::max<int>(1, (int)phases.size());
  if (flowTableSize + size > kFlowTable) return;
  f.base = (int16_t)flowTableSize;
  flowTableSize += size;
  a.flow = f;
}

void Def::zonePhase(Phase& ph) {
  ph.zoneMasks = -1;
  if (ph.actions.empty() || ph.actions.size() > 7) return;  // (a mask of 7 bits and a known bit)
  const int zone = actions[ph.actions[0]].fromZone;
  for (int ai : ph.actions) {
    const Action& a = actions[ai];
    if (a.tmpl < 0 || zone < 0 || a.fromZone != zone || !a.fromActs || !a.direct || a.costShape != CostShape::Own) return;
    if (a.perAction.present() && a.flow.base < 0) return;
  }
  const int size = numPlayers() * numPlayers() * kFlowQueue;
  if (flowTableSize + size > kFlowTable) return;
  ph.zoneMasks = (int16_t)flowTableSize;
  flowTableSize += size;
  for (size_t j = 0; j < ph.actions.size(); j++) {
    const Action& a = actions[ph.actions[j]];
    ph.zoneActs[j] = {ph.actions[j], a.tmpl, a.cost[0].prop, a.tmplAmount};
  }
}

namespace {

// Whether n's value is a list (made in the evaluation's scratch: not kept from one test to
// the next, so not worth a slot).
bool givesList(N op) {
  switch (op) {
    case N::EOfType: case N::EAll: case N::Where: case N::QueueItems: case N::PAll: case N::Targets: return true;
    default: return false;
  }
}

// Marks the largest parts below n that read nothing of the move and loop.
void hoist(Def& d, int n) {
  if (n < 0 || d.numHoisted == Def::kMaxHoisted) return;
  Nodes& ns = d.nodes;
  const Node nd = ns.nodes[n];
  if (!givesList(nd.op) && d.reads(n) == Def::kLoops) {  // (loops, and reads nothing of the move)
    // the part moves to a new node; its old place (shared by perAction/perSource) becomes the mark
    ns.nodes.push_back(nd);
    ns.cols.push_back(ns.cols[n]);
    ns.nodes[n] = Node{N::Hoisted, (int32_t)ns.nodes.size() - 1, -1, d.numHoisted++};
    return;
  }
  hoist(d, nd.a);
  if (nd.op != N::Prop) hoist(d, nd.b);
}

}  // namespace

void Def::hoistInvariants() {
  for (Action& a : actions)
    if (a.condition.present()) hoist(*this, a.condition.root);
}

}  // namespace rulestack
