// Shared helpers of the C++ tests: building definitions as JSON, starting games through the
// internal API, evaluating expressions against the state, reading the example JSON files
// (build/examples-json, made by scripts/build.mjs from examples/**/*.yaml).
#pragma once
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "rulestack/game.h"
#include "json_bridge.h"
#include "rulestack/session.h"
#include "session_impl.h"

#ifndef RULESTACK_EXAMPLES_JSON
#define RULESTACK_EXAMPLES_JSON RULESTACK_SOURCE_DIR "/build/examples-json"
#endif

namespace rt {

using nlohmann::json;

// The tests' own move picker (not the engine's RNG, so it does not disturb the game).
struct Lcg {
  uint64_t s;
  explicit Lcg(uint64_t seed) : s(seed * 6364136223846793005ull + 1442695040888963407ull) {}
  uint32_t below(uint32_t n) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)((s >> 33) % n);
  }
};

inline std::string readFile(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// Every *.json file under dir (recursively), sorted, as paths relative to dir.
inline std::vector<std::string> jsonFiles(const std::string& dir, bool recursive) {
  namespace fs = std::filesystem;
  std::vector<std::string> out;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return out;
  if (recursive) {
    for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
      if (it->is_regular_file() && it->path().extension() == ".json")
        out.push_back(fs::relative(it->path(), dir).generic_string());
  } else {
    for (auto it = fs::directory_iterator(dir, ec); !ec && it != fs::directory_iterator(); it.increment(ec))
      if (it->is_regular_file() && it->path().extension() == ".json") out.push_back(it->path().filename().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

// The errors validateDefinition reports, as (path, message) pairs.
inline std::vector<std::pair<std::string, std::string>> errorsOf(const std::string& text) {
  json r = json::parse(rulestack::validateDefinition(text));
  std::vector<std::pair<std::string, std::string>> out;
  for (auto& e : r.at("errors")) out.push_back({e.at("path").get<std::string>(), e.at("message").get<std::string>()});
  return out;
}
inline std::vector<std::pair<std::string, std::string>> errorsOf(const json& def) { return errorsOf(def.dump()); }

inline std::string describe(const std::vector<std::pair<std::string, std::string>>& errs) {
  std::string s;
  for (auto& e : errs) s += "  [" + e.first + "] " + e.second + "\n";
  return s.empty() ? "  (no errors)\n" : s;
}

// A game through the internal API, with the definition kept mutable so that test
// expressions can be compiled against it between moves (as the scenario runner does).
struct G {
  std::shared_ptr<rulestack::Def> def;
  std::unique_ptr<rulestack::Game> game;

  G(const json& definition, uint64_t seed = 1) {
    std::vector<rulestack::DefError> errs;
    def = rulestack::compileDefinition(definition.dump(), errs);
    if (def) game = rulestack::startGame(def, seed, errs);
    std::string msg;
    for (auto& e : errs) msg += "[" + e.path + "] " + e.message + "\n";
    INFO(msg);
    REQUIRE(game);
  }
  rulestack::Game& g() { return *game; }
  const rulestack::State& st() const { return game->state(); }

  int player(const std::string& id) const { return game->findPlayer(id); }

  // Applies a move; returns "" or the rejection reason.
  std::string apply(const std::string& playerId, const json& move, std::string* message = nullptr) {
    rulestack::Move m;
    std::string err;
    if (!rulestack::parseMove(*game, move, m, err)) {
      if (message) *message = err;
      return rulestack::parseMoveReason(err);
    }
    std::string msg;
    std::string r = game->apply(player(playerId), m, &msg);
    if (message) *message = rulestack::refusal(r, err, msg);
    return r;
  }
  // Applies a move that must be legal.
  void play(const std::string& playerId, const json& move) {
    std::string msg;
    std::string r = apply(playerId, move, &msg);
    INFO("move " << move.dump() << " by " << playerId << ": " << r << " " << msg);
    REQUIRE(r == "");
  }
  // Applies a move that must be rejected with `reason`, changing nothing.
  void illegal(const std::string& playerId, const json& move, const std::string& reason) {
    uint64_t h = game->hash();
    size_t logSize = game->log.size();
    std::string msg;
    std::string r = apply(playerId, move, &msg);
    INFO("move " << move.dump() << " by " << playerId << ": '" << r << "' " << msg);
    CHECK(r == reason);
    CHECK(game->hash() == h);
    CHECK(game->log.size() == logSize);
  }

  // Evaluates an expression ($player.current = the active player).
  json eval(const std::string& expr) {
    std::vector<rulestack::DefError> errs;
    rulestack::Expr e;
    bool ok = rulestack::compileCondition(*def, json(expr), "/test", e, errs);
    INFO(expr << (errs.empty() ? "" : ": " + errs[0].message));
    REQUIRE(ok);
    rulestack::Ctx c;
    c.player = game->state().active;
    rulestack::Value v = game->eval(e, c);
    switch (v.k()) {
      case rulestack::VK::Null: return nullptr;
      case rulestack::VK::Int: return v.v();
      case rulestack::VK::Bool: return v.v() != 0;
      case rulestack::VK::Str: return def->syms.names[v.v()];
      case rulestack::VK::Ent: return game->entityId(v.v());
      case rulestack::VK::Zone: return game->zoneId(v.v());
      case rulestack::VK::Item: return "q" + std::to_string(v.v());
      default: return "<list>";
    }
  }
  bool holds(const std::string& expr) { return eval(expr) == json(true); }

  // Runs engine-side mutations (as a scenario's `do`).
  void run(const json& mutations) {
    std::vector<rulestack::DefError> errs;
    std::vector<rulestack::Mutation> ms;
    bool ok = rulestack::compileMutations(*def, mutations, "/do", ms, errs);
    INFO((errs.empty() ? "" : errs[0].path + ": " + errs[0].message));
    REQUIRE(ok);
    std::string msg;
    std::string r = game->runMutations(ms, &msg);
    INFO(msg);
    REQUIRE(r == "");
  }

  json view(int viewer = -2) const { return rulestack::viewJson(*game, viewer); }
  json legal(const std::string& playerId) const {
    std::vector<rulestack::Move> moves;
    game->legalMoves(player(playerId), moves);
    json a = json::array();
    for (auto& m : moves) a.push_back(rulestack::moveJson(*game, m));
    return a;
  }
  // The zone's entity ids, top first.
  std::vector<std::string> zone(const std::string& zoneId) const {
    int32_t z = game->findZone(zoneId);
    REQUIRE(z >= 0);
    std::vector<std::string> out;
    for (int32_t e : game->state().zones[z]) out.push_back(game->entityId(e));
    return out;
  }
  // Events logged since `from`, as JSON.
  json events(size_t from = 0) const {
    json a = json::array();
    for (size_t i = from; i < game->log.size(); i++) a.push_back(rulestack::eventJson(*game, game->log[i]));
    return a;
  }
  std::string decisionId(size_t i = 0) const {
    REQUIRE(game->state().decisions.size() > i);
    return "d" + std::to_string(game->state().decisions[i].id);
  }
};

// Whether every field of `want` is in `got` with the same value (as the scenario runner).
inline bool subset(const json& want, const json& got) {
  if (!want.is_object()) return want == got;
  if (!got.is_object()) return false;
  for (auto it = want.begin(); it != want.end(); ++it)
    if (!got.contains(it.key()) || !subset(it.value(), got[it.key()])) return false;
  return true;
}
inline bool hasEvent(const json& events, const json& want) {
  for (auto& e : events)
    if (subset(want, e)) return true;
  return false;
}

}  // namespace rt
