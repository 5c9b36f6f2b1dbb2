// The random-playout harness (in the style of OpenSpiel's RandomSimTest) over every example
// game (build/examples-json/*.json, converted from examples/*.yaml by scripts/build.mjs).
// Each game is played to the end several times with random legal moves, checking at every
// step that:
//   - exactly the players in toAct have legal moves;
//   - every listed legal move of the player to act applies (each tried on a copy);
//   - a snapshot restores to the same state hash, and the restored game, given the same
//     move, reaches the same hash as the original (also when the snapshot was taken in
//     the middle of a resolution, waiting for a decision);
//   - undo (through the Session facade, driven alongside) restores the previous hash;
//   - views leak nothing: a player's view holds no id of an entity they may not identify
//     (in a zone hidden from them, or face down and not theirs), nor the spectator's (the
//     permutation test in hidden_test.cpp proves more);
// and that the game ends within the move cap.
#include <map>
#include <set>

#include "names.h"
#include "test_util.h"

using rt::json;

namespace {

constexpr int kSeeds = 4;
constexpr int kMoveCap = 400;
constexpr int kShards = 4;

std::string dir() { return RULESTACK_EXAMPLES_JSON; }

std::vector<std::string> games() { return rt::jsonFiles(dir(), false); }

// Every string in the JSON, with the pointer of its first occurrence.
void strings(const json& j, const std::string& at, std::map<std::string, std::string>& out) {
  if (j.is_string()) out.emplace(j.get<std::string>(), at);
  else if (j.is_array())
    for (size_t i = 0; i < j.size(); i++) strings(j[i], at + "/" + std::to_string(i), out);
  else if (j.is_object())
    for (auto it = j.begin(); it != j.end(); ++it) strings(it.value(), at + "/" + it.key(), out);
}

using rulestack::hex16;  // (names.h: the engine's own)

// Entity ids the viewer (-1: spectator) must not see: of entities in zones hidden from them
// (visibility owner of another player, or nobody) and of face-down cards not theirs.
std::set<std::string> hiddenIds(const rulestack::Game& g, int viewer) {
  std::set<std::string> out;
  for (int32_t e = g.def().numPlayers(); e < (int32_t)g.state().ents.size(); e++)
    if (g.state().ents[e].alive && !g.identifies(viewer, e)) out.insert(g.entityId(e));
  return out;
}

void checkViews(const rulestack::Game& g, int step) {
  int np = g.def().numPlayers();
  for (int viewer = -1; viewer < np; viewer++) {
    std::set<std::string> hidden = hiddenIds(g, viewer);
    if (hidden.empty()) continue;
    std::map<std::string, std::string> seen;
    strings(rulestack::viewJson(g, viewer), "", seen);
    for (auto& id : hidden) {
      auto at = seen.find(id);
      if (at == seen.end()) continue;
      FAIL_CHECK("step " << step << ": the view of " << (viewer < 0 ? std::string("the spectator") : g.def().playerIds[viewer])
                         << " shows hidden entity " << id << " at " << at->second);
      return;
    }
  }
}

// Returns how many of the stops were in the middle of a resolution.
int playout(const std::string& file, const std::string& text, uint64_t seed) {
  std::vector<rulestack::DefError> errs;
  auto def = rulestack::compileDefinition(text, errs);
  INFO(file << " seed " << seed << (errs.empty() ? "" : ": " + errs[0].path + ": " + errs[0].message));
  REQUIRE(def);
  auto game = rulestack::startGame(def, seed, errs);
  REQUIRE(game);
  int midStops = 0;
  rulestack::Game& g = *game;
  g.logging = false;
  rulestack::Session session;
  REQUIRE(session.load(text, std::to_string(seed)) == "");
  REQUIRE(session.stateHash() == hex16(g.hash()));
  rt::Lcg rng(seed);
  int np = def->numPlayers();
  std::vector<rulestack::Move> moves;
  int step = 0, loopLimited = 0;
  std::string loopLimitMessage;
  for (; step < kMoveCap && !g.state().over(); step++) {
    INFO("step " << step);
    // who may move
    std::vector<int> who = g.toAct();
    REQUIRE(who.size() == 1);
    for (int p = 0; p < np; p++) {
      g.legalMoves(p, moves);
      if (p == who[0]) REQUIRE_FALSE(moves.empty());
      else REQUIRE(moves.empty());
    }
    int p = who[0];
    g.legalMoves(p, moves);
    // every legal move applies, on a copy
    std::vector<rulestack::Move> good;
    for (const rulestack::Move& m : moves) {
      rulestack::Game copy = g.clone();
      std::string msg;
      std::string r = copy.apply(p, m, &msg);
      if (r.empty()) {
        good.push_back(m);
      } else if (r == "loop_limit") {
        // a loop the engine bounds in one move (max_events, 400 nested steps) rejects a
        // listed move: reported after the playout
        loopLimited++;
        if (loopLimitMessage.empty()) loopLimitMessage = rulestack::moveJson(g, m).dump() + ": " + msg;
      } else {
        FAIL_CHECK(file << " seed " << seed << " step " << step << ": legal move " << rulestack::moveJson(g, m).dump()
                        << " by " << def->playerIds[p] << " rejected: " << r << ": " << msg);
        return midStops;
      }
    }
    // snapshot -> restore
    if (!g.state().stack.empty()) midStops++;
    rulestack::Game restored(def);
    {
      std::string err;
      json snap = rulestack::snapshotJson(g);
      REQUIRE(rulestack::restoreSnapshot(restored, json::parse(snap.dump()), err));
      REQUIRE(restored.hash() == g.hash());
    }
    checkViews(g, step);
    // one random move, applied to the game and to the session; undo and redo in the session
    if (good.empty()) break;
    const rulestack::Move m = good[rng.below((uint32_t)good.size())];
    std::string before = session.stateHash();
    std::string mj = rulestack::moveJson(g, m).dump();
    std::string msg;
    REQUIRE(g.apply(p, m, &msg) == "");
    REQUIRE(restored.apply(p, m, &msg) == "");
    REQUIRE(restored.hash() == g.hash());  // the restored game resumes like the original
    std::string pid = def->playerIds[p];
    json r = json::parse(session.apply(pid, mj));
    INFO("session move " << mj << ": " << r.dump().substr(0, 300));
    REQUIRE(r["ok"] == true);
    REQUIRE(session.stateHash() == hex16(g.hash()));
    REQUIRE(session.undo());
    REQUIRE(session.stateHash() == before);
    REQUIRE(json::parse(session.apply(pid, mj))["ok"] == true);
    REQUIRE(session.stateHash() == hex16(g.hash()));
  }
  checkViews(g, step);
  if (loopLimited > 0)
    FAIL_CHECK(file << " seed " << seed << ": " << loopLimited << " listed legal moves were rejected with loop_limit, e.g. " << loopLimitMessage);
  if (!g.state().over()) FAIL_CHECK(file << " seed " << seed << ": no result after " << step << " moves");
  // many more games to the end, inside the engine: none fails, none is left unfinished,
  // and the same seeds give the same games
  json a = json::parse(rulestack::simulate(text, R"({"games":25,"seed":5,"hashes":true})"));
  json b = json::parse(rulestack::simulate(text, R"({"games":25,"seed":5,"hashes":true})"));
  CHECK(a["errors"] == 0);
  CHECK(a["unfinished"] == 0);
  CHECK(a["hashes"] == b["hashes"]);
  return midStops;
}

void shard(int k) {
  auto files = games();
  REQUIRE(files.size() >= 1);
  for (size_t i = 0; i < files.size(); i++) {
    if ((int)(i % kShards) != k) continue;
    std::string text = rt::readFile(dir() + "/" + files[i]);
    json j = json::parse(text, nullptr, false);
    if (j.is_object() && j.contains("$error")) {
      FAIL_CHECK(files[i] << ": " << j["$error"].get<std::string>());
      continue;
    }
    for (uint64_t seed = 1; seed <= kSeeds; seed++) {
      DYNAMIC_SECTION(files[i] << " seed " << seed) { playout(files[i], text, seed); }
    }
  }
}

}  // namespace

