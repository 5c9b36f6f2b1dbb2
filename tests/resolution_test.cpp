// Resolution that stops for a player (engine/src/resolve.cpp): a choice made in the middle
// of a resolution acts at the exact moment the rules name, and everything after it sees its
// result. Each test plays a small game to a stop, checks that the event has not happened
// yet, answers, and checks the exact state and log that follow.
#include "test_util.h"

using rt::json;

namespace {

// Player 1's Guard answers one event type at a time, chosen by its `arm` property: each
// reaction is optional and cancels (or, for damage, lowers) the pending event.
json gateGame() {
  return json::parse(R"J({
    "name": "Gate",
    "players": { "count": 2, "properties": { "arm": 0, "ran": 0 } },
    "zones": [ { "name": "Deck", "per_player": true, "ordered": true }, { "name": "Hand", "per_player": true },
               { "name": "Board" } ],
    "entities": [
      { "id": "Card", "type": "card", "properties": { "health": 5 } },
      { "id": "Guard", "type": "guard", "reactions": [
        { "name": "G1", "trigger": "$Before.$ActionPlayed", "optional": true, "condition": "$player.current.arm == 1",
          "mutations": [ { "target": "$event", "operation": "Cancel" } ] },
        { "name": "G2", "trigger": "$Before.@Move", "optional": true, "condition": "$player.current.arm == 2",
          "mutations": [ { "target": "$event", "operation": "Cancel" } ] },
        { "name": "G3", "trigger": "$Before.$OnZoneEnter", "optional": true, "condition": "$player.current.arm == 3",
          "mutations": [ { "target": "$event", "operation": "Cancel" } ] },
        { "name": "G4", "trigger": "$Before.$DamageTaken", "optional": true, "condition": "$player.current.arm == 4",
          "mutations": [ { "target": "$event.damage_value", "operation": "-", "value": 2 } ] },
        { "name": "G5", "trigger": "$Before.$PhaseExecute", "optional": true,
          "condition": "$player.current.arm == 5 and $event.phase == 'Upkeep'",
          "mutations": [ { "target": "$event", "operation": "Cancel" } ] },
        { "name": "G6", "trigger": "$Before.$TurnStart", "optional": true, "condition": "$player.current.arm == 6",
          "mutations": [ { "target": "$event", "operation": "Cancel" } ] },
        { "name": "G7", "trigger": "$Before.$DrawFailed", "optional": true, "condition": "$player.current.arm == 7",
          "mutations": [ { "target": "$event", "operation": "Cancel" } ] } ] } ],
    "setup": [
      { "operation": "Create", "template": "Card", "destination": "$players[0].zone.@Hand", "id": "C1" },
      { "operation": "Create", "template": "Guard", "destination": "$zone.@Board", "owner": "$players[1]", "id": "Gd" } ],
    "actions": [
      { "name": "Move", "condition": "$player.current == $player.active", "mutations": [ { "target": "$entity.card", "destination": "$zone.@Board", "operation": "MoveZone" } ] },
      { "name": "Hit", "queue": false, "condition": "$player.current == $player.active",
        "mutations": [ { "operation": "Damage", "target": "$entity.card", "value": 3 } ] },
      { "name": "Pull", "queue": false, "condition": "$player.current == $player.active", "mutations": [ { "operation": "DrawCard", "target": "$player.current" } ] },
      { "name": "End", "queue": false, "condition": "$player.current == $player.active", "mutations": [ { "operation": "EndTurn" } ] } ],
    "flow": { "phases": [
      { "name": "Upkeep", "on_enter": [ { "target": "$player.active", "property": "ran", "operation": "+", "value": 1 } ] },
      { "name": "Main", "valid_actions": ["Move", "Hit", "Pull", "End"] } ] } })J");
}

void arm(rt::G& g, int n) {
  g.run(json::array({json{{"target", "$players[1]"}, {"property", "arm"}, {"operation", "="}, {"value", n}}}));
}

