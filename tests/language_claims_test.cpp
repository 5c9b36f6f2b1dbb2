// What docs/language.md says, where the engine once did otherwise: each found by reading the
// document against the engine from outside, and each CHECK here failed before its fix.
#include <climits>

#include "test_util.h"

namespace {
const char* kGame = R"J({
  "name": "Claims",
  "players": { "count": 2, "properties": { "a": 0, "b": 0, "n": 0 } },
  "zones": [{ "name": "Board", "per_player": true }, { "name": "Pile" }, { "name": "Heap" }],
  "entities": [
    { "id": "Card", "type": "card" },
    { "id": "Trap", "type": "trap", "actions": [{
        "name": "Counter",
        "reactions": [{ "name": "Spring", "trigger": "$After.ActionPlayed", "condition": "$event.player != $player.current",
                        "mutations": [{ "target": "$player.current", "property": "a", "operation": "=", "value": "$player.current.b" }] }],
        "mutations": [{ "target": "$player.current", "property": "b", "operation": "=", "value": 1 }] }] }
  ],
  "setup": [
    { "operation": "Create", "template": "Trap", "destination": "$players[1].zone.@Board" },
    { "operation": "Create", "template": "Card", "id": "C1", "destination": "$zone.@Heap" }
  ],
  "actions": [{ "name": "A", "mutations": [] }, { "name": "WhenPiled", "condition": "$zone.@Pile", "mutations": [] }],
  "flow": { "phases": [{ "name": "Main", "valid_actions": ["A", "WhenPiled"] }] }
})J";

rulestack::RuntimeError runError(rt::G& g, const rt::json& mutations) {
  std::vector<rulestack::DefError> errs;
  std::vector<rulestack::Mutation> ms;
  REQUIRE(rulestack::compileMutations(*g.def, mutations, "/do", ms, errs));
  uint64_t h = g.g().hash();
  std::string msg;
  std::string reason = g.g().runMutations(ms, &msg);
  CHECK(g.g().hash() == h);  // nothing changed
  return rulestack::RuntimeError(reason, msg);
}

bool lists(rt::G& g, const std::string& player, const std::string& action) {
  for (auto& m : g.legal(player))
    if (m.value("action", "") == action) return true;
  return false;
}
}  // namespace

TEST_CASE("a zone used as a condition holds when it is not empty", "[claims]") {
  rt::G g(rt::json::parse(kGame));
  CHECK(g.holds("not $zone.@Pile"));
  CHECK(g.holds("$zone.@Heap and true"));
  CHECK_FALSE(lists(g, "0", "WhenPiled"));  // (listed before: any zone held)
  g.run(rt::json::parse(R"J([{ "operation": "Create", "template": "Card", "destination": "$zone.@Pile" }])J"));
  CHECK(lists(g, "0", "WhenPiled"));
  CHECK(g.holds("$zone.@Pile.where($zone.@Pile).size == 1"));
}

TEST_CASE("integer arithmetic wraps: INT_MIN / -1 and abs(INT_MIN) are INT_MIN", "[claims]") {
  rt::G g(rt::json::parse(kGame));
  CHECK(g.eval("(-2147483647 - 1) / -1") == INT_MIN);
  CHECK(g.eval("abs(-2147483647 - 1)") == INT_MIN);
  CHECK(g.eval("abs(-5)") == 5);
  CHECK(g.eval("7 / -1") == -7);
  CHECK(g.eval("7 / 0") == 0);
  CHECK(g.eval("(-2147483647 - 1) % -1") == 0);
  g.run(rt::json::parse(R"J([{ "target": "$players[0]", "property": "n", "operation": "=", "value": "(-2147483647 - 1)" },
                            { "target": "$players[0]", "property": "n", "operation": "/", "value": -1 }])J"));
  CHECK(g.eval("$players[0].n") == INT_MIN);
}

TEST_CASE("contains compares as == does: an entity, zone or player matches the string of its id", "[claims]") {
  rt::G g(rt::json::parse(kGame));
  CHECK(g.holds("$zone.@Heap.contains('C1')"));
  CHECK(g.holds("$entity.all.contains('C1')"));
  CHECK(g.holds("$player.all.contains('1')"));
  CHECK(g.holds("$player.all.zone.@Board.contains('Board:1')"));
  CHECK_FALSE(g.holds("$zone.@Heap.contains('C2')"));
  CHECK_FALSE(g.holds("$zone.@Pile.contains('C1')"));
  CHECK(g.holds("$zone.@Heap.contains($zone.@Heap[0])"));
}

