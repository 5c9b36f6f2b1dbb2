// Untrusted input that must fail cleanly: tampered snapshots are refused (never restored
// into a game that could read out of bounds), and error messages stay valid UTF-8.
#include <functional>

#include "test_util.h"

using rt::json;

namespace {

json ambushGame() { return json::parse(rt::readFile(std::string(RULESTACK_EXAMPLES_JSON) + "/ambush.json")); }

// Restores a tampered copy of a snapshot: "" when accepted, else the error.
std::string restoreTampered(const rt::G& g, const std::function<void(json&)>& tamper) {
  json snap = rulestack::snapshotJson(*g.game);
  tamper(snap);
  rulestack::Game restored(g.game->defPtr());
  std::string err;
  return rulestack::restoreSnapshot(restored, snap, err) ? "" : err;
}

}  // namespace

TEST_CASE("a tampered snapshot is refused, whatever field was changed", "[reliability]") {
  rt::G g(ambushGame());
  // stop in the middle of a resolution, so that the stack and a decision are in the snapshot
  g.play("0", json{{"action", "Cast"}, {"source", "Bolt"}});
  REQUIRE(g.st().decisions.size() == 1);
  REQUIRE_FALSE(g.st().stack.empty());
  CHECK(restoreTampered(g, [](json&) {}) == "");  // untouched: accepted

  struct Case { const char* what; std::function<void(json&)> tamper; };
  std::vector<Case> cases = {
      {"a string property out of the symbol table", [](json& s) { s["props"][1] = json::array({3, 1000000000}); }},
      {"an entity property pointing past the entities", [](json& s) { s["props"][1] = json::array({4, 99999}); }},
      {"an unknown value kind", [](json& s) { s["props"][1] = json::array({42, 0}); }},
      {"a result that is no player", [](json& s) { s["flow"][7] = 7; }},
      {"an item id near INT_MAX", [](json& s) { s["flow"][5] = 2147483647; }},
      {"an entity in two zones", [](json& s) {
         json& zones = s["zones"];
         for (auto& z : zones)
           if (!z.empty()) { zones[0].push_back(z[0]); break; }
       }},
      {"a decision of an unknown kind", [](json& s) { s["decisions"][0][1] = 9; }},
      {"a decision whose event frame is past the stack", [](json& s) { s["decisions"][0][10] = 50; }},
      {"a frame of an unknown kind", [](json& s) { s["stack"][0][0] = 99; }},
      {"a frame whose event is in a frame above it", [](json& s) {
         for (auto& f : s["stack"])
           if (f[0] == (int)rulestack::FK::React) f[9] = 300;
       }},
      {"a frame's item with a source past the entities", [](json& s) {
         for (auto& f : s["stack"])
           if (f[0] == (int)rulestack::FK::Take) f[18][4] = 99999;
       }},
      {"a number beyond int (1e308) as an entity field", [](json& s) { s["entities"][2][5] = 1e308; }},
      {"a whole number beyond 32 bits", [](json& s) { s["entities"][2][0] = 4294967296LL; }},
      {"a decimal number", [](json& s) { s["flow"][0] = 1.5; }},
      {"two entities with one id (Template#n)", [](json& s) {
         s["entities"][3][1] = s["entities"][2][1];
         s["entities"][3][2] = s["entities"][2][2];
       }},
      {"a serial past its template's counter", [](json& s) { s["entities"][2][2] = 999; }},
      {"a boolean as an entity's zone", [](json& s) { s["entities"][2][5] = true; }},
      {"a frame's item whose self is a player", [](json& s) {
         for (auto& f : s["stack"])
           if (f[0] == (int)rulestack::FK::Take) f[18][5] = 1;
       }},
      {"two entities sharing one custom id", [](json& s) {
         // a second entity made to claim the first custom id
         for (size_t i = 2; i < s["entities"].size(); i++)
           if (s["entities"][i][2].get<int>() >= 0) { s["entities"][i][2] = -1; break; }
       }},
      {"two custom ids with the same name", [](json& s) { s["customIds"][1][1] = s["customIds"][0][1]; }},
      {"a mutation list that does not exist", [](json& s) {
         json f = s["stack"][0];
         f[0] = (int)rulestack::FK::Muts;
         f[4] = (int)rulestack::LK::Action;
         f[5] = 9999;
         s["stack"].push_back(f);
       }},
  };
  for (auto& c : cases) {
    INFO(c.what);
    std::string err = restoreTampered(g, c.tamper);
    CHECK(err.rfind("inconsistent snapshot", 0) == 0);
  }
}

TEST_CASE("an error message quoting a non-ASCII character is valid UTF-8", "[reliability]") {
  json def = json::parse(R"J({ "name": "U", "players": { "count": 2 },
    "end_conditions": [ { "when": "é", "draw": true } ],
    "flow": { "phases": [ { "name": "Main" } ] } })J");
  std::string out = rulestack::validateDefinition(def.dump());
  json r = json::parse(out);  // throws on invalid UTF-8
  bool quoted = false;
  for (auto& e : r["errors"])
    quoted = quoted || e["message"].get<std::string>().find("unexpected character '\xC3\xA9'") != std::string::npos;
  CHECK(quoted);  // the whole character, quoted
}

