// Game's index of the entities by template and by type (Game::indexEntities): `$entity.<type>`
// and the entities' reactions and triggered actions are found through it. It is rebuilt after
// whatever changes which entities there are or what they are made from (Create, Promote, a
// rolled-back move, a copy, a state from outside); each test checks it against a plain scan.
#include "test_util.h"

using rt::json;

namespace {

// Soldiers and Scouts are units, Walls buildings. A Guard (a unit too) answers every Ping of
// its controller by writing its rank after the digits already in the player's trace, so the
// trace tells which guards answered and in which order.
json indexGame() {
  return json::parse(R"J({
    "name": "Index", "players": { "count": 2, "properties": { "trace": 0, "seen": 0 } },
    "zones": [ { "name": "Board" }, { "name": "Hand", "per_player": true } ],
    "entities": [
      { "id": "Soldier", "type": "unit", "properties": { "rank": 0 } },
      { "id": "Scout", "type": "unit", "properties": { "rank": 0 } },
      { "id": "Wall", "type": "building" },
      { "id": "Guard", "type": "unit", "properties": { "rank": 0 }, "reactions": [
        { "name": "Answer", "trigger": "$After.@Ping",
          "mutations": [ { "target": "$player.current", "property": "trace", "operation": "=",
                           "value": "$player.current.trace * 10 + $entity.self.rank" } ] } ] } ],
    "setup": [
      { "operation": "Create", "template": "Soldier", "destination": "$zone.@Board", "id": "S1" },
      { "operation": "Create", "template": "Guard", "destination": "$zone.@Board", "owner": "$players[0]", "id": "G1" },
      { "operation": "Create", "template": "Wall", "destination": "$zone.@Board", "id": "W1" },
      { "operation": "Create", "template": "Scout", "destination": "$zone.@Board", "id": "C1" },
      { "operation": "Create", "template": "Guard", "destination": "$zone.@Board", "owner": "$players[0]", "id": "G2" },
      { "target": "$entity.unit.where($candidate.id == 'G1')", "property": "rank", "operation": "=", "value": 1 },
      { "target": "$entity.unit.where($candidate.id == 'G2')", "property": "rank", "operation": "=", "value": 2 } ],
    "actions": [
      { "name": "Ping", "queue": false, "condition": "$player.current == $player.active", "mutations": [] },
      { "name": "Spawn", "queue": false, "condition": "$player.current == $player.active", "mutations": [
        { "operation": "Create", "template": "Soldier", "destination": "$zone.@Board" },
        { "target": "$player.current", "property": "seen", "operation": "=", "value": "$entity.unit.size" },
        { "target": "$entity.all", "destination": "$player.current", "operation": "MoveZone" } ] } ],
    "flow": { "phases": [ { "name": "Main", "valid_actions": ["Ping", "Spawn"] } ] },
    "end_conditions": [] })J");
}

// $entity.<type> as ids, read through the engine
std::vector<std::string> listed(rt::G& g, const std::string& type) {
  std::vector<std::string> out;
  int n = g.eval("$entity." + type + ".size").get<int>();
  for (int i = 0; i < n; i++) out.push_back(g.eval("$entity." + type + "[" + std::to_string(i) + "]").get<std::string>());
  return out;
}

// the same by a scan of the state: the live entities whose template has that type, in id order
std::vector<std::string> scanned(const rulestack::Game& g, const std::string& type) {
  const rulestack::Def& d = g.def();
  std::vector<std::string> out;
  for (int32_t e = d.numPlayers(); e < (int32_t)g.state().ents.size(); e++) {
    const rulestack::Entity& en = g.state().ents[e];
    if (en.alive && d.syms.names[d.templates[en.tmpl].typeSym] == type) out.push_back(g.entityId(e));
  }
  return out;
}

void sameAsScan(rt::G& g) {
  for (const char* type : {"unit", "building"}) {
    INFO(type);
    CHECK(listed(g, type) == scanned(g.g(), type));
  }
}

using Ids = std::vector<std::string>;

}  // namespace

TEST_CASE("$entity.<type> follows the entities made, promoted and destroyed", "[index]") {
  rt::G g(indexGame());
  CHECK(listed(g, "unit") == Ids{"S1", "G1", "C1", "G2"});
  CHECK(listed(g, "building") == Ids{"W1"});
  g.run(json::parse(R"J([{ "operation": "Create", "template": "Scout", "destination": "$zone.@Board", "id": "C2" }])J"));
  CHECK(listed(g, "unit") == Ids{"S1", "G1", "C1", "G2", "C2"});
  // a unit made a building, and back: it moves between the lists and keeps its place by id
  g.run(json::parse(R"J([{ "operation": "Promote", "target": "$entity.unit.where($candidate.id == 'S1')", "template": "Wall" }])J"));
  CHECK(listed(g, "unit") == Ids{"G1", "C1", "G2", "C2"});
  CHECK(listed(g, "building") == Ids{"S1", "W1"});
  g.run(json::parse(R"J([{ "operation": "Promote", "target": "$entity.building.where($candidate.id == 'W1')", "template": "Scout" }])J"));
  CHECK(listed(g, "unit") == Ids{"G1", "W1", "C1", "G2", "C2"});
  CHECK(listed(g, "building") == Ids{"S1"});
  g.run(json::parse(R"J([{ "operation": "Destroy", "target": "$entity.unit.where($candidate.id == 'C1')" }])J"));
  CHECK(listed(g, "unit") == Ids{"G1", "W1", "G2", "C2"});
  sameAsScan(g);
}