// The log entries since `from` of that event type in that half ("before" or "after").
int logged(rt::G& g, size_t from, const std::string& type, bool before) {
  int n = 0;
  for (auto& e : g.events(from))
    if (e["type"] == type && (e.contains("when") == before)) n++;
  return n;
}

// Waits at the guard's decision `name`, for player 1.
std::string guardAsked(rt::G& g, const std::string& name) {
  json v = g.view(-2);
  INFO(v["decisions"].dump());
  REQUIRE(v["decisions"].size() == 1);
  CHECK(v["decisions"][0]["name"] == name);
  CHECK(v["decisions"][0]["player"] == "1");
  CHECK(v["toAct"] == json::array({"1"}));
  CHECK(g.legal("0").empty());
  return v["decisions"][0]["id"].get<std::string>();
}

}  // namespace

TEST_CASE("a $Before choice changes or cancels the event before it happens, for every event type", "[resolution]") {
  rt::G g(gateGame());
  REQUIRE(g.holds("$players[0].ran == 1"));
  for (bool accept : {true, false}) {
    DYNAMIC_SECTION((accept ? "accepted" : "declined")) {
      SECTION("ActionPlayed: not queued") {
        arm(g, 1);
        size_t from = g.game->log.size();
        g.play("0", json{{"action", "Move"}});
        std::string d = guardAsked(g, "G1");
        CHECK(g.st().queue.empty());  // not on the queue yet
        g.play("1", json{{"decision", d}, {"accept", accept}});
        CHECK(g.st().queue.size() == (accept ? 0u : 1u));
        CHECK(logged(g, from, "ActionPlayed", false) == (accept ? 0 : 1));
        if (accept) CHECK(rt::hasEvent(g.events(from), json{{"type", "ActionCancelled"}, {"action", "Move"}}));
      }
      SECTION("@Action: the item does not execute") {
        arm(g, 2);
        g.play("0", json{{"action", "Move"}});
        size_t from = g.game->log.size();
        g.play("0", json{{"action", "pass"}});  // player 1 passes automatically; it executes
        std::string d = guardAsked(g, "G2");
        CHECK(g.zone("Board").size() == 1);  // only the guard: the card has not moved
        g.play("1", json{{"decision", d}, {"accept", accept}});
        CHECK(g.zone("Board").size() == (accept ? 1u : 2u));
        CHECK(logged(g, from, "AfterAction", false) == (accept ? 0 : 1));
      }
      SECTION("OnZoneEnter: the entity stays") {
        arm(g, 3);
        g.play("0", json{{"action", "Move"}});
        g.play("0", json{{"action", "pass"}});
        size_t from = g.game->log.size();
        std::string d = guardAsked(g, "G3");
        CHECK(g.zone("Hand:0") == std::vector<std::string>{"C1"});
        g.play("1", json{{"decision", d}, {"accept", accept}});
        CHECK(g.zone("Hand:0").size() == (accept ? 1u : 0u));
        CHECK(logged(g, from, "OnZoneEnter", false) == (accept ? 0 : 1));
      }
      SECTION("DamageTaken: lowered before it is dealt") {
        arm(g, 4);
        size_t from = g.game->log.size();
        g.play("0", json{{"action", "Hit"}});
        std::string d = guardAsked(g, "G4");
        CHECK(g.holds("$entity.card[0].health == 5"));
        g.play("1", json{{"decision", d}, {"accept", accept}});
        CHECK(g.eval("$entity.card[0].health") == (accept ? 4 : 2));
        CHECK(rt::hasEvent(g.events(from), json{{"type", "DamageTaken"}, {"damage_value", accept ? 1 : 3}}));
      }
      SECTION("PhaseExecute: on_enter does not run") {
        arm(g, 5);
        g.play("0", json{{"action", "End"}});
        size_t from = 0;
        std::string d = guardAsked(g, "G5");
        CHECK(g.holds("$turn == 2 and $players[1].ran == 0"));
        g.play("1", json{{"decision", d}, {"accept", accept}});
        CHECK(g.eval("$players[1].ran") == (accept ? 0 : 1));
        (void)from;
      }
      SECTION("TurnStart: no $After half") {
        arm(g, 6);
        size_t from = g.game->log.size();
        g.play("0", json{{"action", "End"}});
        std::string d = guardAsked(g, "G6");
        CHECK(logged(g, from, "TurnStart", true) == 1);
        g.play("1", json{{"decision", d}, {"accept", accept}});
        CHECK(logged(g, from, "TurnStart", false) == (accept ? 0 : 1));
      }
      SECTION("DrawFailed: no $After half") {
        arm(g, 7);
        size_t from = g.game->log.size();
        g.play("0", json{{"action", "Pull"}});
        std::string d = guardAsked(g, "G7");
        g.play("1", json{{"decision", d}, {"accept", accept}});
        CHECK(logged(g, from, "DrawFailed", false) == (accept ? 0 : 1));
      }
    }
  }
}

