// Bots: a uniformly random player and Monte Carlo tree search (UCT). Both are fair by
// default: a bot for player p decides from p's view and its seed only, and MCTS searches
// determinizations of the hidden part (information-set MCTS). `omniscient` searches the true
// state: a sparring partner for tests, not an opponent for people.
#pragma once
#include <cstdint>
#include <string>

#include "rulestack/game.h"

namespace rulestack {

struct BotOptions {
  bool mcts = false;
  bool omniscient = false;
  uint64_t seed = 1;
  int iterations = 200;
  int maxPlayoutMoves = 2000;
};

// Strengths named for people ("easy", "normal", "hard"): MCTS budgets per move. false for
// another name.
bool botLevel(const std::string& name, BotOptions& o);

// MCTS deals the hidden part anew up to kMaxDeals times, one deal per kIterationsPerDeal.
constexpr int kMaxDeals = 8;
constexpr int kIterationsPerDeal = 50;

// The move the bot chooses for `player` (who must be able to move).
Move botChoose(const Game& g, int player, const BotOptions& o);

// Plays random moves until the game ends or `maxMoves` is reached. Returns the moves made.
int randomPlayout(Game& g, Rng& rng, int maxMoves, std::vector<Move>& scratch);

// ln(n) for a whole n >= 1 (UCT's exploration term): the same bits on every build.
double lnCount(double n);

// UCT from `g` for `iterations` full playouts of at most `maxPlayoutMoves` moves each; adds
// the visits of each of `moves` (the root's moves) to `visits`, index for index.
void search(const Game& g, const std::vector<Move>& moves, int iterations, int maxPlayoutMoves, Rng& rng,
            std::vector<int>& visits);

// A hash of what `player` may know now (their view).
uint64_t infoHash(const Game& g, int player);
// Deals anew what `player` may not know: the cards in zones hidden from them (each owner's
// among that owner's, and where each owner's lie in such a zone), the faces of face-down cards
// they see, the cards destroyed out of their sight (Entity::goneHidden), and the RNG. The same deal for
// any two states the player cannot tell apart (the hidden cards are put in a canonical
// order first). `known`: entities the player knows (they saw where they went), left alone.
void determinize(Game& g, int player, Rng& rng, const std::vector<bool>* known = nullptr);

}  // namespace rulestack
