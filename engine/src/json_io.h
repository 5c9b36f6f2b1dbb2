// The JSON boundary of a game: views (with hidden information removed), moves, events,
// snapshots. Nothing on the hot path goes through here.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include "rulestack/game.h"

namespace rulestack {

// viewer: a player index, -1 for the spectator, -2 for the omniscient view (tests).
nlohmann::json viewJson(const Game& g, int viewer);
nlohmann::json moveJson(const Game& g, const Move& m);
// Parses a move; on failure returns false with a message.
bool parseMove(const Game& g, const nlohmann::json& j, Move& out, std::string& error);
// The reason code for a parseMove error (unknown_action, bad_source, bad_target, malformed_move).
const char* parseMoveReason(const std::string& error);
// An event as `viewer` may see it (-2: everything): an entity that moves between zones hidden
// from the viewer is not named.
nlohmann::json eventJson(const Game& g, const LogEntry& e, int viewer = -2);
// A step of the resolution machine, for tools (everything shown: not for players' eyes).
nlohmann::json traceJson(const Game& g, const Game::TraceStep& t);
// Whether `viewer` (-1 spectator, -2 everything) sees the entities of zone instance z.
bool zoneVisible(const Game& g, int32_t z, int viewer);
nlohmann::json snapshotJson(const Game& g);
// Restores a snapshot into g (whose definition is loaded). false + message on a bad snapshot.
bool restoreSnapshot(Game& g, const nlohmann::json& j, std::string& error);

}  // namespace rulestack
