// End conditions are re-checked only after a change of what they read (a property, the turn,
// or anything else for the rest): a change they do not read leaves them unchecked, and each
// still ends the game at the first moment it holds.
#include "test_util.h"

using rt::json;

namespace {

// Score and Other add 1 to the player's score / other; the game ends when someone reaches
// a score of 2, or in a draw once turn 4 starts, or when anyone has 3 cards in play.
const char* kDef = R"J({
  "name": "Ends", "players": { "count": 2, "properties": { "score": 0, "other": 0 } },
  "zones": [ { "name": "Play", "per_player": true } ],
  "entities": [ { "id": "Token", "type": "token" } ],
  "actions": [
    { "name": "Score", "queue": false,
      "mutations": [ { "target": "$player.current", "property": "score", "operation": "+", "value": 1 } ] },
    { "name": "Other", "queue": false,
      "mutations": [ { "target": "$player.current", "property": "other", "operation": "+", "value": 1 } ] },
    { "name": "Make", "queue": false,
      "mutations": [ { "operation": "Create", "template": "Token", "destination": "$zone.@Play" } ] } ],
  "flow": { "phases": [ { "name": "Main", "valid_actions": ["Score", "Other", "Make"] } ] },
  "end_conditions": [
    { "when": "$player.current.score >= 2", "winner": "$player.current" },
    { "when": "$turn > 3", "draw": true },
    { "when": "$zone.@Play.size >= 3", "winner": "$player.current" } ] })J";

struct Play {
  std::unique_ptr<rulestack::Game> g;
  explicit Play(const char* text = kDef) {
    std::vector<rulestack::DefError> errs;
    auto def = rulestack::compileDefinition(text, errs);
    REQUIRE(def);
    g = std::make_unique<rulestack::Game>(def, 1);
  }
  // the active player's move: an action by name, or "pass"
  void move(const std::string& name) {
    int who = g->nextToAct();
    REQUIRE(who >= 0);
    std::vector<rulestack::Move> moves;
    g->legalMoves(who, moves);
    for (const auto& m : moves)
      if (name == "pass" ? m.kind == rulestack::Move::Pass
                         : m.kind == rulestack::Move::Take && g->def().actions[m.action].name == name) {
        REQUIRE(g->apply(who, m, nullptr) == "");
        return;
      }
    FAIL("no move " << name);
  }
  int32_t result() const { return g->state().result; }  // -2 playing, -1 draw, else the winner
};

// The same actions; each condition begins with a conjunct that reads one thing and goes on with
// one that reads another (the first is tested apart: EndCondition::guard).
const char* kGuarded = R"J({
  "name": "Guarded", "players": { "count": 2, "properties": { "score": 0, "other": 0 } },
  "actions": [
    { "name": "Score", "queue": false,
      "mutations": [ { "target": "$player.current", "property": "score", "operation": "+", "value": 1 } ] },
    { "name": "Other", "queue": false,
      "mutations": [ { "target": "$player.current", "property": "other", "operation": "+", "value": 1 } ] } ],
  "flow": { "phases": [ { "name": "Main", "valid_actions": ["Score", "Other"] } ] },
  "end_conditions": [
    { "when": "$turn > 2 and $player.current.score >= 2", "winner": "$player.current" },
    { "when": "$player.current.other >= 1 and $player.current.score >= 1", "winner": "$player.current" },
    { "when": "$player.current.other >= 2 and $turn > 3", "draw": true } ] })J";

void passUntilTurn(Play& p, int turn) {
  for (int i = 0; i < 20 && p.g->state().turn < turn && p.result() == -2; i++) p.move("pass");
}

}  // namespace

TEST_CASE("an end condition whose first conjunct is false is re-tested when that conjunct's reads change", "[end]") {
  SECTION("the first conjunct turns true later (the turn), the rest held already") {
    Play p(kGuarded);
    p.move("Score");
    p.move("Score");  // score 2 at turn 1: the first condition's $turn > 2 is false
    CHECK(p.result() == -2);
    passUntilTurn(p, 3);
    CHECK(p.result() == 0);
    CHECK(p.g->state().turn == 3);
  }
  SECTION("the first conjunct turns true (other) after the rest held") {
    Play p(kGuarded);
    p.move("Score");  // score 1; other 0: the second condition's first conjunct is false
    CHECK(p.result() == -2);
    p.move("Other");  // other 1: now both hold
    CHECK(p.result() == 0);
  }
  SECTION("the first conjunct holds; the rest (the turn) turns true later") {
    Play p(kGuarded);
    p.move("Other");
    p.move("Other");  // other 2, score 0: the third condition waits for turn 4
    CHECK(p.result() == -2);
    passUntilTurn(p, 4);
    CHECK(p.result() == -1);
    CHECK(p.g->state().turn == 4);
  }
}

