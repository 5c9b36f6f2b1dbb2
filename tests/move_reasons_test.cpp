// A refused move gets the first reason that applies, in the order docs/api.md lists them, even
// when it names something unknown: a name the mover cannot resolve (another player's hidden
// card, a misspelt action or source) is no reason to skip what the state says first.
#include "rulestack/session.h"
#include "test_util.h"

namespace {
const char* kGame = R"J({
  "name": "Order",
  "players": { "count": 2 },
  "zones": [ { "name": "Hand", "per_player": true, "visibility": "owner" }, { "name": "Board" } ],
  "entities": [ { "id": "Card", "type": "card", "actions": [ { "name": "Use", "mutations": [] } ] } ],
  "setup": [ { "operation": "Create", "template": "Card", "destination": "$item.zone.@Hand", "for_each": "$player.all" },
             { "operation": "Create", "template": "Card", "destination": "$zone.@Board", "id": "Target" } ],
  "actions": [
    { "name": "Pick", "source": "$zone.@Hand", "requires_target": "$zone.@Board.entities", "mutations": [] },
    { "name": "Ask", "queue": false, "mutations": [ { "operation": "RequireDiscard", "target": "$players[0]", "count": 1, "destination": "$zone.@Board" } ] } ],
  "flow": { "phases": [ { "name": "Main", "valid_actions": ["Pick", "Ask"] } ] }
})J";

// "reason: message" of a refused move, checking that it changed nothing
std::string refused(rulestack::Session& s, const std::string& player, const std::string& move) {
  std::string hash = s.stateHash(), log = s.log();
  rt::json r = rt::json::parse(s.apply(player, move));
  CHECK(s.stateHash() == hash);
  CHECK(s.log() == log);
  REQUIRE(r.contains("reason"));
  return r["reason"].get<std::string>() + ": " + r["message"].get<std::string>();
}
}  // namespace

TEST_CASE("an unknown name gives its reason only in that reason's turn", "[reasons]") {
  rulestack::Session s;
  REQUIRE(s.load(kGame, "1").empty());
  // player 1 has no priority: that comes before what the move names
  CHECK(refused(s, "1", R"({"action": "Nope"})") == "not_your_priority: player 1 does not have priority");
  CHECK(refused(s, "1", R"({"action": "Pick", "source": "Card#1", "targets": ["Target"]})").rfind("not_your_priority: ", 0) == 0);
  CHECK(refused(s, "1", R"({"action": "Pick", "source": "Card#2", "targets": ["Nowhere"]})").rfind("not_your_priority: ", 0) == 0);
  // player 0 has it: then each unknown name is its own reason, with the name in the message
  CHECK(refused(s, "0", R"({"action": "Nope", "source": "Nobody#9"})") == "unknown_action: unknown action 'Nope'");
  CHECK(refused(s, "0", R"({"action": "Pick", "source": "Nobody#9", "targets": ["Target"]})") ==
        "bad_source: unknown source 'Nobody#9'");
  CHECK(refused(s, "0", R"({"action": "Pick", "source": "Card#1", "targets": ["Nowhere"]})") ==
        "bad_target: unknown target 'Nowhere'");
  // player 1's card is hidden from player 0: its id names nothing for them
  CHECK(refused(s, "0", R"({"action": "Pick", "source": "Card#2", "targets": ["Target"]})") ==
        "bad_source: unknown source 'Card#2'");
  // a field that cannot be read is still refused first
  CHECK(refused(s, "1", R"({"action": "Nope", "mode": "x"})") == "malformed_move: mode must be a whole number");

  rt::json asked = rt::json::parse(s.apply("0", R"({"action": "Ask"})"));
  REQUIRE(asked.value("ok", false));
  rt::json view = rt::json::parse(s.view("0"));
  REQUIRE(view["decisions"].size() == 1);
  std::string d = view["decisions"][0]["id"].get<std::string>();
  // player 0's card, hidden from player 1, named by player 1 in an answer to player 0's decision
  CHECK(refused(s, "1", R"({"decision": ")" + d + R"(", "targets": ["Card#1"]})") ==
        "not_your_decision: that decision belongs to player 0");
  CHECK(refused(s, "0", R"({"action": "Nope"})").rfind("decision_pending: ", 0) == 0);
  CHECK(refused(s, "0", R"({"decision": ")" + d + R"(", "targets": ["Nowhere"]})") ==
        "bad_target: unknown target 'Nowhere'");
  CHECK(rt::json::parse(s.apply("0", R"({"decision": ")" + d + R"(", "targets": ["Card#1"]})")).value("ok", false));
}
