// Loop-invariant parts of the actions' conditions. A condition is tested once per source
// (each card of a hand, say); a part of it that reads nothing of the move (no source,
// targets, X, mode or event) has the same value for every source of one enumeration, since
// the state does not change while moves are listed. Where such a part loops (over the
// entities of a type, a list, a `where`), it is marked N::Hoisted: Game::evalCold evaluates it
// once per enumeration and gives the same value to every source after (Crazy Eights'
// `$entity.table[0].suit`: a scan of every entity, once per card before). What an expression
// reads (Def::reads) also decides the loader's other shortcuts: Action::perAction and
// Action::conditionOnce.
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