// A guard `$turn > k` or `$turn >= k` (a game's length) is read as the turn it holds from
// (EndCondition::guardTurn), not tested once per player at every turn's start.
TEST_CASE("a guard on the turn holds from the first turn past its bound", "[end]") {
  for (const char* form : {"$turn > 2", "$turn >= 3"}) {
    INFO(form);
    std::string text = kGuarded;
    text.replace(text.find("$turn > 2"), 9, form);
    Play p(text.c_str());
    REQUIRE(p.g->def().ends[0].guardIsTurn);
    CHECK(p.g->def().ends[0].guardTurn == 3);
    CHECK(p.g->def().ends[2].guardIsTurn == false);  // (its guard reads `other`)
    p.move("Score");
    p.move("Score");
    passUntilTurn(p, 2);
    CHECK(p.result() == -2);
    CHECK(p.g->state().turn == 2);
    passUntilTurn(p, 3);
    CHECK(p.result() == 0);
    CHECK(p.g->state().turn == 3);
  }
  // a state from outside whose turn is past the bound (and then before it)
  Play later(kGuarded), earlier(kGuarded);
  for (Play* p : {&later, &earlier}) {
    p->move("Score");
    p->move("Score");
  }
  rulestack::State st = later.g->state();
  st.turn = 7;
  later.g->mutableState() = st;
  later.move("pass");
  CHECK(later.result() == 0);
  st.turn = 1;
  earlier.g->mutableState() = st;
  earlier.move("pass");
  CHECK(earlier.result() == -2);
}

TEST_CASE("an end condition ends the game at the first change of what it reads", "[end]") {
  SECTION("a property it reads") {
    Play p;
    p.move("Other");
    p.move("Other");  // other: 2, not read by any condition
    CHECK(p.result() == -2);
    p.move("Score");
    CHECK(p.result() == -2);
    p.move("Score");  // score 2
    CHECK(p.result() == 0);
    CHECK(p.g->state().turn == 1);
  }
  SECTION("the turn") {
    Play p;
    for (int i = 0; i < 5; i++) p.move("pass");  // two passes in a row end a turn
    CHECK(p.result() == -2);
    CHECK(p.g->state().turn == 3);
    p.move("pass");
    CHECK(p.result() == -1);
    CHECK(p.g->state().turn == 4);
  }
  SECTION("anything else (a zone)") {
    Play p;
    p.move("Score");  // score 1: re-checked, not yet
    p.move("Make");
    p.move("Make");
    CHECK(p.result() == -2);
    p.move("Make");  // 3 tokens in player 0's Play
    CHECK(p.result() == 0);
  }
}

namespace {
// Relics count for their owner, tokens against: 2 more relics than tokens wins. What the
// condition reads changes only when an entity is made, destroyed or promoted (not by a move).
const char* kRelics = R"J({
  "name": "Relics", "players": { "count": 2 },
  "zones": [ { "name": "Play", "per_player": true }, { "name": "Box" } ],
  "entities": [ { "id": "Token", "type": "token" }, { "id": "Relic", "type": "relic" } ],
  "actions": [
    { "name": "Relic", "queue": false,
      "mutations": [ { "operation": "Create", "template": "Relic", "destination": "$zone.@Play" } ] },
    { "name": "Token", "queue": false,
      "mutations": [ { "operation": "Create", "template": "Token", "destination": "$zone.@Play" } ] },
    { "name": "Promote", "queue": false,
      "mutations": [ { "operation": "Promote", "template": "Relic", "target": "$entity.token.where($candidate.owner == $player.current)[0]" } ] },
    { "name": "Break", "queue": false,
      "mutations": [ { "operation": "Destroy", "target": "$entity.token.where($candidate.owner == $player.current)[0]" } ] },
    { "name": "Box", "queue": false,
      "mutations": [ { "operation": "MoveZone", "target": "$entity.relic.where($candidate.owner == $player.current)[0]", "destination": "$zone.@Box" } ] } ],
  "flow": { "phases": [ { "name": "Main", "valid_actions": ["Relic", "Token", "Promote", "Break", "Box"] } ] },
  "end_conditions": [
    { "when": "$entity.relic.where($candidate.owner == $player.current).size - $entity.token.where($candidate.owner == $player.current).size >= 2",
      "winner": "$player.current" } ] })J";
}  // namespace

TEST_CASE("an end condition over which entities there are ends the game at the Create, Destroy or Promote that makes it true", "[end]") {
  SECTION("a Create") {
    Play p(kRelics);
    p.move("Relic");
    p.move("Box");  // (a move: still one relic)
    CHECK(p.result() == -2);
    p.move("Relic");
    CHECK(p.result() == 0);
  }
  SECTION("a Promote") {
    Play p(kRelics);
    p.move("Relic");
    p.move("Token");
    p.move("Token");
    CHECK(p.result() == -2);
    p.move("Promote");  // 2 relics, 1 token
    CHECK(p.result() == -2);
    p.move("Promote");  // 3 relics, no token
    CHECK(p.result() == 0);
  }
  SECTION("a Destroy") {
    Play p(kRelics);
    p.move("Relic");
    p.move("Token");
    p.move("Relic");  // 2 relics, 1 token
    CHECK(p.result() == -2);
    p.move("Break");
    CHECK(p.result() == 0);
  }
  SECTION("a state from outside") {
    Play p(kRelics);
    p.move("Relic");
    p.move("Token");
    p.move("Relic");
    // the token made a relic by hand: the next check (after any move) finds the condition true
    rulestack::State& s = p.g->mutableState();
    for (auto& e : s.ents)
      if (e.tmpl == 0) e.tmpl = 1;
    p.move("Box");
    CHECK(p.result() == 0);
  }
}

