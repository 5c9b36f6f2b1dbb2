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
  json snap = json::parse(rulestack::snapshotJson(g).dump());
  rulestack::Game back(g.defPtr());
  std::string err;
  if (!rulestack::restoreSnapshot(back, snap, err)) fail("a snapshot of a game does not restore: " + err);
  if (back.hash() != g.hash()) fail("a restored snapshot has another state hash");
}

// One viewer's view (-2 omniscient, -1 spectator, else a player) and log: JSON is the slow part.
inline void views(const rulestack::Game& g, Lcg& pick) {
  int viewer = (int)pick.below((uint32_t)g.def().numPlayers() + 2) - 2;
  (void)rulestack::viewJson(g, viewer).dump();
  for (auto& e : g.log) (void)rulestack::eventJson(g, e, viewer).dump();
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
    json mj = rulestack::moveJson(g, m, p);
    rulestack::Move back;
    std::string err;
    if (!rulestack::parseMove(g, json::parse(mj.dump()), back, err, p))
      fail("a legal move's JSON does not parse back for its player: " + err + ": " + mj.dump());
    std::string msg;
    std::string reason = g.apply(p, back, &msg);
    if (reason == "runtime_error" || reason == "loop_limit") break;  // rolled back
    if (!reason.empty()) {
      if (known && known(g, true)) break;
      fail("a legal move was refused: " + reason + ": " + msg + ": " + mj.dump());
    }
    if (known && known(g, false)) return n + 1;
  }
  views(g, pick);
  checkSnapshotRoundTrip(g);
  return n;
}

}  // namespace fuzz
