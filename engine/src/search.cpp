// The hot part of the bots: random playouts and the UCT search over them, apart from bot.cpp
// so that the wasm build compiles it for speed and the rest of the bots for size.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>

#include "bot.h"

namespace rulestack {

int randomPlayout(Game& g, Rng& rng, int maxMoves, std::vector<Move>& moves) {
  int n = 0;
  while (!g.state().over() && n < maxMoves) {
    int who = g.nextToAct();
    if (who < 0) break;
    const std::vector<Move>& ms = g.movesOf(who, moves);
    if (ms.empty()) break;
    // (ms may be the game's own list, which applying it lists again: applyUnchecked reads the
    // move before the flow goes on, so no copy)
    g.applyUnchecked(who, ms[rng.below((uint32_t)ms.size())]);
    n++;
  }
  return n;
}

// lnCount (bot.h) is fdlibm's log, its other cases left out, rather than std::log: the C
// libraries round its last bit differently (glibc's FMA variant, musl's), which could part a
// native and a wasm search at a near tie, and musl's brings 4 KB of tables to the wasm module.
// Plain double operations: the same bits wherever nothing fuses a * b + c (CMakeLists.txt
// compiles the engine with -ffp-contract=off, for targets with FMA instructions).
double lnCount(double n) {
  const double ln2Hi = 6.93147180369123816490e-01, ln2Lo = 1.90821492927058770002e-10;
  const double lg1 = 6.666666666666735130e-01, lg2 = 3.999999999940941908e-01, lg3 = 2.857142874366239149e-01,
               lg4 = 2.222219843214978396e-01, lg5 = 1.818357216161805012e-01, lg6 = 1.531383769920937332e-01,
               lg7 = 1.479819860511658591e-01;
  uint64_t bits;
  std::memcpy(&bits, &n, 8);
  // n = 2^k * m with m in [sqrt(2)/2, sqrt(2))
  uint32_t hi = (uint32_t)(bits >> 32) + (0x3ff00000 - 0x3fe6a09e);
  int k = (int)(hi >> 20) - 0x3ff;
  hi = (hi & 0x000fffff) + 0x3fe6a09e;
  bits = (uint64_t)hi << 32 | (bits & 0xffffffff);
  double m;
  std::memcpy(&m, &bits, 8);
  double f = m - 1.0, hfsq = 0.5 * f * f, s = f / (2.0 + f), z = s * s, w = z * z;
  double t1 = w * (lg2 + w * (lg4 + w * lg6)), t2 = z * (lg1 + w * (lg3 + w * (lg5 + w * lg7)));
  double dk = k;
  return s * (hfsq + t2 + t1) + dk * ln2Lo - hfsq + f + dk * ln2Hi;
}

namespace {
struct TreeNode {
  Move move;
  int player = -1;  // who made `move`
  int visits = 0;
  double reward = 0;  // for `player`
  std::vector<std::unique_ptr<TreeNode>> children;
  std::vector<Move> untried;
  bool expanded = false;
};

double rewardFor(const State& s, int player) {
  if (!s.over()) return 0.5;
  if (s.result < 0) return 0.5;
  return s.result == player ? 1.0 : 0.0;
}

}  // namespace

void search(const Game& g, const std::vector<Move>& moves, int iterations, int maxPlayoutMoves, Rng& rng,
            std::vector<int>& visits) {
  TreeNode root;
  root.untried = moves;
  root.expanded = true;
  std::vector<Move> scratch;
  Game sim = g.clone();
  for (int it = 0; it < iterations; it++) {
    if (it > 0) sim.copyFrom(g);  // (one game, its memory reused by every playout)
    try {
      TreeNode* node = &root;
      std::vector<TreeNode*> path{node};
      // selection
      while (node->untried.empty() && !node->children.empty()) {
        double best = -1;
        TreeNode* pick = nullptr;
        const double lnN = lnCount(node->visits + 1.0);
        for (auto& c : node->children) {
          double u = c->reward / (c->visits + 1e-9) + 1.4 * std::sqrt(lnN / (c->visits + 1e-9));
          if (u > best) { best = u; pick = c.get(); }
        }
        sim.applyUnchecked(pick->player, pick->move);
        node = pick;
        path.push_back(node);
      }
      // expansion
      if (!node->untried.empty() && !sim.state().over()) {
        int who = sim.nextToAct();
        if (who >= 0) {
          size_t k = rng.below((uint32_t)node->untried.size());
          auto child = std::make_unique<TreeNode>();
          child->move = node->untried[k];
          child->player = who;
          node->untried.erase(node->untried.begin() + k);
          sim.applyUnchecked(child->player, child->move);
          int next = sim.nextToAct();
          if (next >= 0) sim.legalMoves(next, child->untried);
          node->children.push_back(std::move(child));
          node = node->children.back().get();
          path.push_back(node);
        }
      }
      randomPlayout(sim, rng, maxPlayoutMoves, scratch);
      for (TreeNode* n : path) {
        n->visits++;
        if (n->player >= 0) n->reward += rewardFor(sim.state(), n->player);
      }
    } catch (const std::exception&) {
      // a move that fails at run time (a definition error, a loop) ends this simulation
    }
  }
  for (auto& c : root.children)
    for (size_t i = 0; i < moves.size(); i++)
      if (moves[i] == c->move) { visits[i] += c->visits; break; }
}

}  // namespace rulestack
