// A run-time error never leaves a game stuck (Game::apply): an item that fails when it
// executes is cancelled, with a GameError that says why; a pass or an answer that fails
// outside any item ends the game in a draw; an action that fails as it is taken is refused.
#include <catch2/catch.hpp>

#include "test_util.h"

using nlohmann::json;

namespace {

// Bad: moves every entity to a player (not a zone): a run-time error when it executes.
json game() {
  return json::parse(R"J({
    "name": "Faults", "players": { "count": 2, "properties": { "n": 0 } },
    "zones": [ { "name": "Hand", "per_player": true }, { "name": "Board" } ],
    "entities": [ { "id": "Card", "type": "card" } ],
    "setup": [ { "operation": "Create", "template": "Card", "destination": "$item.zone.@Hand", "for_each": "$player.all" } ],
    "actions": [
      { "name": "Bad", "queue": true, "mutations": [ { "target": "$entity.all", "destination": "$player.current", "operation": "MoveZone" } ] },
      { "name": "Good", "queue": true, "mutations": [ { "target": "$player.current", "property": "n", "operation": "+", "value": 1 } ] },
      { "name": "Now", "queue": false, "mutations": [ { "target": "$entity.all", "destination": "$player.current", "operation": "MoveZone" } ] },
      { "name": "Ask", "queue": true, "mutations": [
        { "operation": "RequireDiscard", "target": "$player.current", "count": 1, "from": "$player.current.zone.@Hand", "destination": "$zone.@Board" },
        { "target": "$player.current", "property": "n", "operation": "+", "value": 5 },
        { "target": "$entity.all", "destination": "$player.current", "operation": "MoveZone" } ] } ],
    "flow": { "phases": [ { "name": "Main", "valid_actions": ["Bad", "Good", "Now", "Ask"] } ] },
    "end_conditions": [] })J");
}

const json kPass = {{"action", "pass"}};

// The events from `from` on, without the fields a test does not name.
json eventTypes(const rt::G& g, size_t from) {
  json a = json::array();
  for (const json& e : g.events(from)) a.push_back(e["type"]);
  return a;
}

}  // namespace

TEST_CASE("a queued item that fails when it executes is cancelled, and the game goes on", "[runtime]") {
  rt::G g(game());
  g.play("0", {{"action", "Bad"}});
  g.play("1", kPass);
  size_t from = g.game->log.size();
  g.play("0", kPass);  // both passed: Bad executes, fails
  json ev = g.events(from);
  INFO(ev.dump());
  REQUIRE(eventTypes(g, from) == json::array({"Pass", "GameError", "ActionCancelled"}));
  CHECK(ev[1]["item"] == "q1");
  CHECK(ev[1]["action"] == "Bad");
  CHECK(ev[1]["player"] == "0");
  CHECK(ev[1]["reason"] == "runtime_error");
  CHECK(ev[1]["message"] == "/actions/0/mutations/0: destination is not a zone");
  CHECK(ev[2]["item"] == "q1");
  // nothing it did stays; priority is back with the active player, who may act
  CHECK(g.st().queue.empty());
  CHECK(g.zone("Hand:0") == std::vector<std::string>{"Card#1"});
  CHECK(g.view()["priority"] == "0");
  g.play("0", {{"action", "Good"}});
  g.play("1", kPass);
  g.play("0", kPass);
  CHECK(g.eval("$players[0].n") == 1);
}

TEST_CASE("a failing item under a good one: only it is cancelled, in its turn", "[runtime]") {
  rt::G g(game());
  g.play("0", {{"action", "Bad"}});   // q1, at the bottom
  g.play("1", {{"action", "Good"}});  // q2, on top
  g.play("0", kPass);
  g.play("1", kPass);  // q2 resolves
  CHECK(g.eval("$players[1].n") == 1);
  REQUIRE(g.st().queue.size() == 1);
  size_t from = g.game->log.size();
  g.play("0", kPass);
  g.play("1", kPass);  // q1 fails
  CHECK(eventTypes(g, from) == json::array({"Pass", "Pass", "GameError", "ActionCancelled"}));
  CHECK(g.events(from)[2]["item"] == "q1");
  CHECK(g.st().queue.empty());
  CHECK(g.eval("$players[1].n") == 1);
}