TEST_CASE("a snapshot, a clone and undo taken mid-resolution resume exactly like the original", "[resolution]") {
  rt::G g(gateGame());
  arm(g, 4);
  g.play("0", json{{"action", "Hit"}});
  std::string d = guardAsked(g, "G4");
  REQUIRE_FALSE(g.st().stack.empty());  // stopped inside the resolution
  uint64_t atStop = g.g().hash();

  // a snapshot restores to the same stop
  rulestack::Game restored(g.game->defPtr());
  std::string err;
  REQUIRE(rulestack::restoreSnapshot(restored, json::parse(rulestack::snapshotJson(g.g()).dump()), err));
  CHECK(restored.hash() == atStop);
  rulestack::Game copy = g.g().clone();

  rulestack::Move answer;
  REQUIRE(rulestack::parseMove(g.g(), json{{"decision", d}, {"accept", true}}, answer, err));
  int p1 = g.player("1");
  g.play("1", json{{"decision", d}, {"accept", true}});
  uint64_t after = g.g().hash();
  CHECK(after != atStop);
  std::string msg;
  CHECK(restored.apply(p1, answer, &msg) == "");
  CHECK(copy.apply(p1, answer, &msg) == "");
  CHECK(restored.hash() == after);
  CHECK(copy.hash() == after);
  CHECK(g.eval("$entity.card[0].health") == 4);

  // the facade: undo goes back to the stop, and the other answer then gives the other result
  json armed = gateGame();
  armed["players"]["properties"]["arm"] = 4;
  rulestack::Session s;
  REQUIRE(s.load(armed.dump(), "1") == "");
  REQUIRE(json::parse(s.apply("0", R"({"action":"Hit"})"))["ok"] == true);
  json v = json::parse(s.view(""));
  REQUIRE(v["decisions"].size() == 1);
  std::string stop = s.stateHash();
  std::string id = v["decisions"][0]["id"];
  REQUIRE(json::parse(s.apply("1", json{{"decision", id}, {"accept", true}}.dump()))["ok"] == true);
  REQUIRE(s.undo());
  CHECK(s.stateHash() == stop);
  REQUIRE(json::parse(s.apply("1", json{{"decision", id}, {"accept", false}}.dump()))["ok"] == true);
  CHECK(json::parse(s.view(""))["zones"]["Hand:0"]["entities"][0]["properties"]["health"] == 2);
}

