// An item that has left the queue is still read as `$event.action` of its events while it
// is among the last 8 items to leave (docs/language.md, Expressions: the queue); after that
// its members read as null. A queued triggered action that answers an action's execution
// runs after N other items have left the queue, and records what it read.
#include "test_util.h"

using rt::json;

namespace {

// Mark (properties: tag 5) executes; Echo, forced, answers it from the queue and records
// whether `$event.action.tag` still reads 5. Fill is an item with nothing to do: each one
// played and resolved above Echo is one more item that left the queue after Mark.
json echoGame() {
  return json::parse(R"J({
    "name": "Echo",
    "players": { "count": 2, "properties": { "heard": 0, "silent": 0 } },
    "actions": [
      { "name": "Mark", "condition": "$player.current == $player.active", "properties": { "tag": 5 }, "mutations": [] },
      { "name": "Fill", "condition": "$player.current == $player.active", "mutations": [] } ],
    "triggered_actions": [
      { "name": "Echo", "trigger": "$After.@Mark", "optional": false, "mutations": [
        { "target": "$player.active", "property": "heard", "operation": "+", "value": 1, "condition": "$event.action.tag == 5" },
        { "target": "$player.active", "property": "silent", "operation": "+", "value": 1, "condition": "$event.action.tag == null" } ] } ],
    "flow": { "phases": [ { "name": "Main", "valid_actions": ["Mark", "Fill"] } ] } })J");
}

// Plays Mark, accepts Echo, then resolves `fills` Fill items above it, then Echo.
void markThenFill(rt::G& g, int fills) {
  g.play("0", json{{"action", "Mark"}});  // player 1 can only pass: passed for
  g.play("0", json{{"action", "pass"}});  // Mark executes; Echo fires
  json v = g.view(-2);
  INFO(v["decisions"].dump());
  REQUIRE(v["decisions"].size() == 1);
  CHECK(v["decisions"][0]["name"] == "Echo");
  g.play("0", json{{"decision", v["decisions"][0]["id"]}, {"accept", true}});
  REQUIRE(g.holds("$queue.size == 1"));
  for (int i = 0; i < fills; i++) {
    g.play("0", json{{"action", "Fill"}});
    REQUIRE(g.holds("$queue.size == 2"));
    g.play("0", json{{"action", "pass"}});  // the Fill on top executes and leaves
    REQUIRE(g.holds("$queue.size == 1"));
  }
  REQUIRE(g.holds("$players[0].heard == 0 and $players[0].silent == 0"));  // Echo has not run
  g.play("0", json{{"action", "pass"}});  // Echo executes
  REQUIRE(g.holds("$queue.size == 0"));
}

}  // namespace

TEST_CASE("an item that left the queue is read while among the last 8 to leave, then reads null", "[resolution]") {
  // after 0 or 7 others left it is among the last 8: read; after 8 (it is the 9th) or 20: null
  for (int fills : {0, 7, 8, 20}) {
    INFO(fills << " items left after it");
    rt::G g(echoGame());
    markThenFill(g, fills);
    if (fills < 8) CHECK(g.holds("$players[0].heard == 1 and $players[0].silent == 0"));
    else CHECK(g.holds("$players[0].heard == 0 and $players[0].silent == 1"));
    if (fills == 20) CHECK(g.st().recent.size() == 8);  // the ring keeps only 8
  }
}

TEST_CASE("a snapshot keeps the items that left the queue: restored, a triggered action reads the same", "[resolution]") {
  for (int fills : {0, 3, 7}) {
    INFO(fills << " items left after Mark before the snapshot");
    rt::G g(echoGame());
    // as markThenFill, up to Echo's turn: Echo waits on the queue, Mark among the items that left
    g.play("0", json{{"action", "Mark"}});
    g.play("0", json{{"action", "pass"}});
    json v = g.view(-2);
    REQUIRE(v["decisions"].size() == 1);
    g.play("0", json{{"decision", v["decisions"][0]["id"]}, {"accept", true}});
    for (int i = 0; i < fills; i++) {
      g.play("0", json{{"action", "Fill"}});
      g.play("0", json{{"action", "pass"}});
    }
    REQUIRE(g.holds("$queue.size == 1"));
    json snap = json::parse(rulestack::snapshotJson(g.g()).dump());
    REQUIRE(snap.contains("recent"));
    rt::G r(echoGame());
    std::string err;
    REQUIRE(rulestack::restoreSnapshot(r.g(), snap, err));
    REQUIRE(r.g().hash() == g.g().hash());
    CHECK(rulestack::snapshotJson(r.g()).dump() == snap.dump());  // the same snapshot again
    g.play("0", json{{"action", "pass"}});  // Echo executes, in the game and in its restored copy
    r.play("0", json{{"action", "pass"}});
    CHECK(g.holds("$players[0].heard == 1 and $players[0].silent == 0"));
    CHECK(r.holds("$players[0].heard == 1 and $players[0].silent == 0"));  // (silent before: Mark was gone)
    // a ring that does not add up is refused, and nothing restored
    json items = snap["recent"][1], nine = json::array();
    for (int i = 0; i < 9; i++) nine.push_back(items[0]);
    std::vector<json> bads = {json{99, items}, json{9, nine}};
    if (items.size() < 8) bads.push_back(json{(int)items.size() + 1, items});  // (a ring not full fills in order)
    for (const json& bad : bads) {
      json t = snap;
      t["recent"] = bad;
      rt::G q(echoGame());
      uint64_t before = q.g().hash();
      CHECK_FALSE(rulestack::restoreSnapshot(q.g(), t, err));
      CHECK(err.find("recent items") != std::string::npos);
      CHECK(q.g().hash() == before);
    }
  }
}