TEST_CASE("an item that fails after its player answered a decision: the answer goes with it", "[runtime]") {
  rt::G g(game());
  g.play("0", {{"action", "Ask"}});
  g.play("1", kPass);
  g.play("0", kPass);  // Ask executes: player 0 must discard
  REQUIRE(g.st().decisions.size() == 1);
  std::string d = g.decisionId();
  size_t from = g.game->log.size();
  g.play("0", {{"decision", d}, {"targets", {"Card#1"}}});  // then +5, then the failing move
  json ev = g.events(from);
  INFO(ev.dump());
  CHECK(eventTypes(g, from) == json::array({"GameError", "ActionCancelled"}));
  CHECK(ev[0]["item"] == "q1");
  CHECK(ev[0]["action"] == "Ask");
  // the discard and the +5 were part of the failed resolution: undone
  CHECK(g.zone("Hand:0") == std::vector<std::string>{"Card#1"});
  CHECK(g.eval("$players[0].n") == 0);
  CHECK(g.st().decisions.empty());
  CHECK(g.st().stack.empty());
  CHECK(g.view()["priority"] == "0");
}

TEST_CASE("an action that fails as it is taken is refused, and the state is unchanged", "[runtime]") {
  rt::G g(game());
  g.illegal("0", {{"action", "Now"}}, "runtime_error");
  std::string msg;
  g.apply("0", {{"action", "Now"}}, &msg);
  CHECK(msg == "/actions/2/mutations/0: destination is not a zone");
  g.play("0", {{"action", "Good"}});  // the game goes on
}

TEST_CASE("a pass that fails outside any item ends the game in a draw", "[runtime]") {
  json def = game();
  def["flow"]["phases"].push_back({{"name", "Broken"},
                                   {"on_enter", {{{"target", "$entity.all"}, {"destination", "$player.current"}, {"operation", "MoveZone"}}}},
                                   {"valid_actions", json::array()}});
  rt::G g(def);
  g.play("0", kPass);
  size_t from = g.game->log.size();
  g.play("1", kPass);  // Main ends: Broken's on_enter fails
  json ev = g.events(from);
  INFO(ev.dump());
  REQUIRE(eventTypes(g, from) == json::array({"GameError", "GameOver"}));
  CHECK(ev[0]["reason"] == "runtime_error");
  CHECK(ev[0]["message"] == "/flow/phases/1/on_enter/0: destination is not a zone");
  CHECK_FALSE(ev[0].contains("item"));
  CHECK(ev[1]["draw"] == true);
  CHECK(g.st().over());
  CHECK(g.st().result == -1);
  g.illegal("0", kPass, "game_over");
}

TEST_CASE("through the Session: the move is accepted and its events say what failed", "[runtime]") {
  rulestack::Session s;
  REQUIRE(s.load(game().dump(), "1") == "");
  REQUIRE(json::parse(s.apply("0", R"({"action":"Bad"})"))["ok"] == true);
  REQUIRE(json::parse(s.apply("1", R"({"action":"pass"})"))["ok"] == true);
  std::string before = s.stateHash();
  json r = json::parse(s.apply("0", R"({"action":"pass"})"));
  INFO(r.dump());
  CHECK(r["ok"] == true);
  bool said = false;
  for (const json& e : r["events"])
    if (e["type"] == "GameError") said = e["message"] == "/actions/0/mutations/0: destination is not a zone";
  CHECK(said);
  CHECK(s.undo());
  CHECK(s.stateHash() == before);
}

TEST_CASE("a player where an operation takes entities in zones is a run-time error, not a player in a zone", "[runtime]") {
  // the loader cannot tell a player from an entity ($player.current is an entity): moved into a
  // zone, a player broke the view and the snapshot (a player in no zone's list)
  for (const char* mutation : {R"({ "operation": "MoveZone", "target": "$player.current", "destination": "$zone.@Board" })",
                               R"({ "operation": "Destroy", "target": "$player.opponent" })",
                               R"({ "operation": "Promote", "target": "$player.all", "template": "Card" })",
                               R"({ "operation": "Attach", "target": "$player.current", "host": "$player.current.zone.@Hand.top" })",
                               R"({ "operation": "Attach", "target": "$entity.card", "host": "$player.current" })"}) {
    json def = game();
    def["actions"].push_back({{"name", "Odd"}, {"queue", false}, {"mutations", json::array({json::parse(mutation)})}});
    def["flow"]["phases"][0]["valid_actions"].push_back("Odd");
    rt::G g(def);
    const uint64_t h = g.g().hash();
    std::string msg;
    INFO(mutation);
    CHECK(g.apply("0", json{{"action", "Odd"}}, &msg) == "runtime_error");
    CHECK(msg.find("/actions/4/mutations/0: ") == 0);
    CHECK((msg.find("player 0 cannot be") != std::string::npos || msg.find("player 1 cannot be") != std::string::npos ||
           msg.find("a player cannot be a host") != std::string::npos));
    CHECK(g.g().hash() == h);
    CHECK(g.view()["players"].size() == 2);
  }
}