TEST_CASE("several choices from one step are asked in order, each seeing the ones before", "[resolution]") {
  // both players may claim a prize when a card enters the Board; the first to accept takes
  // it, so the second is not asked. RequireDiscard of every player asks them one by one.
  json def = json::parse(R"J({
    "name": "Claims",
    "players": { "count": 3, "properties": { "prize": 0 } },
    "settings": { "discard_zone": "Pile" },
    "zones": [ { "name": "Hand", "per_player": true }, { "name": "Board" }, { "name": "Pile", "per_player": true } ],
    "entities": [
      { "id": "Card", "type": "card" },
      { "id": "Claimer", "type": "claimer", "reactions": [
        { "name": "Claim", "trigger": "$After.$OnZoneEnter", "optional": true,
          "condition": "$event.zone == $zone.@Board and $players[0].prize + $players[1].prize + $players[2].prize == 0",
          "mutations": [ { "target": "$player.current", "property": "prize", "operation": "=", "value": 1 } ] } ] } ],
    "setup": [
      { "operation": "Create", "template": "Claimer", "destination": "$players[0].zone.@Hand" },
      { "operation": "Create", "template": "Claimer", "destination": "$players[1].zone.@Hand" },
      { "operation": "Create", "template": "Claimer", "destination": "$players[2].zone.@Hand" },
      { "operation": "Create", "template": "Card", "count": 2, "destination": "$players[1].zone.@Hand" },
      { "operation": "Create", "template": "Card", "count": 2, "destination": "$players[2].zone.@Hand" } ],
    "actions": [
      { "name": "Place", "queue": false, "mutations": [ { "operation": "Create", "template": "Card", "destination": "$zone.@Board" } ] },
      { "name": "Purge", "queue": false, "mutations": [
        { "operation": "RequireDiscard", "target": "$player.all", "count": 1 },
        { "target": "$player.current", "property": "prize", "operation": "=", "value": "$players[1].zone.@Hand.size + $players[2].zone.@Hand.size" } ] } ],
    "flow": { "first_player": "1", "phases": [ { "name": "Main", "valid_actions": ["Place", "Purge"] } ] } })J");
  SECTION("reactions: the active player first; an accepted claim ends the others' offers") {
    rt::G g(def);
    g.play("1", json{{"action", "Place"}});
    json v = g.view(-2);
    REQUIRE(v["decisions"].size() == 1);
    CHECK(v["decisions"][0]["player"] == "1");  // the active player (first_player 1)
    g.play("1", json{{"decision", g.decisionId()}, {"accept", false}});
    v = g.view(-2);
    REQUIRE(v["decisions"].size() == 1);
    CHECK(v["decisions"][0]["player"] == "2");  // then turn order: 2, then 0
    g.play("2", json{{"decision", g.decisionId()}, {"accept", true}});
    CHECK(g.view(-2)["decisions"].empty());      // player 0's condition now fails: not asked
    CHECK(g.holds("$players[2].prize == 1 and $players[0].prize == 0"));
  }
  SECTION("RequireDiscard of every player: one at a time, then the next mutation") {
    rt::G g(def);
    g.play("1", json{{"action", "Purge"}});
    // player 1 (active) first; player 0 has only a Claimer... everyone has a hand
    std::vector<std::string> order;
    while (!g.st().decisions.empty()) {
      REQUIRE(g.st().decisions.size() == 1);
      CHECK(g.holds("$players[1].prize == 0"));  // the mutation after the discard waits
      const rulestack::Decision& dec = g.st().decisions[0];
      std::string p = g.def->playerIds[dec.player];
      order.push_back(p);
      g.play(p, json{{"decision", g.decisionId()}, {"targets", {g.game->entityId(dec.options[0])}}});
    }
    CHECK(order == std::vector<std::string>{"1", "2", "0"});
    CHECK(g.eval("$players[1].prize") == 4);  // (3 - 1) + (3 - 1): read after every discard
  }
}