TEST_CASE("$entity.<type> of a copy, of a game copied into, and of a state from outside", "[index]") {
  rt::G g(indexGame());
  CHECK(listed(g, "unit").size() == 4);  // (the index is built)
  rulestack::Game copy = g.g().clone();
  std::vector<rulestack::DefError> errs;
  std::vector<rulestack::Mutation> make;
  REQUIRE(rulestack::compileMutations(*g.def, json::parse(R"J([{ "operation": "Create", "template": "Scout", "destination": "$zone.@Board", "id": "C9" }])J"),
                                      "/do", make, errs));
  REQUIRE(copy.runMutations(make, nullptr) == "");
  CHECK(scanned(copy, "unit") == Ids{"S1", "G1", "C1", "G2", "C9"});
  CHECK(listed(g, "unit") == Ids{"S1", "G1", "C1", "G2"});  // the original is as it was
  g.g().copyFrom(copy);
  CHECK(listed(g, "unit") == Ids{"S1", "G1", "C1", "G2", "C9"});
  // a state changed from outside: Soldier S1 made a Wall by hand
  int32_t wall = -1;
  for (size_t t = 0; t < g.def->templates.size(); t++)
    if (g.def->templates[t].id == "Wall") wall = (int32_t)t;
  REQUIRE(wall >= 0);
  g.g().mutableState().ents[(size_t)g.g().findEntity("S1")].tmpl = wall;
  CHECK(listed(g, "unit") == Ids{"G1", "C1", "G2", "C9"});
  CHECK(listed(g, "building") == Ids{"S1", "W1"});
  sameAsScan(g);
}

TEST_CASE("a refused move leaves $entity.<type> as it was, though it read the list after a Create", "[index]") {
  rt::G g(indexGame());
  CHECK(listed(g, "unit").size() == 4);
  // Spawn makes a Soldier, counts the units (5) and then fails: the move is refused, rolled back
  g.illegal("0", {{"action", "Spawn"}}, "runtime_error");
  CHECK(g.holds("$players[0].seen == 0"));
  CHECK(listed(g, "unit") == Ids{"S1", "G1", "C1", "G2"});
  sameAsScan(g);
}

TEST_CASE("entities' reactions run by entity id, for the entities made or promoted since", "[index]") {
  rt::G g(indexGame());
  g.play("0", {{"action", "Ping"}});
  CHECK(g.eval("$players[0].trace") == 12);  // G1 then G2
  // a third guard, made after the others, answers last; G1 made a Scout answers no more
  g.run(json::parse(R"J([{ "operation": "Create", "template": "Guard", "destination": "$zone.@Board", "owner": "$players[0]", "id": "G3" },
                        { "target": "$entity.unit.where($candidate.id == 'G3')", "property": "rank", "operation": "=", "value": 3 },
                        { "target": "$players[0]", "property": "trace", "operation": "=", "value": 0 }])J"));
  g.play("0", {{"action", "Ping"}});
  CHECK(g.eval("$players[0].trace") == 123);
  g.run(json::parse(R"J([{ "operation": "Promote", "target": "$entity.unit.where($candidate.id == 'G1')", "template": "Scout" },
                        { "operation": "Promote", "target": "$entity.unit.where($candidate.id == 'S1')", "template": "Guard" },
                        { "target": "$entity.unit.where($candidate.id == 'S1')", "property": "rank", "operation": "=", "value": 7 },
                        { "target": "$players[0]", "property": "trace", "operation": "=", "value": 0 }])J"));
  // S1, the first entity made (by player 0, the active player of the setup), is a Guard now:
  // it answers first
  g.play("0", {{"action", "Ping"}});
  CHECK(g.eval("$players[0].trace") == 723);
  // given to player 1 by hand, it answers player 0's Ping no more
  g.g().mutableState().ents[(size_t)g.g().findEntity("S1")].controller = 1;
  g.run(json::parse(R"J([{ "target": "$players[0]", "property": "trace", "operation": "=", "value": 0 }])J"));
  g.play("0", {{"action", "Ping"}});
  CHECK(g.eval("$players[0].trace") == 23);
}