TEST_CASE("a negative mode is a mode out of range, not a move without one", "[runtime]") {
  rt::G g(game());
  const uint64_t h = g.g().hash();
  for (int mode : {-1, -2, -1000}) {
    std::string msg;
    CHECK(g.apply("0", json{{"action", "Good"}, {"mode", mode}}, &msg) == "bad_mode");
    CHECK(msg == "'Good' has no modes");
  }
  CHECK(g.g().hash() == h);
}

// docs/language.md, Mutations: Give hands entities to a player; a player among its targets, or
// an owner that is no player (nor an entity standing for its owner), is a run-time error.
TEST_CASE("Give of a player, or to an owner that is no player, is a run-time error with its place", "[runtime]") {
  json sc = json::parse(R"J({ "name": "give", "seed": 1, "game": {
    "name": "G", "players": { "count": 2 }, "zones": [ { "name": "Row" } ],
    "entities": [ { "id": "Card", "type": "card" } ],
    "setup": [ { "operation": "Create", "template": "Card", "destination": "$zone.@Row" } ],
    "actions": [ { "name": "Noop", "mutations": [] } ], "flow": { "phases": [ { "name": "Main", "valid_actions": ["Noop"] } ] } },
    "steps": [ { "do": [ { "operation": "Give", "target": "$players[0]", "owner": "$players[1]" } ] } ] })J");
  json r = json::parse(rulestack::runScenario(sc.dump()));
  REQUIRE(r["failures"].size() == 1);
  CHECK(r["failures"][0]["message"] == "do failed: runtime_error: /steps/0/do/0: player 0 cannot be given: only entities can");
  sc["steps"][0]["do"][0] = json::parse(R"({"operation": "Give", "target": "$zone.@Row.entities", "owner": "$zone.@Row.top.host"})");
  r = json::parse(rulestack::runScenario(sc.dump()));
  REQUIRE(r["failures"].size() == 1);
  CHECK(r["failures"][0]["message"] == "do failed: runtime_error: /steps/0/do/0: owner is not a player (or an entity: its owner)");
  // an entity stands for its owner: player 0's card B given to the owner of A (player 1)
  sc["game"]["setup"] = json::parse(R"([{"operation": "Create", "template": "Card", "destination": "$zone.@Row", "id": "A", "owner": "$players[1]"},
      {"operation": "Create", "template": "Card", "destination": "$zone.@Row", "id": "B"}])");
  sc["steps"][0]["do"][0] = json::parse(R"J({"operation": "Give", "target": "$entity.card.where($candidate.id == 'B')", "owner": "$entity.card.where($candidate.id == 'A')[0]"})J");
  sc["steps"].push_back({{"expect", "$entity.card[1].id == 'B' and $entity.card[1].owner == $players[1] and $entity.card[1].controller == $players[1]"}});
  r = json::parse(rulestack::runScenario(sc.dump()));
  INFO(r.dump());
  CHECK(r["ok"] == true);
}

// docs/language.md, end_conditions: the winner is a player, an entity stands for its owner (of
// a list, the first); one that is no player when it holds is a run-time error at its place.
TEST_CASE("an end condition's winner: an entity's owner, or a run-time error at /end_conditions/i/winner", "[runtime]") {
  json sc = json::parse(R"J({ "name": "ends", "seed": 1, "game": {
    "name": "G", "players": { "count": 2, "properties": { "n": 0 } }, "zones": [ { "name": "Row" } ],
    "entities": [ { "id": "Card", "type": "card" } ],
    "setup": [ { "operation": "Create", "template": "Card", "destination": "$zone.@Row", "owner": "$players[1]", "id": "C" } ],
    "actions": [ { "name": "Go", "queue": false, "mutations": [ { "target": "$player.current", "property": "n", "operation": "=", "value": 1 } ] } ],
    "flow": { "phases": [ { "name": "Main", "valid_actions": ["Go"] } ] },
    "end_conditions": [ { "when": "$players[0].n == 1", "winner": "$zone.@Row.entities" } ] },
    "steps": [ { "player": "0", "move": { "action": "Go" } }, { "expect": { "path": "/result/winner", "value": "1" } } ] })J");
  json r = json::parse(rulestack::runScenario(sc.dump()));
  INFO(r.dump());
  CHECK(r["ok"] == true);
  // null when it holds: the move that made it hold is refused, with the condition's place
  sc["game"]["end_conditions"][0]["winner"] = "$zone.@Row.top.host";
  rt::G g(sc["game"]);
  std::string msg;
  CHECK(g.apply("0", {{"action", "Go"}}, &msg) == "runtime_error");
  CHECK(msg == "/end_conditions/0/winner: not a player (nor an entity: its owner)");
}