TEST_CASE("undo reaches back 1000 moves, so a long game's memory stays bounded", "[reliability]") {
  json def = json::parse(R"J({ "name": "Ticks", "players": { "count": 1, "properties": { "n": 0 } },
    "actions": [ { "name": "Tick", "queue": false,
                   "mutations": [ { "target": "$player.current", "property": "n", "operation": "+", "value": 1 } ] } ],
    "flow": { "phases": [ { "name": "Main", "valid_actions": ["Tick"] } ] } })J");
  rulestack::Session s;
  REQUIRE(s.load(def.dump(), "1") == "");
  for (int i = 0; i < 1005; i++) REQUIRE(json::parse(s.apply("0", R"({"action":"Tick"})"))["ok"] == true);
  int undone = 0;
  while (s.undo()) undone++;
  CHECK(undone == 1000);
  CHECK(json::parse(s.view(""))["players"][0]["properties"]["n"] == 5);
}

TEST_CASE("input nested without bound is refused before it is parsed", "[reliability]") {
  std::string deep(10000, '[');
  deep += std::string(10000, ']');
  json scenario = json::parse(rulestack::runScenario(R"({"name":"deep","game":{},"steps":[{"expect":)" + deep + "}]}"));
  CHECK(scenario["ok"] == false);
  CHECK(scenario["failures"][0]["message"].get<std::string>().find("nested") != std::string::npos);
  json v = json::parse(rulestack::validateDefinition(deep));
  REQUIRE(v["errors"].size() == 1);
  CHECK(v["errors"][0]["message"].get<std::string>().find("nested") != std::string::npos);
  rulestack::Session s;
  REQUIRE(s.load(rt::readFile(std::string(RULESTACK_EXAMPLES_JSON) + "/tictactoe.json"), "1") == "");
  std::string h = s.stateHash();
  CHECK(json::parse(s.apply("0", deep))["reason"] == "malformed_move");
  CHECK(json::parse(s.restore(rt::readFile(std::string(RULESTACK_EXAMPLES_JSON) + "/tictactoe.json"), deep)).contains("errors"));
  CHECK(s.stateHash() == h);
}

// A game that would pass one of the engine's bounds (1000 queue items, 20000 entities) ends in
// a draw: otherwise every later move would be refused and the game would be stuck for good.
TEST_CASE("a game that outgrows the queue or the entity bound ends in a draw, never stuck", "[reliability]") {
  SECTION("two reactions that queue themselves after every execution") {
    // each Ping executes, and each execution queues two more items: the queue grows by one per pass
    json def = json::parse(R"({
      "name": "Loop", "players": {"count": 2, "properties": {"n": 0}}, "zones": [],
      "actions": [{"name": "Ping", "mutations": [{"target": "$player.current", "property": "n", "operation": "+", "value": 1}]}],
      "reactions": [
        {"name": "Echo", "trigger": "$After.$ActionExecuted", "queue": true,
         "mutations": [{"target": "$player.current", "property": "n", "operation": "+", "value": 1}]},
        {"name": "Echo2", "trigger": "$After.$ActionExecuted", "queue": true,
         "mutations": [{"target": "$player.current", "property": "n", "operation": "+", "value": 1}]}],
      "flow": {"phases": [{"name": "Main", "valid_actions": ["Ping"]}]}, "end_conditions": []})");
    rt::G g(def);
    int moves = 0;
    while (!g.st().over() && moves < 5000) {
      std::string who = g.game->def().playerIds[g.game->nextToAct()];
      g.play(who, moves % 2 == 0 ? json{{"action", "Ping"}} : json{{"action", "pass"}});  // never refused
      moves++;
    }
    CHECK(g.st().over());
    CHECK(g.st().result == -1);  // a draw
    CHECK(g.st().queue.size() == rulestack::kMaxQueue);
    CHECK(moves > 1000);
    CHECK(g.game->log.back().ev.type == rulestack::Ev::GameOver);
  }
  SECTION("a Create past 20000 entities") {
    json def = json::parse(R"({
      "name": "Swarm", "players": {"count": 2}, "zones": [{"name": "Pile"}],
      "entities": [{"id": "Ant", "type": "token"}],
      "actions": [{"name": "Spawn", "mutations": [{"operation": "Create", "template": "Ant", "count": 1000, "destination": "$zone.@Pile"}]}],
      "flow": {"phases": [{"name": "Main", "valid_actions": ["Spawn"]}]}, "end_conditions": []})");
    rt::G g(def);
    int moves = 0;
    int spawns = 0;
    while (!g.st().over() && moves < 200) {  // Spawn, and both pass: it resolves
      bool spawn = g.st().queue.empty();
      g.play(g.game->def().playerIds[g.game->nextToAct()], spawn ? json{{"action", "Spawn"}} : json{{"action", "pass"}});
      spawns += spawn;
      moves++;
    }
    CHECK(g.st().result == -1);
    CHECK(spawns == 20);  // 19 make 19000 ants (and 2 players); the 20th would pass 20000
    CHECK(g.st().ents.size() == rulestack::kMaxEntities);
  }
}
