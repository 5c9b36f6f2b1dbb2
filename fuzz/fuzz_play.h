// Playing a started game a few moves, with oracles: a move from legalMoves survives its JSON
// round trip (as its player writes it) and is accepted (or fails only with a runtime error,
// rolled back); every view dumps; a snapshot restores to the same state hash.
#pragma once
#include <string>
#include <vector>

#include "fuzz_common.h"
#include "json_io.h"
#include "rulestack/game.h"

namespace fuzz {

inline void checkSnapshotRoundTrip(const rulestack::Game& g) {
  rulestack::Json snap = rulestack::Json::parse(rulestack::snapshotText(g));
  rulestack::Game back(g.defPtr());
  std::string err;
  if (!rulestack::restoreSnapshot(back, snap, err)) fail("a snapshot of a game does not restore: " + err);
  if (back.hash() != g.hash()) fail("a restored snapshot has another state hash");
}

// One viewer's view (-2 omniscient, -1 spectator, else a player) and log: JSON is the slow part.
inline void views(const rulestack::Game& g, Lcg& pick) {
  int viewer = (int)pick.below((uint32_t)g.def().numPlayers() + 2) - 2;
  (void)rulestack::viewText(g, viewer);
  for (auto& e : g.log) (void)rulestack::eventText(g, e, viewer);
}

// Plays up to maxMoves moves picked by `pick`; returns how many were applied. `known`: a state
// in which a known, reported engine bug would fire (the playout stops there, quietly); asked after
// each move, and when a legal move is refused (refused = true).
inline int playout(rulestack::Game& g, Lcg& pick, int maxMoves, bool (*known)(const rulestack::Game&, bool refused) = nullptr) {
  std::vector<rulestack::Move> moves;
  int n = 0;
  for (; n < maxMoves && !g.state().over(); n++) {
    int p = g.nextToAct();
    if (p < 0) break;
    g.legalMoves(p, moves);
    if (moves.empty()) break;
    const rulestack::Move m = moves[pick.below((uint32_t)moves.size())];
    std::string mj = rulestack::moveText(g, m, p);
    rulestack::Move back;
    std::string err;
    if (!rulestack::parseMove(g, rulestack::Json::parse(mj), back, err, p))
      fail("a legal move's JSON does not parse back for its player: " + err + ": " + mj);
    std::string msg;
    std::string reason = g.apply(p, back, &msg);
    if (reason == "runtime_error" || reason == "loop_limit") break;  // rolled back
    if (!reason.empty()) {
      if (known && known(g, true)) break;
      fail("a legal move was refused: " + reason + ": " + msg + ": " + mj);
    }
    if (known && known(g, false)) return n + 1;
  }
  views(g, pick);
  checkSnapshotRoundTrip(g);
  return n;
}

}  // namespace fuzz