namespace {
// A hero's power is derived: the Banner adds 5 while it is on the Board. Raising the Banner is
// a move, not a change of any property, and still ends the game (6 power).
const char* kBanner = R"J({
  "name": "Banner", "players": { "count": 2, "properties": { "score": 0 } },
  "zones": [ { "name": "Hand", "per_player": true }, { "name": "Board" } ],
  "entities": [
    { "id": "Hero", "type": "hero", "properties": { "power": 1 } },
    { "id": "Banner", "type": "banner", "effects": [
      { "applies_to": "$entity.hero", "property": "power", "add": 5, "while": "$entity.self.zone == $zone.@Board" } ] } ],
  "setup": [
    { "operation": "Create", "template": "Hero", "destination": "$zone.@Board", "owner": "$players[0]" },
    { "operation": "Create", "template": "Banner", "destination": "$players[0].zone.@Hand", "owner": "$players[0]" } ],
  "actions": [
    { "name": "Raise", "queue": false,
      "mutations": [ { "operation": "MoveZone", "target": "$entity.banner", "destination": "$zone.@Board" } ] },
    { "name": "Score", "queue": false,
      "mutations": [ { "target": "$player.current", "property": "score", "operation": "+", "value": 1 } ] } ],
  "flow": { "phases": [ { "name": "Main", "valid_actions": ["Raise", "Score"] } ] },
  "end_conditions": [
    { "when": "$entity.hero.where($candidate.power >= 6).size >= 1", "winner": "$players[0]" },
    { "when": "$player.current.score >= 3", "winner": "$player.current" } ] })J";
}  // namespace

TEST_CASE("an end condition reading a property an effect changes ends the game when the effect starts", "[end]") {
  Play p(kBanner);
  p.move("Score");
  CHECK(p.result() == -2);
  p.move("Raise");  // the hero's power: 6, from the banner now on the board
  CHECK(p.result() == 0);
}

// An end condition that is one comparison of a player's property with a number is tested in a
// fused form (Def::playerCmp, Game::holds): it must end the game exactly when the comparison
// holds, for every operator, every way of naming the player, alone or as a guard and its rest.
TEST_CASE("an end condition comparing a player's property with a number ends the game exactly when it holds", "[end]") {
  auto cmp = [](const std::string& op, int v, int k) {
    return op == "<" ? v < k : op == "<=" ? v <= k : op == ">" ? v > k : v >= k;
  };
  // player 0 moves its own `a` up and down; player 1's stays 0
  const std::vector<std::string> moves = {"Up", "Up", "Up", "Down", "Down", "Down", "Down", "Down", "Down"};
  for (const std::string op : {"<", "<=", ">", ">="})
    for (int k : {-2, 0, 2})
      for (const std::string who : {"$players[0]", "$players[1]", "$player.current", "$player.opponent", "$player.active"})
        for (const std::string guard : {"", "$players[1].b == 0 and ", "$players[1].b >= 0 and "}) {
          // the truth, for player 0's a: a fixed player reads its own, the active one is player 0
          // throughout; current and opponent (each player in turn) hold when either player's does
          auto truth = [&](int a0) {
            bool p0 = cmp(op, a0, k), p1 = cmp(op, 0, k);
            return who == "$players[0]" || who == "$player.active" ? p0 : who == "$players[1]" ? p1 : (p0 || p1);
          };
          const std::string cond = who + ".a " + op + " " + std::to_string(k);
          // alone, or the rest after a guard (one tested by the tree walk, one fused itself)
          const std::string when = guard + cond;
          const std::string text = R"J({ "name": "Cmp", "players": { "count": 2, "properties": { "a": 0, "b": 0 } },
            "actions": [
              { "name": "Up", "queue": false, "condition": "$player.current == $player.active",
                "mutations": [ { "target": "$player.current", "property": "a", "operation": "+", "value": 1 } ] },
              { "name": "Down", "queue": false, "condition": "$player.current == $player.active",
                "mutations": [ { "target": "$player.current", "property": "a", "operation": "-", "value": 1 } ] } ],
            "flow": { "phases": [ { "name": "Main", "valid_actions": ["Up", "Down"] } ] },
            "end_conditions": [ { "when": ")J" + when + R"J(", "winner": "$players[0]" } ] })J";
          INFO(when);
          Play p(text.c_str());
          int a0 = 0;
          CHECK((p.result() == 0) == truth(a0));  // (checked as the game starts)
          for (const std::string& m : moves) {
            if (p.result() != -2) break;
            p.move(m);
            a0 += m == "Up" ? 1 : -1;
            CHECK((p.result() == 0) == truth(a0));
          }
        }
}
