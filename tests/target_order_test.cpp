// A move names its targets in any order: it is legal in every order (legalMoves lists one) and
// does the same in every order, the order legalMoves lists them in ($target is the first of
// that order), so that two moves the engine counts as one cannot lead to two games.
#include "test_util.h"

namespace {
const char* kPick = R"J({
  "name": "Pick",
  "players": { "count": 2, "properties": { "first": 0, "second": 0 } },
  "zones": [{ "name": "Board" }],
  "entities": [
    { "id": "Low", "type": "unit", "properties": { "health": 5 } },
    { "id": "High", "type": "unit", "properties": { "health": 7 } }
  ],
  "actions": [{
    "name": "Pick", "queue": false,
    "requires_target": { "from": "$zone.@Board", "count": 2 },
    "mutations": [
      { "target": "$player.current", "property": "first", "operation": "=", "value": "$target.health" },
      { "target": "$player.current", "property": "second", "operation": "=", "value": "$targets[1].health" }
    ]
  }],
  "setup": [
    { "operation": "Create", "template": "Low", "destination": "$zone.@Board" },
    { "operation": "Create", "template": "High", "destination": "$zone.@Board" }
  ],
  "flow": { "phases": [{ "name": "Main", "valid_actions": ["Pick"] }] }
})J";
}  // namespace

TEST_CASE("a move's targets in any order do what legalMoves' order does", "[moves]") {
  rt::G listed(rt::json::parse(kPick)), reversed(rt::json::parse(kPick));
  std::vector<rulestack::Move> legal;
  listed.g().legalMoves(0, legal);
  REQUIRE(legal.size() == 2);  // Pick on both, and pass
  REQUIRE(listed.g().entityId(legal[0].targets[0].v) == "Low#1");
  REQUIRE(listed.g().entityId(legal[0].targets[1].v) == "High#1");
  listed.play("0", {{"action", "Pick"}, {"targets", {"Low#1", "High#1"}}});
  reversed.play("0", {{"action", "Pick"}, {"targets", {"High#1", "Low#1"}}});
  for (rt::G* g : {&listed, &reversed}) {
    CHECK(g->eval("$players[0].first") == 5);   // $target: Low#1, first in legalMoves' order
    CHECK(g->eval("$players[0].second") == 7);  // $targets[1]: High#1
  }
  CHECK(listed.g().hash() == reversed.g().hash());
}
