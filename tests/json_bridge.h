// The one bridge between the engine's own JSON (engine/src/json.h) and nlohmann::json, which
// the tests, fuzz targets and tools use to build and inspect values: the engine's JSON
// functions taking or giving nlohmann::json, through JSON text.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "json_io.h"
#include "loader.h"

namespace rulestack {

inline Json toEngineJson(const nlohmann::json& j) { return Json::parse(j.dump()); }

inline nlohmann::json viewJson(const Game& g, int viewer) { return nlohmann::json::parse(viewText(g, viewer)); }
inline nlohmann::json moveJson(const Game& g, const Move& m, int viewer = -2) { return nlohmann::json::parse(moveText(g, m, viewer)); }
inline nlohmann::json eventJson(const Game& g, const LogEntry& e, int viewer = -2) {
  return nlohmann::json::parse(eventText(g, e, viewer));
}
inline nlohmann::json traceJson(const Game& g, const Game::TraceStep& t) { return nlohmann::json::parse(traceText(g, t)); }
inline nlohmann::json snapshotJson(const Game& g) { return nlohmann::json::parse(snapshotText(g)); }

inline bool parseMove(const Game& g, const nlohmann::json& j, Move& out, std::string& error, int viewer = -2) {
  return parseMove(g, toEngineJson(j), out, error, viewer);
}
inline bool restoreSnapshot(Game& g, const nlohmann::json& j, std::string& error) {
  return restoreSnapshot(g, toEngineJson(j), error);
}
inline std::shared_ptr<Def> loadDefinition(const nlohmann::json& j, std::vector<DefError>& errors) {
  return loadDefinition(toEngineJson(j), errors);
}
inline bool compileMutations(Def& def, const nlohmann::json& j, const std::string& path, std::vector<Mutation>& out,
                             std::vector<DefError>& errors) {
  return compileMutations(def, toEngineJson(j), path, out, errors);
}
inline bool compileCondition(Def& def, const nlohmann::json& j, const std::string& path, Expr& out,
                             std::vector<DefError>& errors) {
  return compileCondition(def, toEngineJson(j), path, out, errors);
}

}  // namespace rulestack
