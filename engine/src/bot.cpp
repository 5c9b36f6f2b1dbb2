#include "bot.h"

#include <cmath>
#include <memory>

namespace rulestack {

int randomPlayout(Game& g, Rng& rng, int maxMoves, std::vector<Move>& moves) {
  int n = 0;
  while (!g.state().over() && n < maxMoves) {
    int who = g.nextToAct();
    if (who < 0) break;
    g.legalMoves(who, moves);
    if (moves.empty()) break;
    g.applyUnchecked(who, moves[rng.below((uint32_t)moves.size())]);
    n++;
  }
  return n;
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

Move botChoose(const Game& g, int player, const BotOptions& o) {
  Rng rng;
  rng.seed(o.seed ^ (uint64_t)g.hash());
  std::vector<Move> moves;
  g.legalMoves(player, moves);
  if (moves.empty()) return Move{};
  if (!o.mcts || moves.size() == 1) return moves[rng.below((uint32_t)moves.size())];

  TreeNode root;
  root.untried = moves;
  root.expanded = true;
  std::vector<Move> scratch;
  for (int it = 0; it < o.iterations; it++) {
    Game sim = g.clone();
    try {
    TreeNode* node = &root;
    std::vector<TreeNode*> path{node};
    // selection
    while (node->untried.empty() && !node->children.empty()) {
      double best = -1;
      TreeNode* pick = nullptr;
      for (auto& c : node->children) {
        double u = c->reward / (c->visits + 1e-9) + 1.4 * std::sqrt(std::log(node->visits + 1.0) / (c->visits + 1e-9));
        if (u > best) { best = u; pick = c.get(); }
      }
      sim.applyUnchecked(pick->player, pick->move);
      node = pick;
      path.push_back(node);
    }
    // expansion
    if (!node->untried.empty() && !sim.state().over()) {
      auto who = sim.toAct();
      if (!who.empty()) {
        size_t k = rng.below((uint32_t)node->untried.size());
        auto child = std::make_unique<TreeNode>();
        child->move = node->untried[k];
        child->player = who[0];
        node->untried.erase(node->untried.begin() + k);
        sim.applyUnchecked(child->player, child->move);
        auto next = sim.toAct();
        if (!next.empty()) sim.legalMoves(next[0], child->untried);
        node->children.push_back(std::move(child));
        node = node->children.back().get();
        path.push_back(node);
      }
    }
    randomPlayout(sim, rng, o.maxPlayoutMoves, scratch);
    for (TreeNode* n : path) {
      n->visits++;
      if (n->player >= 0) n->reward += rewardFor(sim.state(), n->player);
    }
    } catch (const std::exception&) {
      // a move that fails at run time (a definition error, a loop) ends this simulation
    }
  }
  const TreeNode* best = nullptr;
  for (auto& c : root.children)
    if (!best || c->visits > best->visits) best = c.get();
  return best ? best->move : moves[0];
}

}  // namespace rulestack