TEST_CASE("targeted reactions, the game's own reactions, and destroyed entities read as null", "[resolution]") {
  json def = json::parse(R"J({
    "name": "Thorns",
    "players": { "count": 2, "properties": { "saw": -1 } },
    "zones": [ { "name": "Board", "per_player": true } ],
    "entities": [
      { "id": "Unit", "type": "unit", "properties": { "health": 3 },
        "reactions": [
          { "name": "Retaliate", "trigger": "$After.$DamageTaken", "optional": true,
            "condition": "$event.entity == $entity.self",
            "requires_target": { "from": "$player.opponent.zone.@Board" },
            "mutations": [ { "operation": "Damage", "target": "$target", "value": 1 } ] } ] },
      { "id": "Witness", "type": "gear", "reactions": [
          { "name": "Look", "trigger": "$After.$DamageTaken",
            "mutations": [ { "target": "$player.current", "property": "saw",
                             "operation": "=", "value": "$event.entity.health" } ] } ] } ],
    "reactions": [
      { "name": "Death", "trigger": "$After.$DamageTaken", "condition": "$event.entity.health <= 0",
        "mutations": [ { "target": "$event.entity", "operation": "Destroy" } ] } ],
    "setup": [
      { "operation": "Create", "template": "Unit", "destination": "$players[0].zone.@Board", "id": "A" },
      { "operation": "Create", "template": "Unit", "destination": "$players[0].zone.@Board", "id": "A2" },
      { "operation": "Create", "template": "Unit", "destination": "$players[1].zone.@Board", "id": "B" },
      { "operation": "Create", "template": "Witness", "destination": "$players[1].zone.@Board", "id": "W" } ],
    "actions": [
      { "name": "Hit", "queue": false, "requires_target": { "from": "$player.opponent.zone.@Board" },
        "x": { "min": 1, "max": 3 },
        "mutations": [ { "operation": "Damage", "target": "$target", "value": "$x" } ] } ],
    "flow": { "phases": [ { "name": "Main", "valid_actions": ["Hit"] } ] } })J");
  rt::G g(def);
  SECTION("a targeted reaction: its controller picks the target when accepting") {
    g.play("0", json{{"action", "Hit"}, {"targets", {"B"}}, {"x", 1}});
    json v = g.view(-2);
    REQUIRE(v["decisions"].size() == 1);
    CHECK(v["decisions"][0]["name"] == "Retaliate");
    CHECK(v["decisions"][0]["choices"] == json::array({json::array({"A"}), json::array({"A2"})}));
    g.illegal("1", json{{"decision", g.decisionId()}, {"accept", true}, {"targets", {"W"}}}, "bad_target");
    g.play("1", json{{"decision", g.decisionId()}, {"accept", true}, {"targets", {"A2"}}});
    CHECK(g.holds("$entity.unit.where($candidate.id == 'A2')[0].health == 2"));
    CHECK(g.holds("$entity.unit.where($candidate.id == 'B')[0].health == 2"));
    // A2's own Retaliate now asks player 0
    CHECK(g.view(-2)["decisions"][0]["player"] == "0");
  }
  SECTION("the game's own reaction destroys; later references read null") {
    g.play("0", json{{"action", "Hit"}, {"targets", {"B"}}, {"x", 3}});
    // Death (the game's, for the event's player 0) ran first: B is gone, so the Witness
    // (player 1's) reads $event.entity.health as null, and B cannot retaliate
    CHECK(g.zone("Board:1") == std::vector<std::string>{"W"});
    CHECK(g.eval("$players[1].saw") == nullptr);
    CHECK(g.view(-2)["decisions"].empty());
  }
  SECTION("a declined targeted reaction changes nothing") {
    g.play("0", json{{"action", "Hit"}, {"targets", {"B"}}, {"x", 1}});
    uint64_t h = g.g().hash();
    (void)h;
    g.play("1", json{{"decision", g.decisionId()}, {"accept", false}});
    CHECK(g.holds("$entity.unit.where($candidate.id == 'A')[0].health == 3"));
    CHECK(g.holds("$entity.unit.where($candidate.id == 'A2')[0].health == 3"));
    CHECK(g.eval("$players[1].saw") == 2);
  }
}