TEST_CASE("the example games are found", "[playout]") {
  auto files = games();
  INFO("looked in " << dir() << " (made by scripts/build.mjs)");
  REQUIRE(files.size() >= 5);
  CHECK(std::find(files.begin(), files.end(), "duel.json") != files.end());
}

// Some examples stop in the middle of a resolution (Ambush's traps, Nexus's end-of-turn
// discard): the checks above then ran on those stops too.
TEST_CASE("random playouts stop in the middle of resolutions, and resume from there", "[playout]") {
  int stops = 0;
  for (const char* file : {"ambush.json", "nexus.json"}) {
    std::string text = rt::readFile(dir() + "/" + file);
    for (uint64_t seed = 1; seed <= 2; seed++) stops += playout(file, text, seed);
  }
  CHECK(stops > 0);
}

TEST_CASE("random playouts of the example games, shard 0", "[playout]") { shard(0); }
TEST_CASE("random playouts of the example games, shard 1", "[playout]") { shard(1); }
TEST_CASE("random playouts of the example games, shard 2", "[playout]") { shard(2); }
TEST_CASE("random playouts of the example games, shard 3", "[playout]") { shard(3); }

// A listed legal move after which nobody can ever act again applies: the game ends in a
// draw (a stalemate) instead of the flow turning forever.
TEST_CASE("a listed legal move after which nobody can act applies", "[playout]") {
  json def = json::parse(R"J({
    "name": "Stall", "players": { "count": 2, "properties": { "used": 0 } },
    "actions": [ { "name": "Last", "queue": false, "condition": "$player.current.used == 0",
                   "mutations": [ { "target": "$player.all", "property": "used", "operation": "=", "value": 1 } ] } ],
    "flow": { "phases": [ { "name": "Main", "valid_actions": ["Last"] } ] } })J");
  rt::G g(def);
  REQUIRE(rt::hasEvent(g.legal("0"), json{{"action", "Last"}}));
  std::string msg;
  CHECK(g.apply("0", json{{"action", "Last"}}, &msg) == "");
  INFO(msg);
  CHECK(g.st().over());
  CHECK(g.st().result == -1);
}
