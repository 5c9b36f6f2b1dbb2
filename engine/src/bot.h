// Bots: a uniformly random player and a UCT Monte Carlo tree search (it searches the full
// state, so it sees hidden information; it is a sparring partner, not a fair opponent).
#pragma once
#include <cstdint>

#include "rulestack/game.h"

namespace rulestack {

struct BotOptions {
  bool mcts = false;
  uint64_t seed = 1;
  int iterations = 200;
  int maxPlayoutMoves = 2000;
};

// The move the bot chooses for `player` (who must be able to move).
Move botChoose(const Game& g, int player, const BotOptions& o);

// Plays random moves until the game ends or `maxMoves` is reached. Returns the moves made.
int randomPlayout(Game& g, Rng& rng, int maxMoves, std::vector<Move>& scratch);

}  // namespace rulestack
