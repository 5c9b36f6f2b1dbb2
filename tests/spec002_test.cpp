// Spec 002 ("Actions") and docs/language.md, behaviour by behaviour: the spec's JSON
// examples loaded verbatim inside minimal games, every operation of the language, the flow
// of time, the priority loop, triggered actions, bounded reaction loops and every reason
// an illegal move can be rejected with.
#include "spec002_examples.h"
#include "test_util.h"

using rt::G;
using rt::json;

namespace {

// Merges a verbatim spec block (an object of lists) into a game: its lists are appended.
json merge(json game, const char* block) {
  json b = json::parse(block);
  for (auto it = b.begin(); it != b.end(); ++it)
    for (auto& x : it.value()) game[it.key()].push_back(x);
  return game;
}

json mv(const char* text) { return json::parse(text); }
const json kPass = json{{"action", "pass"}};

// Passes for whoever is to act until the queue is empty (at most n passes).
void passUntilEmpty(G& g, int n = 10) {
  for (int i = 0; i < n && !g.st().queue.empty() && g.st().decisions.empty(); i++) {
    auto who = g.g().toAct();
    REQUIRE(who.size() == 1);
    g.play(g.def->playerIds[who[0]], kPass);
  }
}

}  // namespace

// ============================================================================ the examples

TEST_CASE("spec 002 PlayCard: the card moves to the target zone, mana decreases by its cost", "[spec002]") {
  json game = json::parse(R"J({
    "name": "PlayCard", "players": { "count": 2, "properties": { "mana": 10 } },
    "zones": [ { "name": "Hand", "per_player": true, "visibility": "owner" }, { "name": "MainBoard" } ],
    "entities": [ { "id": "Card", "type": "card", "properties": { "cost": 3 } } ],
    "setup": [ { "operation": "Create", "template": "Card", "count": 2, "destination": "$item.zone.@Hand", "for_each": "$player.all" } ],
    "flow": { "phases": [ { "name": "Main", "valid_actions": ["PlayCard"] } ] }
  })J");
  G g(merge(game, spec002::kPlayCard));
  json legal = g.legal("0");
  CHECK(rt::hasEvent(legal, mv(R"J({"action": "PlayCard", "source": "Card#1", "targets": ["MainBoard"]})J")));
  g.play("0", mv(R"J({"action": "PlayCard", "source": "Card#1", "targets": ["MainBoard"]})J"));
  CHECK(g.st().queue.size() == 1);
  g.play("1", kPass);
  g.play("0", kPass);
  CHECK(g.zone("MainBoard") == std::vector<std::string>{"Card#1"});
  CHECK(g.zone("Hand:0") == std::vector<std::string>{"Card#2"});
  CHECK(g.eval("$players[0].mana") == 7);
  CHECK(g.eval("$players[1].mana") == 10);
  // a card of the other player cannot be the source
  g.illegal("0", mv(R"J({"action": "PlayCard", "source": "Card#3", "targets": ["MainBoard"]})J"), "bad_source");
}

TEST_CASE("spec 002 HealingPotion: Consume heals the target by 2, the potion goes to the DiscardPile", "[spec002]") {
  json game = json::parse(R"J({
    "name": "Potion", "players": { "count": 2 },
    "zones": [ { "name": "Hand", "per_player": true, "visibility": "owner" }, { "name": "Board" },
               { "name": "DiscardPile", "per_player": true } ],
    "entities": [ { "id": "Hero", "type": "piece", "properties": { "current_health": 5 } } ],
    "setup": [
      { "operation": "Create", "template": "HealingPotion", "destination": "$players[0].zone.@Hand" },
      { "operation": "Create", "template": "Hero", "destination": "$zone.@Board", "owner": "$players[0]" },
      { "operation": "Create", "template": "Hero", "destination": "$zone.@Board", "owner": "$players[1]" } ],
    "flow": { "phases": [ { "name": "Main", "valid_actions": ["Consume"] } ] }
  })J");
  G g(merge(game, spec002::kHealingPotion));
  json legal = g.legal("0");
  CHECK(legal.size() == 3);  // Consume on either Hero, or pass
  g.play("0", mv(R"J({"action": "Consume", "source": "HealingPotion#1", "targets": ["Hero#2"]})J"));
  passUntilEmpty(g);
  CHECK(g.eval("$entity.piece[1].current_health") == 7);
  CHECK(g.eval("$entity.piece[0].current_health") == 5);
  CHECK(g.zone("DiscardPile:0") == std::vector<std::string>{"HealingPotion#1"});
  CHECK(g.zone("Hand:0").empty());
  // player 1 controls no potion: nothing to do but pass
  CHECK(g.legal("1").size() <= 1);
}

namespace {
json reactionsGame() {
  json game = json::parse(R"J({
    "name": "Reactions", "players": { "count": 2, "properties": { "life": 20 } },
    "settings": { "cancel_zone": "Graveyard" },
    "zones": [ { "name": "Hand", "per_player": true, "visibility": "owner" }, { "name": "Traps", "per_player": true },
               { "name": "Board" }, { "name": "Graveyard", "per_player": true } ],
    "entities": [
      { "id": "Knight", "type": "piece", "properties": { "health": 10 } },
      { "id": "Fireball", "type": "spell", "actions": [ { "name": "Cast", "play": true,
          "condition": "$entity.self.zone == $zone.@Hand",
          "mutations": [ { "target": "$player.opponent", "property": "life", "operation": "-", "value": 3 } ] } ] },
      { "id": "Minion", "type": "creature", "actions": [ { "name": "Summon", "play": true,
          "condition": "$entity.self.zone == $zone.@Hand",
          "mutations": [ { "target": "$entity.self", "destination": "$zone.@Board", "operation": "MoveZone" } ] } ] } ],
    "setup": [
      { "operation": "Create", "template": "Knight", "destination": "$zone.@Board", "id": "Knight" },
      { "operation": "Create", "template": "IronArmor", "destination": "$zone.@Board", "id": "Armor" },
      { "operation": "Create", "template": "Fireball", "destination": "$players[0].zone.@Hand" },
      { "operation": "Create", "template": "Minion", "destination": "$players[0].zone.@Hand" },
      { "operation": "Create", "template": "TrapCard", "destination": "$players[1].zone.@Traps" } ],
    "actions": [
      { "name": "Strike", "queue": false, "requires_target": "$entity.piece",
        "mutations": [ { "operation": "Damage", "target": "$target.entity", "value": 3 } ] },
      { "name": "Equip", "queue": false, "source": "$entity.equipment", "requires_target": "$entity.piece",
        "mutations": [ { "operation": "Attach", "target": "$entity.selected", "host": "$target.entity" },
                       { "target": "$entity.selected", "property": "is_equipped", "operation": "=", "value": true } ] } ],
    "flow": { "phases": [ { "name": "Main", "valid_actions": ["Strike", "Equip", "Cast", "Summon"] } ] }
  })J");
  return merge(game, spec002::kReactions);
}
}  // namespace

TEST_CASE("spec 002 IronArmor: damage reduced by 1 while equipped, not otherwise", "[spec002]") {
  G g(reactionsGame());
  size_t mark = g.g().log.size();
  g.play("0", mv(R"J({"action": "Strike", "targets": ["Knight"]})J"));
  CHECK(g.eval("$entity.piece[0].health") == 7);
  CHECK(rt::hasEvent(g.events(mark), mv(R"J({"type": "DamageTaken", "entity": "Knight", "damage_value": 3})J")));
  g.play("0", mv(R"J({"action": "Equip", "source": "Armor", "targets": ["Knight"]})J"));
  CHECK(g.eval("$entity.equipment[0].host") == "Knight");
  CHECK(g.eval("$entity.equipment[0].is_equipped") == true);
  mark = g.g().log.size();
  g.play("0", mv(R"J({"action": "Strike", "targets": ["Knight"]})J"));
  CHECK(g.eval("$entity.piece[0].health") == 5);
  json ev = g.events(mark);
  // the $Before event carries 3, the reaction takes 1 off, the event happens with 2
  CHECK(rt::hasEvent(ev, mv(R"J({"type": "DamageTaken", "when": "before", "damage_value": 3})J")));
  bool after2 = false;
  for (auto& e : ev)
    if (e["type"] == "DamageTaken" && !e.contains("when")) after2 = e["damage_value"] == 2;
  CHECK(after2);
}

TEST_CASE("spec 002 TrapCard: Counterspell cancels a spell, not a non-spell", "[spec002]") {
  G g(reactionsGame());
  SECTION("accepted: the spell is cancelled and goes to the cancel zone") {
    g.play("0", mv(R"J({"action": "Cast", "source": "Fireball#1"})J"));
    REQUIRE(g.st().decisions.size() == 1);
    json dv = g.view(1)["decisions"][0];
    CHECK(dv["player"] == "1");
    CHECK(dv["kind"] == "reaction");
    CHECK(dv["optional"] == true);
    g.illegal("0", kPass, "decision_pending");
    g.play("1", json{{"decision", g.decisionId()}, {"accept", true}});
    CHECK(g.st().queue.empty());
    CHECK(g.zone("Graveyard:0") == std::vector<std::string>{"Fireball#1"});
    CHECK(g.eval("$players[1].life") == 20);
    CHECK(rt::hasEvent(g.events(), mv(R"J({"type": "ActionCancelled", "action": "Cast", "entity": "Fireball#1"})J")));
  }
  SECTION("declined: the spell resolves") {
    g.play("0", mv(R"J({"action": "Cast", "source": "Fireball#1"})J"));
    g.play("1", json{{"decision", g.decisionId()}, {"accept", false}});
    REQUIRE(g.st().queue.size() == 1);
    passUntilEmpty(g);
    CHECK(g.eval("$players[1].life") == 17);
    CHECK(g.zone("Graveyard:0") == std::vector<std::string>{"Fireball#1"});  // discard_zone defaults to cancel_zone
  }
  SECTION("a creature is not a spell: no Counterspell offered") {
    g.play("0", mv(R"J({"action": "Summon", "source": "Minion#1"})J"));
    CHECK(g.st().decisions.empty());
    passUntilEmpty(g);
    CHECK(g.zone("Board").size() == 3);
  }
}

namespace {
// A file of three squares R2, R3, R4 and a side square; White's pawn W stands on R2,
// Black's pawn B beside. MovePiece: mode 0 one square, mode 1 two squares (distance 2,
// passing R3). The verbatim EnPassant block is the Pawn template's triggered action.
json enPassantGame(bool topLevel) {
  json game = json::parse(R"J({
    "name": "EnPassant", "players": { "count": 2 },
    "zones": [ { "name": "R2" }, { "name": "R3" }, { "name": "R4" }, { "name": "Side" }, { "name": "Graveyard" } ],
    "entities": [ { "id": "Pawn", "type": "piece", "tags": ["Pawn"], "properties": { "passed_location": null } } ],
    "setup": [
      { "operation": "Create", "template": "Pawn", "destination": "$zone.@R2", "owner": "$players[0]", "id": "W" },
      { "operation": "Create", "template": "Pawn", "destination": "$zone.@Side", "owner": "$players[1]", "id": "B" } ],
    "actions": [ { "name": "MovePiece", "queue": false,
      "source": "$zone.@R2.entities.where($candidate.controller == $player.current)",
      "properties": { "distance": "$mode + 1" },
      "modes": [
        { "name": "One", "mutations": [ { "target": "$entity.selected", "destination": "$zone.@R3", "operation": "MoveZone" } ] },
        { "name": "Two", "mutations": [
          { "target": "$entity.selected", "property": "passed_location", "operation": "=", "value": "$zone.@R3" },
          { "target": "$entity.selected", "destination": "$zone.@R4", "operation": "MoveZone" } ] } ] } ],
    "flow": { "phases": [ { "name": "Main", "valid_actions": ["MovePiece", "Rest"] } ] }
  })J");
  // Rest: something to do, so that the game keeps asking after the pawns stop moving
  game["actions"].push_back(json{{"name", "Rest"}, {"queue", false}, {"mutations", json::array()}});
  if (topLevel) return merge(game, spec002::kEnPassant);
  json block = json::parse(spec002::kEnPassant);
  game["entities"][0]["triggered_actions"] = block["triggered_actions"];
  return game;
}
}  // namespace

TEST_CASE("spec 002 EnPassant: offered after a 2-square move, accepting captures", "[spec002]") {
  SECTION("the verbatim block loads at the top level too") {
    auto errs = rt::errorsOf(enPassantGame(true));
    INFO(rt::describe(errs));
    CHECK(errs.empty());
  }
  G g(enPassantGame(false));
  SECTION("one square: no offer") {
    g.play("0", mv(R"J({"action": "MovePiece", "source": "W", "mode": 0})J"));
    CHECK(g.st().decisions.empty());
    CHECK(g.zone("R3") == std::vector<std::string>{"W"});
  }
  SECTION("two squares: offered; accepted, B captures W and lands on the passed square") {
    g.play("0", mv(R"J({"action": "MovePiece", "source": "W", "mode": 1})J"));
    CHECK(g.zone("R4") == std::vector<std::string>{"W"});
    // every Pawn's EnPassant fires (the verbatim condition does not check sides): W's own
    // offer goes to player 0, B's to player 1; one at a time, the active player's first
    REQUIRE(g.st().decisions.size() == 1);
    json v = g.view(-2);
    CHECK(v["toAct"] == json::array({"0"}));
    CHECK(v["decisions"][0]["name"] == "EnPassant");
    CHECK(v["decisions"][0]["player"] == "0");
    std::string mine = v["decisions"][0]["id"].get<std::string>();
    g.illegal("1", json{{"decision", mine}, {"accept", true}, {"targets", {"W"}}}, "not_your_decision");
    g.play("0", json{{"decision", mine}, {"accept", false}});
    REQUIRE(g.st().decisions.size() == 1);
    std::string theirs = g.view(-2)["decisions"][0]["id"].get<std::string>();
    CHECK(g.view(-2)["decisions"][0]["player"] == "1");
    CHECK(rt::hasEvent(g.legal("1"), json{{"decision", theirs}, {"accept", true}, {"targets", {"W"}}}));
    g.play("1", json{{"decision", theirs}, {"accept", true}, {"targets", {"W"}}});
    passUntilEmpty(g);
    CHECK(g.zone("Graveyard") == std::vector<std::string>{"W"});
    CHECK(g.zone("R3") == std::vector<std::string>{"B"});
  }
  SECTION("two squares, declined: nothing happens") {
    g.play("0", mv(R"J({"action": "MovePiece", "source": "W", "mode": 1})J"));
    while (!g.st().decisions.empty()) {
      int p = g.g().toAct()[0];
      for (auto& d : g.st().decisions)
        if (d.player == p) {
          g.play(g.def->playerIds[p], json{{"decision", "d" + std::to_string(d.id)}, {"accept", false}});
          break;
        }
    }
    CHECK(g.zone("R4") == std::vector<std::string>{"W"});
    CHECK(g.zone("Side") == std::vector<std::string>{"B"});
    CHECK(g.zone("Graveyard").empty());
  }
}

// ============================================================================ operations

namespace {
json opsGame() {
  return json::parse(R"J({
    "name": "Ops",
    "players": { "count": 2, "properties": { "life": 20 } },
    "settings": { "cancel_zone": "Grave" },
    "zones": [
      { "name": "Deck", "per_player": true, "visibility": "nobody", "ordered": true },
      { "name": "Hand", "per_player": true, "visibility": "owner" },
      { "name": "Board" }, { "name": "Grave", "per_player": true } ],
    "entities": [
      { "id": "Card", "type": "card", "properties": { "cost": 1, "power": 2, "health": 5 } },
      { "id": "Elite", "type": "card", "properties": { "power": 9, "rank": 1 } },
      { "id": "Token", "type": "token" } ],
    "setup": [ { "operation": "Create", "template": "Card", "count": 3, "destination": "$item.zone.@Deck", "for_each": "$player.all" } ],
    "actions": [
      { "name": "Noop", "mutations": [] },
      { "name": "Finish", "mutations": [ { "operation": "EndTurn" } ] } ],
    "flow": { "phases": [ { "name": "Main", "valid_actions": ["Noop", "Finish"] } ] }
  })J");
}
}  // namespace

TEST_CASE("operations: arithmetic, SetProperty, conditions, for_each", "[spec002][ops]") {
  G g(opsGame());
  auto life = [&](int p) { return g.eval("$players[" + std::to_string(p) + "].life"); };
  g.run(mv(R"J([{ "operation": "=", "target": "$players[0]", "property": "life", "value": 7 }])J"));
  CHECK(life(0) == 7);
  g.run(mv(R"J([{ "operation": "+", "target": "$players[0]", "property": "life", "value": 3 }])J"));
  CHECK(life(0) == 10);
  g.run(mv(R"J([{ "operation": "-", "target": "$players[0]", "property": "life", "value": 4 }])J"));
  CHECK(life(0) == 6);
  g.run(mv(R"J([{ "operation": "*", "target": "$players[0]", "property": "life", "value": 5 }])J"));
  CHECK(life(0) == 30);
  g.run(mv(R"J([{ "operation": "/", "target": "$players[0]", "property": "life", "value": 4 }])J"));
  CHECK(life(0) == 7);
  g.run(mv(R"J([{ "operation": "/", "target": "$players[0]", "property": "life", "value": 0 }])J"));
  CHECK(life(0) == 0);  // division by zero gives 0
  g.run(mv(R"J([{ "operation": "SetProperty", "target": "$players[0]", "property": "life", "value": "$players[1].life + 1" }])J"));
  CHECK(life(0) == 21);
  // a list target: every element
  g.run(mv(R"J([{ "operation": "-", "target": "$player.all", "property": "life", "value": 1 }])J"));
  CHECK(life(0) == 20);
  CHECK(life(1) == 19);
  // condition false: skipped; for_each binds $item
  g.run(mv(R"J([{ "operation": "=", "target": "$players[0]", "property": "life", "value": 1, "condition": "$turn > 5" }])J"));
  CHECK(life(0) == 20);
  g.run(mv(R"J([{ "operation": "+", "target": "$item", "property": "life", "value": 10, "for_each": "$player.all", "condition": "$item.life < 20" }])J"));
  CHECK(life(0) == 20);
  CHECK(life(1) == 29);
  // strings and booleans are values too
  g.run(mv(R"J([{ "operation": "=", "target": "$players[0]", "property": "life", "value": "low" }])J"));
  CHECK(life(0) == "low");
  // a null target does nothing
  g.run(mv(R"J([{ "operation": "=", "target": "$zone.@Board.top", "property": "power", "value": 1 }])J"));
  // 32-bit arithmetic wraps, it does not crash
  g.run(mv(R"J([{ "operation": "=", "target": "$players[1]", "property": "life", "value": 2147483647 },
               { "operation": "+", "target": "$players[1]", "property": "life", "value": 1 }])J"));
  CHECK(life(1) == -2147483647 - 1);
}

TEST_CASE("operations: MoveZone, Destroy, Promote, DrawCard, Create, Shuffle", "[spec002][ops]") {
  G g(opsGame());
  CHECK(g.zone("Deck:0") == std::vector<std::string>{"Card#1", "Card#2", "Card#3"});
  CHECK(g.zone("Deck:1") == std::vector<std::string>{"Card#4", "Card#5", "Card#6"});
  CHECK(g.eval("$players[1].type") == "player");  // (a player is an entity of type 'player')
  CHECK(g.eval("$players[1].zone.@Deck.top.type") == "card");
  SECTION("MoveZone top (default) and bottom, with OnZoneEnter") {
    size_t mark = g.g().log.size();
    g.run(mv(R"J([{ "operation": "MoveZone", "target": "$players[0].zone.@Deck.top", "destination": "$zone.@Board" }])J"));
    CHECK(rt::hasEvent(g.events(mark), mv(R"J({"type": "OnZoneEnter", "entity": "Card#1", "zone": "Board", "from": "Deck:0"})J")));
    g.run(mv(R"J([{ "operation": "MoveZone", "target": "$players[0].zone.@Deck.top", "destination": "$zone.@Board", "position": "top" }])J"));
    g.run(mv(R"J([{ "operation": "MoveZone", "target": "$players[0].zone.@Deck.top", "destination": "$zone.@Board", "position": "bottom" }])J"));
    CHECK(g.zone("Board") == std::vector<std::string>{"Card#2", "Card#1", "Card#3"});
    CHECK(g.eval("$zone.@Board.entities[2].index") == 2);
    // a zone as target moves every entity in it
    g.run(mv(R"J([{ "operation": "MoveZone", "target": "$players[1].zone.@Deck", "destination": "$zone.@Board", "position": "bottom" }])J"));
    CHECK(g.zone("Board").size() == 6);
    CHECK(g.zone("Deck:1").empty());
  }
  SECTION("Destroy removes the entity from the game") {
    g.run(mv(R"J([{ "operation": "Destroy", "target": "$players[0].zone.@Deck.top" }])J"));
    CHECK(g.zone("Deck:0") == std::vector<std::string>{"Card#2", "Card#3"});
    CHECK(g.eval("count($entity.all)") == 5);
    g.run(mv(R"J([{ "operation": "Create", "template": "Card", "destination": "$zone.@Board" }])J"));
    CHECK(g.zone("Board") == std::vector<std::string>{"Card#7"});
  }
  SECTION("Promote keeps id, zone and owner; takes the new template's properties") {
    g.run(mv(R"J([{ "operation": "Promote", "target": "$players[1].zone.@Deck.top", "template": "Elite" }])J"));
    CHECK(g.zone("Deck:1") == std::vector<std::string>{"Card#4", "Card#5", "Card#6"});
    CHECK(g.eval("$players[1].zone.@Deck.top.template") == "Elite");
    CHECK(g.eval("$players[1].zone.@Deck.top.power") == 9);
    CHECK(g.eval("$players[1].zone.@Deck.top.rank") == 1);
    CHECK(g.eval("$players[1].zone.@Deck.top.owner") == "1");
    json e = g.view(-2)["zones"]["Deck:1"]["entities"][0];
    CHECK(e["id"] == "Card#4");
    CHECK(e["template"] == "Elite");
  }
  SECTION("DrawCard moves the top entities; DrawFailed when the deck is empty") {
    g.run(mv(R"J([{ "operation": "DrawCard", "target": "$players[0]" }])J"));
    CHECK(g.zone("Hand:0") == std::vector<std::string>{"Card#1"});
    size_t mark = g.g().log.size();
    g.run(mv(R"J([{ "operation": "DrawCard", "target": "$players[0]", "count": 5 }])J"));
    CHECK(g.zone("Hand:0") == std::vector<std::string>{"Card#3", "Card#2", "Card#1"});
    CHECK(g.zone("Deck:0").empty());
    json ev = g.events(mark);
    CHECK(rt::hasEvent(ev, mv(R"J({"type": "DrawFailed", "player": "0"})J")));
    // explicit from / destination
    g.run(mv(R"J([{ "operation": "DrawCard", "target": "$players[1]", "from": "$players[1].zone.@Deck", "destination": "$zone.@Board", "count": 2 }])J"));
    CHECK(g.zone("Board") == std::vector<std::string>{"Card#5", "Card#4"});
  }
  SECTION("DrawCard for one player: the player in context, the opponent, a count from an expression") {
    // (one player's draw from Deck to Hand is done without a list of targets: the same moves)
    g.run(mv(R"J([{ "operation": "DrawCard", "target": "$player.current", "count": "$turn + 1" }])J"));
    CHECK(g.eval("$turn") == 1);
    CHECK(g.zone("Hand:0") == std::vector<std::string>{"Card#2", "Card#1"});
    CHECK(g.zone("Deck:0") == std::vector<std::string>{"Card#3"});
    size_t mark = g.g().log.size();
    g.run(mv(R"J([{ "operation": "DrawCard", "target": "$player.opponent", "count": 4 }])J"));
    CHECK(g.zone("Hand:1") == std::vector<std::string>{"Card#6", "Card#5", "Card#4"});
    CHECK(g.zone("Deck:1").empty());
    json ev = g.events(mark);
    CHECK(rt::hasEvent(ev, mv(R"J({"type": "OnZoneEnter", "entity": "Card#4", "zone": "Hand:1", "from": "Deck:1"})J")));
    CHECK(rt::hasEvent(ev, mv(R"J({"type": "DrawFailed", "player": "1"})J")));
    // a count of 0 or less draws nothing, and fails nothing
    mark = g.g().log.size();
    g.run(mv(R"J([{ "operation": "DrawCard", "target": "$player.current", "count": "0 - 2" }])J"));
    CHECK(g.zone("Hand:0").size() == 2);
    CHECK_FALSE(rt::hasEvent(g.events(mark), mv(R"J({"type": "DrawFailed"})J")));
  }
  SECTION("Create: ids per template, an explicit id, owners") {
    g.run(mv(R"J([{ "operation": "Create", "template": "Token", "destination": "$zone.@Board", "id": "T1", "owner": "$players[1]" },
                 { "operation": "Create", "template": "Token", "destination": "$zone.@Board", "count": 2 },
                 { "operation": "Create", "template": "Token", "destination": "$players[1].zone.@Hand" }])J"));
    CHECK(g.zone("Board") == std::vector<std::string>{"T1", "Token#1", "Token#2"});
    CHECK(g.eval("$zone.@Board.entities[0].owner") == "1");
    CHECK(g.eval("$zone.@Board.entities[1].owner") == "0");       // a shared zone: the player in context
    CHECK(g.eval("$players[1].zone.@Hand.top.owner") == "1");      // a player's zone: its owner
    CHECK(g.zone("Hand:1") == std::vector<std::string>{"Token#3"});
    // an id that exists already: the mutation fails and changes nothing
    std::vector<rulestack::DefError> errs;
    std::vector<rulestack::Mutation> ms;
    REQUIRE(rulestack::compileMutations(*g.def, mv(R"J([{ "operation": "Create", "template": "Token", "destination": "$zone.@Board", "id": "T1" }])J"), "/do", ms, errs));
    uint64_t h = g.g().hash();
    std::string msg;
    CHECK(g.g().runMutations(ms, &msg) == "runtime_error");
    CHECK(msg.find("an entity with id 'T1' already exists") != std::string::npos);
    CHECK(g.g().hash() == h);
  }
  SECTION("Shuffle: deterministic per seed") {
    json def = opsGame();
    def["setup"].push_back(mv(R"J({ "operation": "Create", "template": "Token", "count": 30, "destination": "$zone.@Board" })J"));
    def["setup"].push_back(mv(R"J({ "operation": "Shuffle", "target": "$zone.@Board" })J"));
    G a(def, 11), b(def, 11), c(def, 12);
    CHECK(a.zone("Board") == b.zone("Board"));
    CHECK(a.zone("Board") != c.zone("Board"));
    CHECK(a.g().hash() == b.g().hash());
    std::vector<std::string> inOrder;
    for (int i = 1; i <= 30; i++) inOrder.push_back("Token#" + std::to_string(i));
    auto shuffled = a.zone("Board");
    CHECK(shuffled != inOrder);
    std::sort(shuffled.begin(), shuffled.end());
    std::sort(inOrder.begin(), inOrder.end());
    CHECK(shuffled == inOrder);  // a permutation
  }
}

TEST_CASE("operations: Damage, Attach, RequireDiscard, EndTurn, Win, Lose, Draw", "[spec002][ops]") {
  G g(opsGame());
  g.run(mv(R"J([{ "operation": "MoveZone", "target": "$players[0].zone.@Deck", "destination": "$zone.@Board", "position": "bottom" }])J"));
  REQUIRE(g.zone("Board") == std::vector<std::string>{"Card#1", "Card#2", "Card#3"});
  SECTION("Damage subtracts from health (default) or the named property, with DamageTaken") {
    size_t mark = g.g().log.size();
    g.run(mv(R"J([{ "operation": "Damage", "target": "$zone.@Board.top", "value": 3 }])J"));
    CHECK(g.eval("$zone.@Board.top.health") == 2);
    CHECK(rt::hasEvent(g.events(mark), mv(R"J({"type": "DamageTaken", "entity": "Card#1", "damage_value": 3})J")));
    g.run(mv(R"J([{ "operation": "Damage", "target": "$players[1]", "value": 4, "property": "life" }])J"));
    CHECK(g.eval("$players[1].life") == 16);
    // several targets
    g.run(mv(R"J([{ "operation": "Damage", "target": "$zone.@Board", "value": 1 }])J"));
    CHECK(g.eval("sum($zone.@Board, 'health')") == 1 + 4 + 4);
  }
  SECTION("Attach: the attachment moves with its host; out of play it is discarded") {
    g.run(mv(R"J([{ "operation": "Attach", "target": "$players[1].zone.@Deck.top", "host": "$zone.@Board.top" }])J"));
    CHECK(g.eval("$zone.@Board.entities.where($candidate.id == 'Card#4')[0].host") == "Card#1");
    CHECK(g.zone("Board").size() == 4);
    CHECK(g.zone("Board")[0] == "Card#4");  // it moved into its host's zone
    g.run(mv(R"J([{ "operation": "MoveZone", "target": "$zone.@Board.entities.where($candidate.id == 'Card#1')", "destination": "$players[0].zone.@Grave" }])J"));
    auto grave = g.zone("Grave:0");
    CHECK(std::find(grave.begin(), grave.end(), "Card#4") != grave.end());
    CHECK(std::find(grave.begin(), grave.end(), "Card#1") != grave.end());
    CHECK(g.eval("$players[0].zone.@Grave.entities.where($candidate.id == 'Card#4')[0].host") == "Card#1");
    // the host leaves to a zone that is not active (Deck: visibility nobody): the attachment goes
    // to its owner's discard zone (cancel_zone here), detached
    g.run(mv(R"J([{ "operation": "MoveZone", "target": "$players[0].zone.@Grave.entities.where($candidate.id == 'Card#1')", "destination": "$players[0].zone.@Deck" }])J"));
    CHECK(g.zone("Grave:1") == std::vector<std::string>{"Card#4"});
    CHECK(g.eval("$players[1].zone.@Grave.top.host") == nullptr);
  }
  SECTION("RequireDiscard: a pending decision of that player") {
    g.run(mv(R"J([{ "operation": "DrawCard", "target": "$players[1]", "count": 3 },
                 { "operation": "RequireDiscard", "target": "$players[1]", "count": 2 }])J"));
    REQUIRE(g.st().decisions.size() == 1);
    json v = g.view(1);
    CHECK(v["toAct"] == json::array({"1"}));
    CHECK(v["decisions"][0]["kind"] == "discard");
    CHECK(v["decisions"][0]["count"] == 2);
    CHECK(g.legal("1").size() == 3);   // 2 of 3
    CHECK(g.legal("0").empty());
    std::string d = g.decisionId();
    g.illegal("0", kPass, "decision_pending");
    g.illegal("1", json{{"decision", d}, {"targets", {"Card#4"}}}, "bad_target");
    g.illegal("1", json{{"decision", d}, {"accept", false}}, "must_accept");
    g.play("1", json{{"decision", d}, {"targets", {"Card#6", "Card#4"}}});
    CHECK(g.zone("Hand:1") == std::vector<std::string>{"Card#5"});
    auto grave = g.zone("Grave:1");
    std::sort(grave.begin(), grave.end());
    CHECK(grave == std::vector<std::string>{"Card#4", "Card#6"});
    CHECK(g.st().decisions.empty());
  }
  SECTION("EndTurn ends the turn after the action") {
    CHECK(g.eval("$turn") == 1);
    g.play("0", mv(R"J({"action": "Finish"})J"));
    passUntilEmpty(g);
    CHECK(g.eval("$turn") == 2);
    CHECK(g.eval("$player.active") == "1");
  }
  SECTION("Win") {
    g.run(mv(R"J([{ "operation": "Win", "target": "$players[1]" }])J"));
    CHECK(g.view()["result"] == json{{"winner", "1"}});
    CHECK(rt::hasEvent(g.events(), mv(R"J({"type": "GameOver", "winner": "1"})J")));
    CHECK(g.g().toAct().empty());
    g.illegal("0", kPass, "game_over");
    CHECK(g.legal("0").empty());
  }
  SECTION("Lose: the other player wins") {
    g.run(mv(R"J([{ "operation": "Lose", "target": "$players[1]" }])J"));
    CHECK(g.view()["result"] == json{{"winner", "0"}});
  }
  SECTION("Draw") {
    g.run(mv(R"J([{ "operation": "Draw" }])J"));
    CHECK(g.view()["result"] == json{{"draw", true}});
    CHECK(rt::hasEvent(g.events(), mv(R"J({"type": "GameOver", "draw": true})J")));
  }
}

// ============================================================================ flow of time

TEST_CASE("flow of time: phases, on_enter, PhaseExecute, turn order, per_turn, end conditions", "[spec002][flow]") {
  json def = json::parse(R"J({
    "name": "Flow",
    "players": { "ids": ["a", "b", "c"], "properties": { "life": 3, "drawn": 0 }, "per_turn": { "plays": 0 } },
    "zones": [ { "name": "Board" } ],
    "entities": [ { "id": "Marker", "type": "marker" } ],
    "flow": {
      "turn_order": ["b", "c", "a"], "first_player": "c",
      "phases": [
        { "name": "Start", "on_enter": [ { "target": "$player.active", "property": "drawn", "operation": "+", "value": 1 } ] },
        { "name": "Main", "valid_actions": ["Play", "Hit"] },
        { "name": "End", "on_enter": [ { "operation": "Create", "template": "Marker", "destination": "$zone.@Board" } ] } ] },
    "actions": [
      { "name": "Play", "queue": false, "condition": "$player.current == $player.active and $player.current.plays < 2",
        "mutations": [ { "target": "$player.current", "property": "plays", "operation": "+", "value": 1 } ] },
      { "name": "Hit", "condition": "$player.current == $player.active",
        "mutations": [ { "target": "$player.opponent", "property": "life", "operation": "-", "value": 1 } ] } ],
    "end_conditions": [ { "when": "$player.current.life <= 0", "winner": "$player.opponent" },
                        { "when": "$turn > 8", "draw": true } ]
  })J");
  G g(def);
  // turn 1: c is first; Start ran (no valid_actions: on_enter, PhaseExecute, ends), Main waits
  CHECK(g.view()["active"] == "c");
  CHECK(g.view()["phase"] == "Main");
  CHECK(g.view()["toAct"] == json::array({"c"}));
  // $players follows the declaration order [a, b, c]; $player.all the turn order [b, c, a]
  CHECK(g.eval("$players[2]") == "c");
  CHECK(g.eval("$player.all[1]") == "c");
  CHECK(g.eval("$players[2].drawn") == 1);
  json ev = g.events();
  CHECK(rt::hasEvent(ev, mv(R"J({"type": "TurnStart", "player": "c", "turn": 1})J")));
  CHECK(rt::hasEvent(ev, mv(R"J({"type": "PhaseExecute", "phase": "Start", "player": "c"})J")));
  CHECK(rt::hasEvent(ev, mv(R"J({"type": "PhaseExecute", "phase": "Main", "player": "c"})J")));
  // queue:false: c keeps priority; per_turn counts
  g.play("c", mv(R"J({"action": "Play"})J"));
  g.play("c", mv(R"J({"action": "Play"})J"));
  CHECK(g.eval("$players[2].plays") == 2);
  g.illegal("c", mv(R"J({"action": "Play"})J"), "condition_false");
  // every player passes in succession on an empty queue: the phase ends; End runs; next in turn order: a
  // c passes; a and b can do nothing (both actions are the active player's): auto_pass
  size_t mark = g.g().log.size();
  g.play("c", kPass);
  CHECK(rt::hasEvent(g.events(mark), mv(R"J({"type": "PhaseExecute", "phase": "End", "player": "c"})J")));
  CHECK(g.zone("Board").size() == 1);
  CHECK(g.view()["active"] == "a");
  CHECK(g.view()["turn"] == 2);
  CHECK(g.eval("$players[2].plays") == 0);  // per_turn reset
  CHECK(g.eval("$players[0].drawn") == 1);
  // end condition: a hits its opponent (b, next in turn order) three times
  for (int i = 0; i < 3; i++) {
    g.play("a", mv(R"J({"action": "Hit"})J"));
    CHECK(g.view()["priority"] == "a");  // b and c were passed for
    g.play("a", kPass);                   // all three passed in succession: the Hit executes
  }
  CHECK(g.eval("$players[1].life") == 0);
  CHECK(g.view()["result"] == json{{"winner", "c"}});  // $player.opponent of b is c
}

TEST_CASE("flow of time: an end condition at the turn limit, and a flow that never asks is bounded", "[spec002][flow]") {
  SECTION("draw at the turn limit") {
    json def = json::parse(R"J({
      "name": "Limit", "players": { "count": 2 },
      "flow": { "phases": [ { "name": "Main", "valid_actions": ["Noop"] } ] },
      "actions": [ { "name": "Noop", "mutations": [] } ],
      "end_conditions": [ { "when": "$turn > 3", "draw": true } ] })J");
    G g(def);
    for (int i = 0; i < 6 && !g.st().over(); i++) g.play(g.def->playerIds[g.g().toAct()[0]], kPass);
    CHECK(g.view()["result"] == json{{"draw", true}});
    CHECK(g.view()["turn"] == 4);
  }
  SECTION("no player can ever act: the game does not hang") {
    json def = json::parse(R"J({
      "name": "Never", "players": { "count": 2 },
      "flow": { "phases": [ { "name": "Main", "valid_actions": ["Noop"] } ] },
      "actions": [ { "name": "Noop", "condition": false, "mutations": [] } ] })J");
    // the engine ends a stalemate (100 turns without asking anyone) in a draw
    REQUIRE(rt::errorsOf(def).empty());
    G g(def);
    CHECK(g.view()["result"] == json{{"draw", true}});
    CHECK(g.view()["turn"] == 100);
  }
}

// ============================================================================ the priority loop

namespace {
json prioGame(bool chain = false, bool autoPass = true) {
  json def = json::parse(R"J({
    "name": "Prio",
    "players": { "count": 2, "properties": { "seq": 0, "mana": 3 } },
    "settings": { "cancel_zone": "Grave" },
    "zones": [ { "name": "Hand", "per_player": true, "visibility": "owner" }, { "name": "Board" },
               { "name": "Other" }, { "name": "Grave", "per_player": true } ],
    "entities": [ { "id": "Card", "type": "card", "properties": { "hits": 0 } },
                  { "id": "Zap", "type": "spell" } ],
    "setup": [
      { "operation": "Create", "template": "Card", "count": 3, "destination": "$zone.@Board" },
      { "operation": "Create", "template": "Zap", "destination": "$item.zone.@Hand", "for_each": "$player.all" } ],
    "actions": [
      { "name": "A", "condition": "$player.current == $player.active or $queue.size > 0",
        "mutations": [ { "target": "$players[0]", "property": "seq", "operation": "*", "value": 10 },
                       { "target": "$players[0]", "property": "seq", "operation": "+", "value": 1 } ] },
      { "name": "B", "condition": "$queue.size > 0",
        "mutations": [ { "target": "$players[0]", "property": "seq", "operation": "*", "value": 10 },
                       { "target": "$players[0]", "property": "seq", "operation": "+", "value": 2 } ] },
      { "name": "Q", "queue": false, "condition": "$player.current == $player.active and $players[0].seq < 100",
        "mutations": [ { "target": "$players[0]", "property": "seq", "operation": "*", "value": 10 },
                       { "target": "$players[0]", "property": "seq", "operation": "+", "value": 9 } ] },
      { "name": "Cast", "source": "$zone.@Hand", "play": true,
        "requires_target": { "from": "$zone.@Board", "min": 1, "max": 2 },
        "mutations": [ { "target": "$targets", "property": "hits", "operation": "+", "value": 1 } ] },
      { "name": "Rescue", "queue": false, "requires_target": { "from": "$zone.@Board" }, "condition": "$queue.size > 0",
        "mutations": [ { "target": "$target.entity", "destination": "$zone.@Other", "operation": "MoveZone" } ] } ],
    "flow": { "phases": [ { "name": "Main", "valid_actions": ["A", "B", "Q", "Cast", "Rescue"] } ] }
  })J");
  if (chain) def["settings"]["resolution"] = "chain";
  def["settings"]["auto_pass"] = autoPass;
  return def;
}
}  // namespace

TEST_CASE("priority loop: answering in turns, LIFO, item vs chain, queue:false", "[spec002][priority]") {
  SECTION("item: the top executes once both passed, then the active player has priority again") {
    G g(prioGame());
    g.play("0", mv(R"J({"action": "A"})J"));
    CHECK(g.view()["priority"] == "1");
    g.illegal("0", mv(R"J({"action": "A"})J"), "not_your_priority");
    g.play("1", mv(R"J({"action": "B"})J"));            // answers
    CHECK(g.view()["priority"] == "0");
    CHECK(g.view()["queue"][0]["action"] == "B");      // top first
    g.play("0", kPass);
    g.play("1", kPass);
    CHECK(g.eval("$players[0].seq") == 2);              // B (last in) first
    CHECK(g.st().queue.size() == 1);
    CHECK(g.view()["priority"] == "0");                 // the active player again
    g.play("0", kPass);
    g.play("1", kPass);
    CHECK(g.eval("$players[0].seq") == 21);
    CHECK(g.st().queue.empty());
  }
  SECTION("chain: the whole queue executes, last in first") {
    G g(prioGame(true));
    g.play("0", mv(R"J({"action": "A"})J"));
    g.play("1", mv(R"J({"action": "B"})J"));
    g.play("0", mv(R"J({"action": "A"})J"));            // answering again
    g.play("1", kPass);
    g.play("0", kPass);
    CHECK(g.eval("$players[0].seq") == 121);
    CHECK(g.st().queue.empty());
    CHECK(g.view()["priority"] == "0");
  }
  SECTION("answering your own action when the opponent passed") {
    G g(prioGame());
    g.play("0", mv(R"J({"action": "A"})J"));
    g.play("1", kPass);
    CHECK(g.view()["priority"] == "0");
    g.play("0", mv(R"J({"action": "B"})J"));
    CHECK(g.st().queue.size() == 2);
    CHECK(g.view()["priority"] == "1");
    g.play("1", kPass);
    g.play("0", kPass);
    CHECK(g.eval("$players[0].seq") == 2);
  }
  SECTION("queue:false resolves at once and keeps priority; ActionPlayed still fires") {
    G g(prioGame());
    size_t mark = g.g().log.size();
    g.play("0", mv(R"J({"action": "Q"})J"));
    CHECK(g.eval("$players[0].seq") == 9);
    CHECK(g.view()["priority"] == "0");
    CHECK(g.st().queue.empty());
    CHECK(rt::hasEvent(g.events(mark), mv(R"J({"type": "ActionPlayed", "action": "Q"})J")));
  }
}

TEST_CASE("priority loop: auto_pass, targets re-checked at execution, cancelled cards", "[spec002][priority]") {
  SECTION("auto_pass on: a player with only pass is passed for") {
    json def = prioGame();
    def["flow"]["phases"][0]["valid_actions"] = {"A", "Q"};
    G g(def);
    g.play("0", mv(R"J({"action": "A"})J"));  // 1 could answer with A ($queue.size > 0)
    CHECK(g.view()["priority"] == "1");
    g.play("1", kPass);
    g.play("0", kPass);                     // A executes; seq 1
    CHECK(g.eval("$players[0].seq") == 1);
    g.play("0", mv(R"J({"action": "Q"})J"));  // seq 19
    g.play("0", mv(R"J({"action": "Q"})J"));  // seq 199: Q's condition fails now
    // 0 has A left; after A, 1 answers or passes ...
    CHECK(g.view()["priority"] == "0");
  }
  SECTION("auto_pass off: priority stops at a player who can only pass") {
    json def = prioGame(false, false);
    def["flow"]["phases"][0]["valid_actions"] = {"Q"};
    G g(def);
    g.play("0", mv(R"J({"action": "Q"})J"));
    g.play("0", kPass);
    CHECK(g.view()["toAct"] == json::array({"1"}));
    CHECK(g.legal("1") == json::array({kPass}));
    g.play("1", kPass);
    CHECK(g.view()["turn"] == 2);
  }
  SECTION("auto_pass on: the same game passes for player 1 by itself") {
    json def = prioGame();
    def["flow"]["phases"][0]["valid_actions"] = {"Q"};
    G g(def);
    g.play("0", mv(R"J({"action": "Q"})J"));
    g.play("0", kPass);
    CHECK(g.view()["turn"] == 2);
    CHECK(g.view()["active"] == "1");
  }
  SECTION("an invalid target is dropped at execution; the valid one is affected") {
    G g(prioGame());
    g.play("0", mv(R"J({"action": "Cast", "source": "Zap#1", "targets": ["Card#1", "Card#2"]})J"));
    CHECK(g.zone("Queue") == std::vector<std::string>{"Zap#1"});
    g.play("1", mv(R"J({"action": "Rescue", "targets": ["Card#1"]})J"));
    CHECK(g.zone("Other") == std::vector<std::string>{"Card#1"});
    g.play("1", kPass);
    g.play("0", kPass);
    CHECK(g.eval("$zone.@Other.top.hits") == 0);
    CHECK(g.eval("$zone.@Board.entities.where($candidate.id == 'Card#2')[0].hits") == 1);
    CHECK(g.zone("Grave:0") == std::vector<std::string>{"Zap#1"});   // discard_zone defaults to cancel_zone
  }
  SECTION("no valid target left: the item is cancelled, the card goes to the cancel zone") {
    G g(prioGame());
    g.play("0", mv(R"J({"action": "Cast", "source": "Zap#1", "targets": ["Card#3"]})J"));
    g.play("1", mv(R"J({"action": "Rescue", "targets": ["Card#3"]})J"));
    size_t mark = g.g().log.size();
    g.play("1", kPass);
    g.play("0", kPass);
    CHECK(g.eval("$zone.@Other.top.hits") == 0);
    CHECK(g.zone("Grave:0") == std::vector<std::string>{"Zap#1"});
    CHECK(rt::hasEvent(g.events(mark), mv(R"J({"type": "ActionCancelled", "action": "Cast", "entity": "Zap#1"})J")));
    CHECK_FALSE(rt::hasEvent(g.events(mark), mv(R"J({"type": "ActionExecuted", "action": "Cast"})J")));
  }
}

// ============================================================================ triggered actions

namespace {
json triggerGame(bool optional) {
  json def = json::parse(R"J({
    "name": "Triggers", "players": { "count": 2, "properties": { "score": 0 } },
    "zones": [ { "name": "Board" } ],
    "actions": [ { "name": "Score", "queue": false, "condition": "$player.current == $player.active",
                   "mutations": [ { "target": "$player.current", "property": "score", "operation": "+", "value": 1 } ] } ],
    "triggered_actions": [ { "name": "Bonus", "trigger": "$After.@Score", "player": "$player.opponent",
                             "condition": "$event.player.score < 3",
                             "mutations": [ { "target": "$player.current", "property": "score", "operation": "+", "value": 10 } ] } ],
    "flow": { "phases": [ { "name": "Main", "valid_actions": ["Score"] } ] } })J");
  def["triggered_actions"][0]["optional"] = optional;
  return def;
}
}  // namespace

TEST_CASE("triggered actions: optional accept/decline, forced, decision_pending", "[spec002][triggers]") {
  SECTION("optional: accept") {
    G g(triggerGame(true));
    g.play("0", mv(R"J({"action": "Score"})J"));
    REQUIRE(g.st().decisions.size() == 1);
    json v = g.view(1);
    CHECK(v["toAct"] == json::array({"1"}));
    CHECK(v["decisions"][0] == json({{"id", g.decisionId()}, {"player", "1"}, {"kind", "trigger"}, {"name", "Bonus"},
                                     {"optional", true}, {"choices", json::array({json::array()})}}));
    CHECK(g.legal("1").size() == 2);
    g.illegal("0", mv(R"J({"action": "Score"})J"), "decision_pending");
    g.illegal("1", kPass, "decision_pending");
    g.play("1", json{{"decision", g.decisionId()}, {"accept", true}});
    passUntilEmpty(g);
    CHECK(g.eval("$players[1].score") == 10);
  }
  SECTION("optional: decline") {
    G g(triggerGame(true));
    g.play("0", mv(R"J({"action": "Score"})J"));
    g.play("1", json{{"decision", g.decisionId()}, {"accept", false}});
    CHECK(g.st().decisions.empty());
    CHECK(g.st().queue.empty());
    CHECK(g.eval("$players[1].score") == 0);
  }
  SECTION("forced: only accepting is legal") {
    G g(triggerGame(false));
    g.play("0", mv(R"J({"action": "Score"})J"));
    CHECK(g.legal("1") == json::array({json{{"decision", g.decisionId()}, {"accept", true}}}));
    g.illegal("1", json{{"decision", g.decisionId()}, {"accept", false}}, "must_accept");
    g.play("1", json{{"decision", g.decisionId()}});
    passUntilEmpty(g);
    CHECK(g.eval("$players[1].score") == 10);
  }
  SECTION("the condition is checked when the trigger fires") {
    G g(triggerGame(true));
    g.run(mv(R"J([{ "target": "$players[0]", "property": "score", "operation": "=", "value": 5 }])J"));
    g.play("0", mv(R"J({"action": "Score"})J"));
    CHECK(g.st().decisions.empty());
  }
}

// ============================================================================ bounded loops

TEST_CASE("a reaction loop that never ends: loop_limit, and the state is unchanged", "[spec002][loops]") {
  json def = json::parse(R"J({
    "name": "Loop", "players": { "count": 2 },
    "zones": [ { "name": "A" }, { "name": "B" }, { "name": "Start" } ],
    "entities": [ { "id": "Ball", "type": "ball", "reactions": [
      { "name": "ToB", "trigger": "$After.OnZoneEnter", "condition": "$event.entity == $entity.self and $event.zone == $zone.@A",
        "mutations": [ { "target": "$entity.self", "destination": "$zone.@B", "operation": "MoveZone" } ] },
      { "name": "ToA", "trigger": "$After.OnZoneEnter", "condition": "$event.entity == $entity.self and $event.zone == $zone.@B",
        "mutations": [ { "target": "$entity.self", "destination": "$zone.@A", "operation": "MoveZone" } ] } ] } ],
    "setup": [ { "operation": "Create", "template": "Ball", "destination": "$zone.@Start" } ],
    "actions": [ { "name": "Kick", "queue": false, "mutations": [ { "target": "$entity.ball", "destination": "$zone.@A", "operation": "MoveZone" } ] },
                 { "name": "Wide", "queue": false, "mutations": [
                   { "operation": "Create", "template": "Ball", "destination": "$zone.@Start", "count": 600 } ] } ],
    "settings": { "max_events": 1000 },
    "flow": { "phases": [ { "name": "Main", "valid_actions": ["Kick", "Wide"] } ] } })J");
  G g(def);
  SECTION("nested reactions") {
    uint64_t h = g.g().hash();
    size_t logSize = g.g().log.size();
    std::string msg;
    CHECK(g.apply("0", mv(R"J({"action": "Kick"})J"), &msg) == "loop_limit");
    CHECK(msg.find("ToB") != std::string::npos);
    CHECK(g.g().hash() == h);
    CHECK(g.g().log.size() == logSize);
    CHECK(g.zone("Start") == std::vector<std::string>{"Ball#1"});
    // the game goes on
    CHECK(g.view()["toAct"] == json::array({"0"}));
  }
  SECTION("too many events in one move (max_events)") {
    uint64_t h = g.g().hash();
    std::string msg;
    CHECK(g.apply("0", mv(R"J({"action": "Wide"})J"), &msg) == "loop_limit");
    CHECK(msg.find("more than 1000 events in one move") != std::string::npos);
    CHECK(g.g().hash() == h);
  }
  SECTION("through the Session facade") {
    rulestack::Session s;
    REQUIRE(s.load(def.dump(), "1") == "");
    std::string h = s.stateHash();
    json r = json::parse(s.apply("0", R"J({"action":"Kick"})J"));
    CHECK(r["ok"] == false);
    CHECK(r["reason"] == "loop_limit");
    CHECK(s.stateHash() == h);
    CHECK_FALSE(s.undo());
  }
}

// ============================================================================ illegal moves

TEST_CASE("every reason a move is rejected (docs/language.md, Moves)", "[spec002][illegal]") {
  json def = json::parse(R"J({
    "name": "Reasons",
    "players": { "count": 2, "properties": { "mana": 3 } },
    "zones": [ { "name": "Hand", "per_player": true, "visibility": "owner" }, { "name": "Board" } ],
    "entities": [ { "id": "Card", "type": "card", "actions": [ { "name": "Use", "mutations": [] } ] } ],
    "setup": [ { "operation": "Create", "template": "Card", "destination": "$item.zone.@Hand", "for_each": "$player.all" },
               { "operation": "Create", "template": "Card", "destination": "$zone.@Board", "id": "Target" } ],
    "actions": [
      { "name": "Pick", "source": "$zone.@Hand", "requires_target": "$zone.@Board.entities", "mutations": [] },
      { "name": "Choose", "modes": [ { "name": "x", "mutations": [] }, { "name": "y", "mutations": [] } ] },
      { "name": "Spend", "x": { "min": 1, "max": 2 }, "cost": [ { "target": "$player.current", "property": "mana", "operation": "-", "value": "$x * 2" } ] },
      { "name": "Never", "condition": "$turn > 100", "mutations": [] },
      { "name": "Later", "mutations": [] },
      { "name": "Crash", "queue": false, "mutations": [ { "target": "$entity.all", "destination": "$player.current", "operation": "MoveZone" } ] },
      { "name": "Ask", "queue": false, "mutations": [ { "operation": "RequireDiscard", "target": "$player.all", "count": 1, "destination": "$zone.@Board" } ] },
      { "name": "Win", "queue": false, "mutations": [ { "operation": "Win", "target": "$player.current" } ] },
      { "name": "Many", "x": { "min": 0, "max": 30 }, "mutations": [] } ],
    "flow": { "phases": [ { "name": "Main", "valid_actions": ["Pick", "Choose", "Spend", "Never", "Crash", "Ask", "Win", "Use", "Many"] },
                          { "name": "Second", "valid_actions": ["Later"] } ] } })J");
  G g(def);
  g.illegal("1", kPass, "not_your_priority");
  g.illegal("0", mv(R"J({"action": "Nope"})J"), "unknown_action");
  g.illegal("0", mv(R"J({"action": "Later"})J"), "not_in_phase");
  g.illegal("0", mv(R"J({"action": "Never"})J"), "condition_false");
  g.illegal("0", mv(R"J({"action": "Pick", "source": "Card#2", "targets": ["Target"]})J"), "bad_source");   // not in their hand
  g.illegal("0", mv(R"J({"action": "Pick", "source": "Nobody#9", "targets": ["Target"]})J"), "bad_source");
  g.illegal("0", mv(R"J({"action": "Use", "source": "Card#2"})J"), "bad_source");                          // another player's entity
  g.illegal("0", mv(R"J({"action": "Pick", "source": "Card#1", "targets": ["Card#1"]})J"), "bad_target");
  g.illegal("0", mv(R"J({"action": "Pick", "source": "Card#1", "targets": ["NoSuchThing"]})J"), "bad_target");
  g.illegal("0", mv(R"J({"action": "Choose", "mode": 2})J"), "bad_mode");
  g.illegal("0", mv(R"J({"action": "Choose"})J"), "bad_mode");
  g.illegal("0", mv(R"J({"action": "Spend", "x": 3})J"), "bad_x");
  g.illegal("0", mv(R"J({"action": "Spend"})J"), "bad_x");
  g.illegal("0", mv(R"J({"action": "Spend", "x": 2})J"), "cannot_pay");
  {  // an X takes at most 21 values, from its min: past them, bad_x that says so
    g.illegal("0", mv(R"J({"action": "Many", "x": 21})J"), "bad_x");
    g.illegal("0", mv(R"J({"action": "Many", "x": -1})J"), "bad_x");
    std::string msg;
    CHECK(g.apply("0", mv(R"J({"action": "Many", "x": 25})J"), &msg) == "bad_x");
    CHECK(msg == "x must be from 0 to 20 (at most 21 values, from its min)");
    std::vector<rulestack::Move> legal;
    g.g().legalMoves(0, legal);
    int many = 0;
    for (auto& m : legal) many += m.kind == rulestack::Move::Take && g.def->actions[m.action].name == "Many";
    CHECK(many == 21);
  }
  g.illegal("0", mv(R"J({"decision": "d1", "accept": true})J"), "unknown_decision");
  g.illegal("0", mv(R"J({"action": 3})J"), "malformed_move");
  g.illegal("0", mv(R"J({"action": "pass", "extra": 1})J"), "malformed_move");
  g.illegal("0", mv(R"J([])J"), "malformed_move");
  {
    std::string msg;
    uint64_t h = g.g().hash();
    CHECK(g.apply("0", mv(R"J({"action": "Crash"})J"), &msg) == "runtime_error");
    CHECK(msg.find("/actions/5/mutations/0") != std::string::npos);
    CHECK(g.g().hash() == h);
  }
  g.play("0", mv(R"J({"action": "Spend", "x": 1})J"));
  CHECK(g.eval("$players[0].mana") == 1);
  passUntilEmpty(g);
  g.play("0", mv(R"J({"action": "Ask"})J"));
  // one decision at a time: the active player's first; the next is asked after it
  REQUIRE(g.st().decisions.size() == 1);
  REQUIRE(g.st().decisions[0].player == 0);
  std::string d0 = g.decisionId(0);
  g.illegal("0", kPass, "decision_pending");
  g.illegal("1", json{{"decision", d0}, {"targets", {"Card#1"}}}, "not_your_decision");   // not theirs
  g.illegal("0", json{{"decision", d0}, {"accept", false}}, "must_accept");
  {  // its message names what the decision is: a discard, not a triggered action
    std::string msg;
    CHECK(g.apply("0", json{{"decision", d0}, {"accept", false}}, &msg) == "must_accept");
    CHECK(msg == "this discard is not optional: choose the cards to discard");
  }
  g.illegal("0", json{{"decision", "d99"}, {"targets", {"Card#1"}}}, "unknown_decision");
  g.play("0", json{{"decision", d0}, {"targets", {"Card#1"}}});
  REQUIRE(g.st().decisions.size() == 1);
  REQUIRE(g.st().decisions[0].player == 1);
  std::string d1 = g.decisionId(0);
  g.play("1", json{{"decision", d1}, {"targets", {"Card#2"}}});
  CHECK(g.zone("Board").size() == 3);
  g.play("0", mv(R"J({"action": "Win"})J"));
  g.illegal("0", kPass, "game_over");
  g.illegal("1", mv(R"J({"action": "Choose", "mode": 0})J"), "game_over");
  // loop_limit: see "a reaction loop that never ends"
}

// ============================================================================ the facade

TEST_CASE("Session: apply, undo, snapshot/restore, log, views of hidden zones", "[spec002][session]") {
  json def = opsGame();
  def["setup"].push_back(mv(R"J({ "operation": "DrawCard", "target": "$item", "count": 2, "for_each": "$player.all" })J"));
  rulestack::Session s;
  REQUIRE(s.load(def.dump(), "3") == "");
  std::string h0 = s.stateHash();
  CHECK(h0.size() == 16);
  json r = json::parse(s.apply("0", R"J({"action":"Finish"})J"));
  REQUIRE(r["ok"] == true);
  CHECK(rt::hasEvent(r["events"], mv(R"J({"type": "ActionPlayed", "action": "Finish", "player": "0"})J")));
  std::string h1 = s.stateHash();
  CHECK(h1 != h0);
  std::string snap = s.snapshot();
  rulestack::Session t;
  REQUIRE(t.restore(def.dump(), snap) == "");
  CHECK(t.stateHash() == h1);
  CHECK(t.view("0") == s.view("0"));
  CHECK(s.undo());
  CHECK(s.stateHash() == h0);
  CHECK_FALSE(s.undo());
  // a snapshot of another game, or garbage, is refused
  CHECK_FALSE(t.restore(def.dump(), "{}").empty());
  json other = def;
  other["name"] = "Other";
  CHECK_FALSE(t.restore(other.dump(), snap).empty());
  json bad = json::parse(snap);
  bad["zones"][0].push_back(99999);
  CHECK_FALSE(t.restore(def.dump(), bad.dump()).empty());
  // views: Hand is the owner's, Deck nobody's
  json v0 = json::parse(s.view("0")), v1 = json::parse(s.view("1")), vs = json::parse(s.view(""));
  CHECK(v0["zones"]["Hand:0"]["entities"].size() == 2);
  CHECK_FALSE(v0["zones"]["Hand:1"].contains("entities"));
  CHECK(v0["zones"]["Hand:1"]["count"] == 2);
  CHECK_FALSE(v1["zones"]["Hand:0"].contains("entities"));
  CHECK_FALSE(vs["zones"]["Hand:0"].contains("entities"));
  CHECK_FALSE(v0["zones"]["Deck:0"].contains("entities"));
  CHECK(v0["zones"]["Deck:0"]["count"] == 1);
  CHECK(json::parse(s.view("nobody")).contains("error"));
  CHECK(json::parse(s.legalMoves("nobody")).empty());
  CHECK(json::parse(s.apply("nobody", R"J({"action":"pass"})J"))["reason"] == "unknown_player");
  CHECK(json::parse(s.apply("0", "not json"))["reason"] == "malformed_move");
}
