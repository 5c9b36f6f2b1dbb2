// legalMoves lists at most 512 moves for one action and source (and for one decision): a
// choice past them is not listed, and is legal all the same, tested as the enumeration would
// test it. Past the cap, what the enumeration would not list is still refused.
#include "test_util.h"

using rt::json;

namespace {
// 12 units and 2 banned ones on the Board: Pick takes 5 of the 12 (792 choices), Gather (which
// Sweep triggers) 4 to 6 of them (2,211); Purge discards 5 of 13 cards (1,287).
const char* kMany = R"J({
  "name": "Many",
  "players": { "count": 2, "properties": { "picked": 0 } },
  "settings": { "discard_zone": "Pile" },
  "zones": [{ "name": "Board" }, { "name": "Chosen" }, { "name": "Hand", "per_player": true },
            { "name": "Pile", "per_player": true }],
  "entities": [
    { "id": "Unit", "type": "unit", "properties": { "power": 1, "banned": false } },
    { "id": "Banned", "type": "unit", "properties": { "power": 1, "banned": true } },
    { "id": "Card", "type": "card" }
  ],
  "actions": [
    { "name": "Pick", "queue": false,
      "requires_target": { "from": "$zone.@Board", "filter": "not $candidate.banned", "count": 5 },
      "mutations": [
        { "target": "$targets", "operation": "MoveZone", "destination": "$zone.@Chosen" },
        { "target": "$player.current", "property": "picked", "operation": "+", "value": "$targets.size" } ] },
    { "name": "Sweep", "queue": false, "mutations": [] },
    { "name": "Purge", "queue": false, "mutations": [
      { "operation": "RequireDiscard", "target": "$player.current", "count": 5 } ] }
  ],
  "triggered_actions": [
    { "name": "Gather", "trigger": "$After.@Sweep", "optional": true, "queue": false,
      "requires_target": { "from": "$zone.@Board", "filter": "not $candidate.banned", "min": 4, "max": 6 },
      "mutations": [ { "target": "$targets", "operation": "MoveZone", "destination": "$zone.@Chosen" } ] }
  ],
  "setup": [
    { "operation": "Create", "template": "Unit", "count": 12, "destination": "$zone.@Board" },
    { "operation": "Create", "template": "Banned", "count": 2, "destination": "$zone.@Board" },
    { "operation": "Create", "template": "Card", "count": 13, "destination": "$players[0].zone.@Hand" }
  ],
  "flow": { "phases": [{ "name": "Main", "valid_actions": ["Pick", "Sweep", "Purge"] }] }
})J";

json ids(const std::string& prefix, std::initializer_list<int> ns) {
  json a = json::array();
  for (int n : ns) a.push_back(prefix + "#" + std::to_string(n));
  return a;
}

size_t listed(rt::G& g, const std::string& what, const std::string& value) {
  size_t n = 0;
  for (const json& m : g.legal("0")) n += m.contains(what) && m[what] == value;
  return n;
}

bool isListed(rt::G& g, const json& move) {
  for (json m : g.legal("0")) {
    if (m.contains("targets")) std::sort(m["targets"].begin(), m["targets"].end());
    json want = move;
    std::sort(want["targets"].begin(), want["targets"].end());
    if (rt::subset(want, m) && m["targets"] == want["targets"]) return true;
  }
  return false;
}
}  // namespace

TEST_CASE("an action's choice past the 512 listed is legal; what it could never list is not", "[moves]") {
  rt::G g(json::parse(kMany));
  REQUIRE(listed(g, "action", "Pick") == 512);  // of C(12, 5) = 792
  // the last combination of the 12 in listing order is past the cap
  const json last = {{"action", "Pick"}, {"targets", ids("Unit", {8, 9, 10, 11, 12})}};
  REQUIRE_FALSE(isListed(g, last));
  g.illegal("0", {{"action", "Pick"}, {"targets", ids("Unit", {8, 9, 10, 11, 11})}}, "bad_target");  // a repeat
  g.illegal("0", {{"action", "Pick"}, {"targets", ids("Unit", {8, 9, 10, 11})}}, "bad_target");      // 4 of 5
  g.illegal("0", {{"action", "Pick"}, {"targets", json::array({"Unit#8", "Unit#9", "Unit#10", "Unit#11", "Banned#1"})}},
            "bad_target");  // filtered out
  g.illegal("0", {{"action", "Pick"}, {"targets", ids("Unit", {8, 9, 10, 11, 12})}, {"x", 1}}, "bad_x");
  g.illegal("1", last, "not_your_priority");
  g.play("0", {{"action", "Pick"}, {"targets", ids("Unit", {12, 10, 8, 9, 11})}});  // (any order)
  CHECK(g.zone("Chosen") == std::vector<std::string>{"Unit#12", "Unit#11", "Unit#10", "Unit#9", "Unit#8"});  // each on top
  CHECK(g.eval("$players[0].picked") == 5);
}

TEST_CASE("a decision's answer past the 512 listed is legal; what it could never list is not", "[moves]") {
  SECTION("targets of a triggered action") {
    rt::G g(json::parse(kMany));
    g.play("0", {{"action", "Sweep"}});
    const std::string d = g.decisionId();
    // C(12,4) + C(12,5) + C(12,6) = 495 + 792 + 924 accepts: 512 listed, and the decline
    size_t accepts = 0;
    for (const json& m : g.legal("0")) accepts += m.value("accept", true);
    REQUIRE(accepts == 512);
    const json six = {{"decision", d}, {"accept", true}, {"targets", ids("Unit", {1, 2, 3, 4, 5, 6})}};
    REQUIRE_FALSE(isListed(g, six));
    g.illegal("0", {{"decision", d}, {"targets", ids("Unit", {1, 2, 3, 4, 5, 6, 7})}}, "bad_target");  // 7 of 4-6
    g.illegal("0", {{"decision", d}, {"targets", json::array({"Unit#1", "Unit#2", "Unit#3", "Unit#4", "Banned#2"})}},
              "bad_target");
    g.play("0", six);
    CHECK(g.zone("Chosen") == std::vector<std::string>{"Unit#6", "Unit#5", "Unit#4", "Unit#3", "Unit#2", "Unit#1"});
    CHECK(g.st().decisions.empty());
  }
  SECTION("a discard") {
    rt::G g(json::parse(kMany));
    g.play("0", {{"action", "Purge"}});
    const std::string d = g.decisionId();
    REQUIRE(g.legal("0").size() == 512);  // of C(13, 5) = 1,287
    const json last = {{"decision", d}, {"targets", ids("Card", {9, 10, 11, 12, 13})}};
    REQUIRE_FALSE(isListed(g, last));
    g.illegal("0", {{"decision", d}, {"targets", ids("Card", {9, 10, 11, 12})}}, "bad_target");  // 4 of 5
    g.illegal("0", {{"decision", d}, {"targets", ids("Card", {9, 10, 11, 12, 12})}}, "bad_target");
    g.illegal("0", {{"decision", d}, {"targets", json::array({"Card#9", "Card#10", "Card#11", "Card#12", "Unit#1"})}},
              "bad_target");  // not in the hand
    g.play("0", last);
    CHECK(g.zone("Pile:0") == std::vector<std::string>{"Card#13", "Card#12", "Card#11", "Card#10", "Card#9"});
    CHECK(g.eval("$players[0].zone.@Hand.size") == 8);
  }
}