TEST_CASE("Create into an entity puts the new ones in its zone; a computed count below 0 is a run-time error", "[claims]") {
  rt::G g(rt::json::parse(kGame));
  g.run(rt::json::parse(R"J([{ "operation": "Create", "template": "Card", "count": 2, "destination": "$zone.@Heap[0]" }])J"));
  CHECK(g.eval("$zone.@Heap.size") == 3);
  auto e = runError(g, rt::json::parse(R"J([{ "operation": "Create", "template": "Card", "destination": "$players[0]" }])J"));
  CHECK(e.reason == "runtime_error");
  CHECK(std::string(e.what()) == "/do/0: destination is not a zone");
  e = runError(g, rt::json::parse(R"J([{ "operation": "Create", "template": "Card", "count": "$turn - 5", "destination": "$zone.@Heap" }])J"));
  CHECK(e.reason == "runtime_error");
  CHECK(std::string(e.what()) == "/do/0: Create makes from 0 to 1000 entities at once, found -4");
  CHECK(g.eval("$zone.@Heap.size") == 3);
}

TEST_CASE("an accepted reaction of an action runs the action's cost, the reaction's mutations, then the action's", "[claims]") {
  rt::G g(rt::json::parse(kGame));
  g.play("0", {{"action", "A"}});
  g.play("1", {{"decision", "d1"}, {"accept", true}});
  CHECK(g.eval("$players[1].a") == 0);  // Spring read b before Counter set it
  CHECK(g.eval("$players[1].b") == 1);
}

TEST_CASE("a key of another kind of move is refused, not ignored", "[claims]") {
  rt::G g(rt::json::parse(kGame));
  std::string msg;
  CHECK(g.apply("0", {{"action", "pass"}, {"targets", {"C1"}}}, &msg) == "malformed_move");
  CHECK(msg == "a pass takes no 'targets'");
  g.illegal("0", {{"action", "pass"}, {"x", 1}}, "malformed_move");
  g.illegal("0", {{"action", "A"}, {"accept", true}}, "malformed_move");
  g.apply("0", {{"action", "A"}, {"accept", true}}, &msg);
  CHECK(msg == "an action takes no 'accept'");
  g.play("0", {{"action", "A"}});
  g.illegal("1", {{"decision", "d1"}, {"action", "A"}}, "malformed_move");
  g.apply("1", {{"decision", "d1"}, {"mode", 0}}, &msg);
  CHECK(msg == "an answer to a decision takes no 'mode'");
  g.play("1", {{"decision", "d1"}});  // (accept left out: true)
  CHECK(g.eval("$players[1].b") == 1);
}

TEST_CASE("a queued reaction's and triggered action's item has its name", "[claims]") {
  rt::G g(rt::json::parse(R"J({
    "name": "Names", "players": { "count": 2, "properties": { "nm": 0, "tn": 0 } },
    "settings": { "auto_pass": false }, "zones": [{ "name": "Board" }],
    "entities": [{ "id": "Guard", "type": "unit",
      "reactions": [{ "name": "Alarm", "trigger": "$After.ActionPlayed", "condition": "$event.action.name == 'Poke'", "queue": true, "mutations": [] }],
      "triggered_actions": [{ "name": "Echo", "trigger": "$After.ActionPlayed", "condition": "$event.action.name == 'Poke'", "optional": false, "mutations": [] }] }],
    "setup": [{ "operation": "Create", "template": "Guard", "destination": "$zone.@Board", "owner": "$players[1]", "id": "G" }],
    "actions": [{ "name": "Poke", "mutations": [] },
      { "name": "Probe", "queue": false, "mutations": [
        { "target": "$player.current", "property": "nm", "operation": "=", "value": "$queue.items.where($candidate.name == 'Alarm').size" },
        { "target": "$player.current", "property": "tn", "operation": "=", "value": "$queue.items.where($candidate.name == 'Echo').size" }] }],
    "flow": { "phases": [{ "name": "Main", "valid_actions": ["Poke", "Probe"] }] } })J"));
  g.play("0", {{"action", "Poke"}});
  rt::json v = g.view();
  REQUIRE(v["decisions"].size() == 1);
  g.play(v["decisions"][0]["player"], {{"decision", v["decisions"][0]["id"]}, {"accept", true}});
  std::string p = g.view()["priority"];
  g.play(p, {{"action", "Probe"}});
  CHECK(g.eval("$players[" + p + "].nm") == 1);
  CHECK(g.eval("$players[" + p + "].tn") == 1);
}

// `.size` and `.count` always count, as language.md says: a property of that name is set and
// shown in views, not read by them.
TEST_CASE("a property named size or count is shown, and .size still counts", "[claims]") {
  rt::json def = rt::json::parse(kGame);
  def["players"]["properties"]["size"] = 6;
  rt::G g(def);
  CHECK(g.holds("$players[0].size == 1 and $player.all.size == 2 and $zone.@Heap.size == 1"));
  CHECK(g.holds("$zone.@Heap.entities.count == 1 and count($player.all) == 2"));
  CHECK(g.view(0)["players"][0]["properties"]["size"] == 6);
}