TEST_CASE("the machine reports each step it runs, and nothing when nobody listens", "[resolution]") {
  rt::G g(gateGame());
  arm(g, 4);
  std::vector<rulestack::Game::TraceStep> steps;
  g.g().trace = &steps;
  g.play("0", json{{"action", "Hit"}});
  g.g().trace = nullptr;
  REQUIRE_FALSE(steps.empty());
  // taking Hit, its mutation, the DamageTaken event's before stage, then its reactions one deeper
  std::vector<json> js;
  for (auto& t : steps) js.push_back(rulestack::traceJson(g.g(), t));
  CHECK(js[0]["step"] == "take");
  auto find = [&](const json& want) {
    for (size_t i = 0; i < js.size(); i++)
      if (rt::subset(want, js[i])) return (int)i;
    return -1;
  };
  int mut = find(json{{"step", "mutation"}, {"list", "action Hit"}, {"index", 0}});
  int ev = find(json{{"step", "event"}, {"stage", "before"}, {"event", {{"type", "DamageTaken"}}}});
  int re = find(json{{"step", "reactions"}, {"event", {{"type", "DamageTaken"}}}});
  REQUIRE(mut >= 0);
  REQUIRE(ev > mut);
  REQUIRE(re > ev);
  CHECK(js[ev]["depth"].get<int>() == js[mut]["depth"].get<int>() + 1);
  CHECK(js[re]["depth"].get<int>() == js[ev]["depth"].get<int>() + 1);
  // the facade returns them as "steps" only when asked
  rulestack::Session s;
  REQUIRE(s.load(gateGame().dump(), "1") == "");
  CHECK_FALSE(json::parse(s.apply("0", R"({"action":"Hit"})")).contains("steps"));
  s.setTrace(true);
  json r = json::parse(s.apply("0", R"({"action":"Hit"})"));
  REQUIRE(r.contains("steps"));
  CHECK(r["steps"][0]["step"] == "take");
}

// An item executing at once (nothing answers its events: no frame) is found as an executing
// item in a frame is: a Cancel of it marks it cancelled, its mode's mutations are skipped, and
// its later mutations read it as cancelled (docs/language.md, Cancel: "or executing (its
// remaining mutations still run)").
TEST_CASE("an action that cancels itself as it executes, with nothing answering it", "[resolution]") {
  for (const char* resolution : {"item", "chain"}) {
    INFO("resolution: " << resolution);
    rt::G g(json::parse(std::string(R"J({
      "name": "SelfCancel",
      "players": { "count": 2, "properties": { "last": null, "seen": 0, "moded": 0 } },
      "settings": { "resolution": ")J") + resolution + R"J(" },
      "reactions": [
        { "name": "Remember", "trigger": "$After.$ActionPlayed",
          "mutations": [ { "target": "$player.current", "property": "last", "operation": "=", "value": "$event.action" } ] } ],
      "actions": [
        { "name": "Zap", "condition": "$player.current == $player.active",
          "modes": [ { "name": "Loud", "mutations": [ { "target": "$player.current", "property": "moded", "operation": "+", "value": 1 } ] } ],
          "mutations": [
            { "operation": "Cancel", "target": "$player.current.last" },
            { "target": "$player.current", "property": "seen", "operation": "=", "value": 1, "condition": "$player.current.last.cancelled" } ] } ],
      "flow": { "phases": [ { "name": "Main", "valid_actions": ["Zap"] } ] } })J"));
    g.play("0", json{{"action", "Zap"}, {"mode", 0}});  // (Loud)
    REQUIRE(g.holds("$queue.size == 1"));
    g.play("0", json{{"action", "pass"}});  // player 1 passed for: Zap executes
    REQUIRE(g.holds("$queue.size == 0"));
    CHECK(g.holds("$players[0].seen == 1"));   // it read itself as cancelled
    CHECK(g.holds("$players[0].moded == 0"));  // its mode did not run
    CHECK(g.holds("$players[0].last.cancelled"));
  }
}
