// Action::perAction/perSource (loader_analysis.cpp, splitCondition): testing a condition's leading
// move-free conjuncts once per enumeration must list exactly the moves that testing the whole
// condition on every card lists. Every example is played with random moves twice, with its
// definition as compiled and with the split undone, comparing the legal moves at each step.
// The same for the other shortcuts Def::prepare gives the enumeration, and for the
// conditions' invariant parts evaluated once per enumeration (Def::hoistInvariants).
#include <set>

#include "bot.h"
#include "test_util.h"

namespace {

// A card whose condition reads the card after the zone test, and cards that differ.
const char* kSplitGame = R"J({
  "name": "Split",
  "players": { "count": 2, "properties": { "energy": 3 } },
  "zones": [{ "name": "Hand", "per_player": true }],
  "entities": [{
    "id": "Card", "type": "card", "properties": { "power": 1 },
    "actions": [{
      "name": "Play",
      "condition": "$queue.size == 0 and $entity.self.zone == $zone.@Hand and $entity.self.power <= $player.current.energy",
      "mutations": [{ "target": "$entity.self", "property": "power", "operation": "+", "value": 2 }]
    }]
  }],
  "setup": [
    { "operation": "Create", "template": "Card", "count": 3, "destination": "$item.zone.@Hand", "for_each": "$player.all" },
    { "operation": "=", "target": "$players[0].zone.@Hand.entities[0]", "property": "power", "value": 5 }
  ],
  "flow": { "turn_order": ["0", "1"], "first_player": "0", "phases": [{ "name": "Main", "valid_actions": ["Play"] }] },
  "end_conditions": [{ "when": "$turn > 8", "draw": true }]
})J";

// Cards playable while their colour is the marker's (an entity found by its type, after every
// card: a scan of all of them), each play turning the marker to the other colour.
const char* kMatchGame = R"J({
  "name": "Match",
  "players": { "count": 2 },
  "zones": [{ "name": "Hand", "per_player": true }, { "name": "Table" }, { "name": "Pile" }],
  "entities": [
    { "id": "Red", "type": "card", "properties": { "color": 0 } },
    { "id": "Blue", "type": "card", "properties": { "color": 1 } },
    { "id": "Marker", "type": "marker", "properties": { "color": 0 } }
  ],
  "actions": [{
    "name": "Play", "queue": false, "source": "$zone.@Hand",
    "condition": "$player.current == $player.active and $entity.selected.color == $entity.marker[0].color and $entity.card.where($candidate.zone == $zone.@Pile).size < 5",
    "mutations": [
      { "target": "$entity.selected", "destination": "$zone.@Pile", "operation": "MoveZone" },
      { "target": "$entity.marker[0]", "property": "color", "operation": "=", "value": "$entity.selected.color * -1 + 1" },
      { "operation": "EndTurn" }
    ]
  }],
  "setup": [
    { "operation": "Create", "template": "Red", "count": 2, "destination": "$item.zone.@Hand", "for_each": "$player.all" },
    { "operation": "Create", "template": "Blue", "count": 2, "destination": "$item.zone.@Hand", "for_each": "$player.all" },
    { "operation": "Create", "template": "Marker", "destination": "$zone.@Table" }
  ],
  "flow": { "turn_order": ["0", "1"], "first_player": "0", "phases": [{ "name": "Main", "valid_actions": ["Play"] }] },
  "end_conditions": [{ "when": "$turn > 12", "draw": true }]
})J";

// Cards paid for from their own cost (Free declares none, Dear 4), in hands only their owner
// sees; a Dear card can be demoted to a Free one (it keeps its cost).
const char* kOwnGame = R"J({
  "name": "Own",
  "players": { "count": 2, "properties": { "energy": 3 } },
  "zones": [{ "name": "Hand", "per_player": true, "visibility": "owner" }, { "name": "Pile" }],
  "entities": [
    { "id": "Free", "type": "card",
      "actions": [{ "name": "Play", "queue": false, "condition": "$entity.self.zone == $zone.@Hand",
        "cost": [{ "target": "$player.current", "property": "energy", "operation": "-", "value": "$entity.self.cost" }],
        "mutations": [{ "operation": "MoveZone", "target": "$entity.self", "destination": "$zone.@Pile" }] }] },
    { "id": "Dear", "type": "card", "properties": { "cost": 4 },
      "actions": [
        { "name": "Buy", "queue": false, "condition": "$entity.self.zone == $zone.@Hand",
          "cost": [{ "target": "$player.current", "property": "energy", "operation": "-", "value": "$entity.self.cost" }] },
        { "name": "Demote", "queue": false, "condition": "$entity.self.zone == $zone.@Hand",
          "mutations": [{ "operation": "Promote", "target": "$entity.self", "template": "Free" }] }] }
  ],
  "setup": [
    { "operation": "Create", "template": "Free", "count": 2, "destination": "$item.zone.@Hand", "for_each": "$player.all" },
    { "operation": "Create", "template": "Dear", "count": 2, "destination": "$item.zone.@Hand", "for_each": "$player.all" }
  ],
  "flow": { "turn_order": ["0", "1"], "first_player": "0", "phases": [{ "name": "Main", "valid_actions": ["Play", "Buy", "Demote"] }] },
  "end_conditions": [{ "when": "$turn > 8", "draw": true }]
})J";

// A zone phase (Def::zonePhase): two actions from one hand paid from the player's energy,
// with perActions of the flow alone, a hand of 70 cards at first (more than 64: the loop
// lists it) and a queue that can grow past the table's 8 items.
const char* kZoneGame = R"J({
  "name": "Zone phase",
  "players": { "count": 2, "properties": { "energy": 0, "life": 40 } },
  "settings": { "discard_zone": "Discard", "cancel_zone": "Discard" },
  "zones": [{ "name": "Hand", "per_player": true }, { "name": "Discard", "per_player": true }],
  "entities": [
    { "id": "Spark", "type": "card", "properties": { "cost": 1 },
      "actions": [{ "name": "Spark", "play": true,
        "condition": "$entity.self.zone == $zone.@Hand and ($queue.size > 0 or $player.current == $player.active)",
        "cost": [{ "target": "$player.current", "property": "energy", "operation": "-", "value": "$entity.self.cost" }],
        "mutations": [{ "target": "$player.opponent", "property": "life", "operation": "-", "value": 1 }] }] },
    { "id": "Blaze", "type": "card", "properties": { "cost": 2 },
      "actions": [{ "name": "Blaze", "play": true,
        "condition": "$entity.self.zone == $zone.@Hand and $queue.size < 11",
        "cost": [{ "target": "$player.current", "property": "energy", "operation": "-", "value": "$entity.self.cost" }],
        "mutations": [{ "target": "$player.opponent", "property": "life", "operation": "-", "value": 2 }] }] },
    { "id": "Dud", "type": "card" }
  ],
  "setup": [
    { "operation": "Create", "template": "Spark", "count": 40, "destination": "$item.zone.@Hand", "for_each": "$player.all" },
    { "operation": "Create", "template": "Dud", "count": 5, "destination": "$item.zone.@Hand", "for_each": "$player.all" },
    { "operation": "Create", "template": "Blaze", "count": 25, "destination": "$item.zone.@Hand", "for_each": "$player.all" },
    { "operation": "Shuffle", "target": "$item.zone.@Hand", "for_each": "$player.all" }
  ],
  "flow": { "turn_order": ["0", "1"], "first_player": "0", "phases": [
    { "name": "Start", "on_enter": [{ "target": "$player.all", "property": "energy", "operation": "=", "value": 14 }] },
    { "name": "Main", "valid_actions": ["Spark", "Blaze"] }] },
  "end_conditions": [{ "when": "$player.current.life <= 0", "winner": "$player.opponent" }, { "when": "$turn > 12", "draw": true }]
})J";

// The enumeration's loop, action by action, for every phase (Def::zonePhase undone): what a
// comparison of one of the loop's shortcuts with its general form must also undo, else both
// sides take the zone phase. Returns how many phases were zone phases.
int noZonePhases(rulestack::Def& d) {
  int n = 0;
  for (rulestack::Phase& ph : d.phases)
    if (ph.zoneMasks >= 0) n++, ph.zoneMasks = -1;
  return n;
}

// kOwnGame's first move for player 0: Dear#1 demoted to a Free card (it keeps its cost 4).
void demoteDear1(rulestack::Game& g) {
  std::vector<rulestack::Move> moves;
  g.legalMoves(0, moves);
  const rulestack::Move* demote = nullptr;
  for (const auto& m : moves)
    if (m.kind == rulestack::Move::Take && m.action == 2 && g.entityId(m.source) == "Dear#1") demote = &m;
  REQUIRE(demote);
  g.applyUnchecked(0, *demote);
}

std::vector<std::pair<std::string, std::string>> definitions() {
  std::vector<std::pair<std::string, std::string>> out{{"split game", kSplitGame}, {"match game", kMatchGame}, {"zone game", kZoneGame}};
  for (const std::string& file : rt::jsonFiles(RULESTACK_EXAMPLES_JSON, false))
    out.push_back({file, rt::readFile(std::string(RULESTACK_EXAMPLES_JSON) + "/" + file)});
  return out;
}

}  // namespace

TEST_CASE("a split condition tests the card after the zone test on every card", "[legal]") {
  std::vector<rulestack::DefError> errs;
  auto def = rulestack::compileDefinition(kSplitGame, errs);
  REQUIRE(def);
  REQUIRE(def->actions.size() == 1);
  CHECK(def->actions[0].perAction.present());  // $queue.size == 0
  CHECK(def->actions[0].perSource.present());  // $entity.self.power <= $player.current.energy
  rulestack::Game g(def, 1, false);
  std::vector<rulestack::Move> moves;
  g.legalMoves(0, moves);
  // player 0's first card has power 5 > 3 energy: only the other two, and the pass
  int power = def->prop(def->syms.find("power"));
  std::vector<int32_t> powers;
  for (const rulestack::Move& m : moves)
    if (m.kind == rulestack::Move::Take) powers.push_back(g.state().props[(size_t)m.source * def->propNames.size() + power].v);
  CHECK(powers == std::vector<int32_t>{1, 1});
  REQUIRE(moves.size() == 3);
  g.applyUnchecked(0, moves[0]);  // a queue item: while it waits, $queue.size == 0 is false for every card
  if (g.nextToAct() == 1) {
    g.legalMoves(1, moves);
    for (const rulestack::Move& m : moves) CHECK(m.kind == rulestack::Move::Pass);
  }
}

// Plays one game twice, with def and with plain, up to `moves` moves, comparing every
// player's legal moves and the state at each step. The move made is choose(game, moves, i)
// for a random index i (choose may pick another).
template <class Choose>
void sideBySide(const std::shared_ptr<const rulestack::Def>& def, const std::shared_ptr<const rulestack::Def>& plain, uint64_t seed,
                int moves, Choose choose) {
  rulestack::Game a(def, seed, false), b(plain, seed, false);
  rt::Lcg pick(seed);
  std::vector<rulestack::Move> ma, mb;
  for (int n = 0; n < moves && !a.state().over(); n++) {
    int who = a.nextToAct();
    REQUIRE(who == b.nextToAct());
    if (who < 0) break;
    for (int p = 0; p < (int)def->numPlayers(); p++) {  // the player to act and the others
      a.legalMoves(p, ma);
      b.legalMoves(p, mb);
      REQUIRE(ma == mb);
    }
    a.legalMoves(who, ma);
    if (ma.empty()) break;
    const rulestack::Move& m = ma[choose(a, ma, pick.below((uint32_t)ma.size()))];
    a.applyUnchecked(who, m);
    b.applyUnchecked(who, m);
    REQUIRE(a.hash() == b.hash());
  }
}

// Plays every definition with random moves twice, as compiled and as `undo` leaves it,
// comparing every player's legal moves and the state at each step; returns how many
// actions `undo` changed in all.
template <class Undo>
int sameMovesWithout(Undo undo) {
  int changedInAll = 0;
  for (const auto& [file, text] : definitions()) {
    std::vector<rulestack::DefError> errs;
    auto def = rulestack::compileDefinition(text, errs);
    REQUIRE(def);
    auto plain = std::make_shared<rulestack::Def>(*def);
    int changed = undo(*plain);
    changedInAll += changed;
    for (uint64_t seed = 1; seed <= 12; seed++) {
      INFO(file << ", seed " << seed);
      sideBySide(def, plain, seed, 300, [](const rulestack::Game&, const std::vector<rulestack::Move>&, size_t i) { return i; });
    }
  }
  return changedInAll;
}

TEST_CASE("a split condition lists the moves the whole condition lists", "[legal]") {
  int split = sameMovesWithout([](rulestack::Def& d) {
    int n = 0;
    for (rulestack::Action& a : d.actions) {
      if (a.perAction.present()) n++;
      a.perAction = a.perSource = rulestack::Expr{};
    }
    d.prepare();  // (what the enumeration knows of each action follows)
    return n;
  });
  CHECK(split >= 3);  // the Duel's three cards at least: the test compares something
}

// Def::prepare: an action whose perAction is the same as an earlier one's takes that one's
// result (Action::perActionKey); a cost paid by the player from a constant or a property of
// the card is read in place (CostShape::Own). Undone, the moves are the same.
TEST_CASE("a shared perAction test and an own cost list the moves the general ones list", "[legal]") {
  int shared = 0;
  int own = sameMovesWithout([&](rulestack::Def& d) {
    int n = 0;
    for (size_t i = 0; i < d.actions.size(); i++) {
      rulestack::Action& a = d.actions[i];
      if (a.perActionKey >= 0 && a.perActionKey != (int)i) shared++, a.perActionKey = (int)i;
      if (a.costShape == rulestack::CostShape::Own) n++, a.costShape = rulestack::CostShape::One;
    }
    noZonePhases(d);
    return n;
  });
  CHECK(own >= 3);     // the Duel's cards pay their cost from the player's energy
  CHECK(shared >= 1);  // the Duel's Heal tests what its Bolt tests
}

// Def::zonePhase: a phase whose actions are all direct template actions from one zone, paid
// from the player's own property, knows which actions can be taken from one entry of the flow's
// table and the player's means before it looks at the zone (Game::collectZonePhase). Undone
// (the loop, action by action), the moves are the same: over every example, and over the zone
// game played with cards preferred to passes, which reaches a hand of more than 64 cards and
// one of fewer, and a queue past the table's 8 items and past Blaze's 11.
TEST_CASE("a zone phase lists the moves the loop lists", "[legal]") {
  CHECK(sameMovesWithout(noZonePhases) >= 2);  // the Duel's Main phase and the zone game's at least
  std::vector<rulestack::DefError> errs;
  auto def = rulestack::compileDefinition(kZoneGame, errs);
  REQUIRE(def);
  REQUIRE(def->phases[1].zoneMasks >= 0);
  auto plain = std::make_shared<rulestack::Def>(*def);
  REQUIRE(noZonePhases(*plain) == 1);
  for (uint64_t seed = 1; seed <= 4; seed++) {
    INFO("seed " << seed);
    bool big = false, small = false;
    size_t longest = 0;
    sideBySide(def, plain, seed, 400, [&](const rulestack::Game& g, const std::vector<rulestack::Move>& ms, size_t i) {
      const int who = g.nextToAct();
      (g.state().zones[def->zoneInstance(0, who)].size() > 64 ? big : small) = true;
      longest = std::max(longest, g.state().queue.size());
      // a random move, but a card over a pass while the queue is short of 13 items
      return g.state().queue.size() < 13 && ms.size() > 1 && ms[i].kind == rulestack::Move::Pass ? 0 : i;
    });
    CHECK(big);
    CHECK(small);
    CHECK(longest >= 12);
  }
}

TEST_CASE("the Duel's card conditions are split at load", "[legal]") {
  std::vector<rulestack::DefError> errs;
  auto def = rulestack::compileDefinition(rt::readFile(std::string(RULESTACK_EXAMPLES_JSON) + "/duel.json"), errs);
  REQUIRE(def);
  for (const rulestack::Action& a : def->actions) {
    INFO(a.name);
    // `$entity.self.zone == $zone.@Hand and (...)`: the zone test is implied by the
    // enumeration, the rest reads only the queue and the players
    CHECK(a.fromZone >= 0);
    CHECK(a.perAction.present());
    CHECK_FALSE(a.perSource.present());
  }
}

// collectMoves finds a zone's cards of an action 64 at a time (a bit per card): a hand of 75
// cards, two actions' cards and cards without an action shuffled together, lists each action's
// cards in zone order, the cards past the first 64 too.
TEST_CASE("a zone of more than 64 cards lists every card's move, action by action in zone order", "[legal]") {
  const char* game = R"J({
    "name": "Big hand",
    "players": { "count": 2 },
    "zones": [{ "name": "Hand", "per_player": true }],
    "entities": [
      { "id": "A", "type": "card", "actions": [{ "name": "PlayA", "condition": "$entity.self.zone == $zone.@Hand" }] },
      { "id": "B", "type": "card", "actions": [{ "name": "PlayB", "condition": "$entity.self.zone == $zone.@Hand" }] },
      { "id": "C", "type": "card" }
    ],
    "setup": [
      { "operation": "Create", "template": "A", "count": 40, "destination": "$item.zone.@Hand", "for_each": "$player.all" },
      { "operation": "Create", "template": "C", "count": 5, "destination": "$item.zone.@Hand", "for_each": "$player.all" },
      { "operation": "Create", "template": "B", "count": 30, "destination": "$item.zone.@Hand", "for_each": "$player.all" },
      { "operation": "Shuffle", "target": "$item.zone.@Hand", "for_each": "$player.all" }
    ],
    "flow": { "turn_order": ["0", "1"], "first_player": "0", "phases": [{ "name": "Main", "valid_actions": ["PlayA", "PlayB"] }] }
  })J";
  std::vector<rulestack::DefError> errs;
  auto def = rulestack::compileDefinition(game, errs);
  REQUIRE(def);
  rulestack::Game g(def, 3, false);
  const rulestack::Zone& hand = g.state().zones[def->zoneInstance(0, 0)];
  REQUIRE(hand.size() == 75);
  auto tmplOf = [&](int32_t e) { return def->templates[g.state().ents[e].tmpl].id; };
  std::vector<std::pair<std::string, int32_t>> expected;  // (action, source)
  for (const char* t : {"A", "B"})
    for (int32_t e : hand)
      if (tmplOf(e) == t) expected.push_back({std::string("Play") + t, e});
  std::set<std::string> past64;  // (seed 3: both actions' cards lie past the first 64)
  for (size_t k = 64; k < hand.size(); k++) past64.insert(tmplOf(hand[k]));
  CHECK(past64.count("A"));
  CHECK(past64.count("B"));
  std::vector<rulestack::Move> moves;
  g.legalMoves(0, moves);
  std::vector<std::pair<std::string, int32_t>> listed;
  for (const rulestack::Move& m : moves)
    if (m.kind == rulestack::Move::Take) listed.push_back({def->actions[m.action].name, m.source});
  CHECK(listed == expected);
  CHECK(listed.size() == 70);
}

// Def::prepare gives a fromZone action its zone's first instance, whether the zone is one per
// player, and whether it allows actions (Action::fromBase, fromPerPlayer, fromActs): from a
// shared zone only the player's own cards are listed, in zone order, and a zone without
// actions lists none, though the condition would hold there.
TEST_CASE("a shared zone lists the player's own cards, and a zone without actions none", "[legal]") {
  const char* game = R"J({
    "name": "Shared board",
    "players": { "count": 2 },
    "zones": [
      { "name": "Hand", "per_player": true },
      { "name": "Board" },
      { "name": "Pile", "actions": false }
    ],
    "entities": [
      { "id": "Unit", "type": "card", "actions": [{ "name": "Use", "condition": "$entity.self.zone == $zone.@Board" }] },
      { "id": "Bone", "type": "card", "actions": [{ "name": "Dig", "condition": "$entity.self.zone == $zone.@Pile" }] }
    ],
    "setup": [
      { "operation": "Create", "template": "Unit", "count": 2, "destination": "$zone.@Board", "owner": "$players[0]" },
      { "operation": "Create", "template": "Unit", "count": 2, "destination": "$zone.@Board", "owner": "$players[1]" },
      { "operation": "Create", "template": "Unit", "count": 1, "destination": "$zone.@Board", "owner": "$players[0]" },
      { "operation": "Create", "template": "Bone", "count": 2, "destination": "$zone.@Pile", "owner": "$players[0]" }
    ],
    "flow": { "turn_order": ["0", "1"], "first_player": "0", "phases": [{ "name": "Main", "valid_actions": ["Use", "Dig"] }] }
  })J";
  std::vector<rulestack::DefError> errs;
  auto def = rulestack::compileDefinition(game, errs);
  INFO((errs.empty() ? std::string() : errs[0].message));
  REQUIRE(def);
  REQUIRE(def->actions.size() == 2);
  for (const rulestack::Action& a : def->actions) {
    INFO(a.name);
    REQUIRE(a.fromZone >= 0);  // both enumerate their zone only
    CHECK_FALSE(a.fromPerPlayer);
    CHECK(a.fromBase == def->zoneInstance(a.fromZone, 0));
  }
  CHECK(def->actions[0].fromActs);        // Board
  CHECK_FALSE(def->actions[1].fromActs);  // Pile: actions false
  rulestack::Game g(def, 1, false);
  const rulestack::Zone& board = g.state().zones[def->zoneInstance(def->actions[0].fromZone, 0)];
  REQUIRE(board.size() == 5);
  std::vector<int32_t> mine;  // player 0's units, in board order (top first)
  for (int32_t e : board)
    if (g.state().ents[e].controller == 0) mine.push_back(e);
  REQUIRE(mine.size() == 3);
  std::vector<rulestack::Move> moves;
  g.legalMoves(0, moves);
  std::vector<int32_t> used;
  for (const rulestack::Move& m : moves) {
    if (m.kind != rulestack::Move::Take) continue;
    CHECK(def->actions[m.action].name == "Use");
    used.push_back(m.source);
  }
  CHECK(used == mine);
  REQUIRE(moves.size() == 4);  // and the pass
  CHECK(moves.back().kind == rulestack::Move::Pass);
  // player 1's turn: its two units, from the same (shared) zone instance
  g.applyUnchecked(0, moves.back());
  REQUIRE(g.nextToAct() == 1);
  g.legalMoves(1, moves);
  std::vector<int32_t> theirs;
  for (int32_t e : board)
    if (g.state().ents[e].controller == 1) theirs.push_back(e);
  used.clear();
  for (const rulestack::Move& m : moves)
    if (m.kind == rulestack::Move::Take) used.push_back(m.source);
  CHECK(theirs.size() == 2);
  CHECK(used == theirs);
}

// Def::hoistInvariants: the parts of a condition that read nothing of the move and loop
// (`$entity.marker[0].color`, a `where` over every card) are evaluated once per enumeration.
// The moves follow them as they change from one enumeration to the next, and a move checked
// outside an enumeration (Game::check) reads them afresh.
TEST_CASE("a condition's invariant parts are evaluated once per enumeration, and follow the state", "[legal]") {
  std::vector<rulestack::DefError> errs;
  auto def = rulestack::compileDefinition(kMatchGame, errs);
  REQUIRE(def);
  CHECK(def->numHoisted == 2);  // the marker's colour, the size of the pile's cards
  rulestack::Game g(def, 1, false);
  const int color = def->prop(def->syms.find("color"));
  auto colorOf = [&](int32_t e) { return g.state().props[(size_t)e * def->propNames.size() + color].v; };
  std::vector<rulestack::Move> moves;
  for (int turn = 0; turn < 4; turn++) {
    const int p = turn % 2;
    INFO("turn " << turn);
    REQUIRE(g.nextToAct() == p);
    const int32_t marker = turn % 2;  // red, blue, red, blue: each play turns it
    g.legalMoves(p, moves);
    std::vector<int32_t> sources, expected;
    for (const rulestack::Move& m : moves)
      if (m.kind == rulestack::Move::Take) sources.push_back(m.source);
    for (int32_t e : g.state().zones[def->zoneInstance(0, p)])
      if (colorOf(e) == marker) expected.push_back(e);
    CHECK(sources == expected);
    REQUIRE(!expected.empty());
    // a card of the other colour is refused for its condition, read outside any enumeration
    for (int32_t e : g.state().zones[def->zoneInstance(0, p)])
      if (colorOf(e) != marker) {
        rulestack::Move wrong = moves[0];
        wrong.source = e;
        std::string message;
        CHECK(g.check(p, wrong, &message) == "condition_false");
        break;
      }
    g.applyUnchecked(p, moves[0]);
  }
}

TEST_CASE("conditions with their invariant parts evaluated once list the moves that evaluating them for every source lists", "[legal]") {
  int hoisted = sameMovesWithout([](rulestack::Def& d) {
    int n = d.numHoisted;
    for (rulestack::Node& nd : d.nodes.nodes)
      if (nd.op == rulestack::N::Hoisted) nd = d.nodes.nodes[nd.a];
    d.numHoisted = 0;
    return n;
  });
  CHECK(hoisted >= 4);  // Crazy Eights' table rank and suit, the match game's two
}

// Action::conditionOnce: a condition that reads neither $mode nor $x is tested once per source,
// not once per mode and X; one that reads $mode still decides per mode. Undone, the moves are
// the same. And a global action's test of its source's zone stays in its condition (its
// sources are not listed from that zone).
TEST_CASE("a condition without $mode or $x is tested once per source, one with $mode per mode", "[legal]") {
  const char* game = R"J({
    "name": "Modes",
    "players": { "count": 2, "properties": { "level": 1 } },
    "zones": [{ "name": "Hand", "per_player": true }, { "name": "Pile" }],
    "entities": [{ "id": "Card", "type": "card", "properties": { "power": 2 } }],
    "actions": [
      { "name": "Use", "source": "$entity.card", "condition": "$player.current == $player.active and $entity.selected.zone == $zone.@Hand" },
      { "name": "Pick", "source": "$zone.@Hand", "condition": "$entity.selected.power > $player.current.level",
        "modes": [{ "name": "A", "mutations": [] }, { "name": "B", "mutations": [] }, { "name": "C", "mutations": [] }] },
      { "name": "Odd", "source": "$zone.@Hand", "condition": "$mode != 1 and $entity.selected.power > 0",
        "modes": [{ "name": "A", "mutations": [] }, { "name": "B", "mutations": [] }, { "name": "C", "mutations": [] }] }
    ],
    "setup": [
      { "operation": "Create", "template": "Card", "count": 2, "destination": "$item.zone.@Hand", "for_each": "$player.all" },
      { "operation": "Create", "template": "Card", "destination": "$zone.@Pile" }
    ],
    "flow": { "turn_order": ["0", "1"], "first_player": "0", "phases": [{ "name": "Main", "valid_actions": ["Use", "Pick", "Odd"] }] }
  })J";
  std::vector<rulestack::DefError> errs;
  auto def = rulestack::compileDefinition(game, errs);
  REQUIRE(def);
  REQUIRE(def->actions.size() == 3);
  CHECK(def->actions[0].perAction.present());  // $player.current == $player.active; the zone test stays
  CHECK(def->actions[1].conditionOnce);
  CHECK_FALSE(def->actions[2].conditionOnce);
  rulestack::Game g(def, 1, false);
  std::vector<rulestack::Move> moves;
  g.legalMoves(0, moves);
  std::vector<std::pair<int, int>> listed;  // (action, mode) of each source in turn
  for (const rulestack::Move& m : moves)
    if (m.kind == rulestack::Move::Take) listed.push_back({m.action, m.mode});
  // Use: player 0's two cards in hand (not theirs in the pile, nor player 1's); Pick: every
  // mode of each; Odd: modes 0 and 2 of each
  CHECK(listed == std::vector<std::pair<int, int>>{{0, -1}, {0, -1}, {1, 0}, {1, 1}, {1, 2}, {1, 0}, {1, 1}, {1, 2}, {2, 0}, {2, 2}, {2, 0}, {2, 2}});
  for (const rulestack::Move& m : moves)
    if (m.kind == rulestack::Move::Take && m.action == 0) CHECK(g.state().ents[m.source].zone == def->zoneInstance(0, 0));
}

TEST_CASE("conditions tested once per source list the moves that testing them per mode and X lists", "[legal]") {
  int once = sameMovesWithout([](rulestack::Def& d) {
    int n = 0;
    for (rulestack::Action& a : d.actions)
      if (a.conditionOnce && (!a.modes.empty() || a.hasX)) n++, a.conditionOnce = false;
    return n;
  });
  CHECK(once >= 1);  // Crazy Eights' PlayEight: four modes, one test
}

TEST_CASE("a source action's condition is split: what reads no source is tested once", "[legal]") {
  std::vector<rulestack::DefError> errs;
  auto def = rulestack::compileDefinition(rt::readFile(std::string(RULESTACK_EXAMPLES_JSON) + "/crazy-eights.json"), errs);
  REQUIRE(def);
  for (const rulestack::Action& a : def->actions) {
    if (!a.source.present()) continue;
    INFO(a.name);
    CHECK(a.perAction.present());  // $player.current == $player.active
    CHECK(a.perSource.present());  // the card's rank and suit
  }
}

// Def::flowIndex: a perAction that reads only the flow (whose turn it is, who has priority,
// the queue's size, the phase) keeps its value in Game's table across moves, one entry per
// combination of what it reads. Cards of three kinds, each playable in other flow states;
// the queue grows to 9, past the table's 8 sizes, and the turn (never kept) decides one.
const char* kFlowGame = R"J({
  "name": "Flow",
  "players": { "count": 3 },
  "zones": [{ "name": "Hand", "per_player": true }],
  "entities": [
    { "id": "Quick", "type": "card", "actions": [{ "name": "Quick",
      "condition": "$entity.self.zone == $zone.@Hand and ($queue.size > 0 and $queue.size != 3 or $player.current == $player.active)" }] },
    { "id": "Late", "type": "card", "actions": [{ "name": "Late",
      "condition": "$entity.self.zone == $zone.@Hand and $phase == 'Second' and $player.priority != $players[1] and $queue.size < 9" }] },
    { "id": "Turn", "type": "card", "actions": [{ "name": "Turn",
      "condition": "$entity.self.zone == $zone.@Hand and $turn % 2 == 0 and $player.opponent != $player.active" }] }
  ],
  "setup": [
    { "operation": "Create", "template": "Quick", "count": 6, "destination": "$item.zone.@Hand", "for_each": "$player.all" },
    { "operation": "Create", "template": "Late", "count": 6, "destination": "$item.zone.@Hand", "for_each": "$player.all" },
    { "operation": "Create", "template": "Turn", "count": 3, "destination": "$item.zone.@Hand", "for_each": "$player.all" }
  ],
  "flow": { "turn_order": ["0", "1", "2"], "first_player": "0",
            "phases": [{ "name": "First", "valid_actions": ["Quick", "Turn"] }, { "name": "Second", "valid_actions": ["Quick", "Late", "Turn"] }] },
  "end_conditions": [{ "when": "$turn > 9", "draw": true }]
})J";

TEST_CASE("a perAction of the flow alone is kept across moves and follows what it reads", "[legal]") {
  std::vector<rulestack::DefError> errs;
  auto def = rulestack::compileDefinition(kFlowGame, errs);
  REQUIRE(def);
  REQUIRE(def->actions.size() == 3);
  // Quick reads the player, the active player and the queue; Late the phase, priority and
  // queue; Turn reads the turn: not kept
  CHECK(def->actions[0].flow.base >= 0);
  CHECK(def->actions[0].flow.queue > 0);
  CHECK(def->actions[0].flow.phase == 0);
  CHECK(def->actions[1].flow.base >= 0);
  CHECK(def->actions[1].flow.phase > 0);
  CHECK(def->actions[1].flow.player > 0);  // (priority: the enumerating player's)
  CHECK(def->actions[2].flow.base < 0);
  auto plain = std::make_shared<rulestack::Def>(*def);
  for (rulestack::Action& a : plain->actions) a.flow = rulestack::Action::FlowIndex{};
  noZonePhases(*plain);
  int deepest = 0, lateMoves = 0;
  for (uint64_t seed = 1; seed <= 20; seed++) {
    INFO("seed " << seed);
    rulestack::Game a(def, seed, false), b(plain, seed, false);
    rt::Lcg pick(seed);
    std::vector<rulestack::Move> ma, mb;
    for (int n = 0; n < 200 && !a.state().over(); n++) {
      int who = a.nextToAct();
      if (who < 0) break;
      for (int p = 0; p < 3; p++) {
        a.legalMoves(p, ma);
        b.legalMoves(p, mb);
        REQUIRE(ma == mb);
      }
      a.legalMoves(who, ma);
      for (auto& m : ma) lateMoves += m.kind == rulestack::Move::Take && m.action == 1;
      // plays (the queue grows) or passes (it resolves, the turn moves on)
      const rulestack::Move& m = ma.size() > 1 && pick.below(8) < 5 ? ma[pick.below((uint32_t)ma.size() - 1)] : ma.back();
      a.applyUnchecked(who, m);
      b.applyUnchecked(who, m);
      REQUIRE(a.hash() == b.hash());
      deepest = std::max(deepest, (int)a.state().queue.size());
    }
  }
  CHECK(deepest >= 9);      // past the sizes the table keeps
  CHECK(lateMoves > 0);     // the second phase was reached with Late playable
  // a game copied from a game of another definition forgets what it kept: here one whose
  // Quick is playable exactly where the Flow game's is not (the same table, the other values)
  std::string inverted = kFlowGame;
  const std::string cond = "($queue.size > 0 and $queue.size != 3 or $player.current == $player.active)";
  inverted.replace(inverted.find(cond), cond.size(), "not " + cond);
  auto notDef = rulestack::compileDefinition(inverted, errs);
  REQUIRE(notDef);
  rulestack::Game other(notDef, 1, false), g(def, 1, false);
  std::vector<rulestack::Move> mine, copied;
  for (int p = 0; p < 3; p++) other.legalMoves(p, copied);  // (its values kept)
  other.copyFrom(g);
  for (int p = 0; p < 3; p++) {
    g.legalMoves(p, mine);
    other.legalMoves(p, copied);
    CHECK(mine == copied);
  }
  g.legalMoves(g.nextToAct(), mine);
  CHECK(mine.size() == 7);  // the active player's six Quick cards and a pass
}

// collectFromZone's groups: identical cards (same template, zone, controller, properties)
// have the same moves but the source. While no entity's property has been set (nor the state
// replaced from outside), cards of one template are known identical without comparing their
// properties; after, they are compared. Undone (no groups at all), the moves are the same.
TEST_CASE("identical cards share their moves, compared once their properties can differ", "[legal]") {
  int grouped = sameMovesWithout([](rulestack::Def& d) {
    int n = 0;
    for (rulestack::Action& a : d.actions) n += a.group, a.group = false;
    return n;
  });
  CHECK(grouped >= 3);  // the Duel's cards, the split game's
  // the split game's three cards each, none made dearer at setup; playing one makes it
  // dearer than the energy there is
  std::string game = kSplitGame;
  const std::string dearer = R"J(,
    { "operation": "=", "target": "$players[0].zone.@Hand.entities[0]", "property": "power", "value": 5 })J";
  REQUIRE(game.find(dearer) != std::string::npos);
  game.erase(game.find(dearer), dearer.size());
  game.replace(game.find("\"value\": 2 }"), 12, "\"value\": 5 }");
  std::vector<rulestack::DefError> errs;
  auto def = rulestack::compileDefinition(game, errs);
  REQUIRE(def);
  REQUIRE(def->actions[0].group);
  const size_t np = def->propNames.size();
  int power = -1;
  for (size_t i = 0; i < np; i++)
    if (def->propNames[i] == "power") power = (int)i;
  REQUIRE(power >= 0);
  auto sources = [](const std::vector<rulestack::Move>& ms) {
    std::vector<int32_t> out;
    for (const auto& m : ms)
      if (m.kind == rulestack::Move::Take) out.push_back(m.source);
    return out;
  };
  rulestack::Game g(def, 1, false);
  std::vector<rulestack::Move> moves;
  g.legalMoves(0, moves);
  const std::vector<int32_t> hand = sources(moves);
  REQUIRE(hand.size() == 3);
  // a card played is dearer: the others still play, it does not (the queue resolves first)
  g.applyUnchecked(0, moves[1]);
  while (g.nextToAct() >= 0 && !g.state().queue.empty()) g.applyUnchecked(g.nextToAct(), rulestack::Move{});
  REQUIRE(g.nextToAct() == 0);
  g.legalMoves(0, moves);
  CHECK(sources(moves) == std::vector<int32_t>{hand[0], hand[2]});
  // a state from outside: player 0's last card dearer, set in place
  rulestack::Game h(def, 1, false);
  rulestack::State st = h.state();
  st.props[(size_t)hand[2] * np + power] = rulestack::Slot{7, rulestack::VK::Int};
  h.mutableState() = st;
  h.legalMoves(0, moves);
  CHECK(sources(moves) == std::vector<int32_t>{hand[0], hand[1]});
}

TEST_CASE("a definition prepared again lays its perAction table out again", "[legal]") {
  std::vector<rulestack::DefError> errs;
  auto def = rulestack::compileDefinition(kFlowGame, errs);
  REQUIRE(def);
  rulestack::Def d = *def;
  const int size = d.flowTableSize;
  CHECK(size > 0);
  for (int i = 0; i < 50; i++) d.prepare();  // (as the tests that undo a shortcut do)
  CHECK(d.flowTableSize == size);
  CHECK(d.actions[0].flow.base == def->actions[0].flow.base);
  CHECK(d.actions[1].flow.base == def->actions[1].flow.base);
}

// An Own cost (paid by the player from a constant or the card's own property) while no entity
// property was set: every card of a template pays the template's amount, so the enumeration
// tests the player's energy once per action and lists every card of the template or none.
// After a property was set, or a card promoted (it keeps what its new template does not
// declare), each card pays its own amount again.
TEST_CASE("an Own cost is the template's for all its cards until a property can differ", "[legal]") {
  int own = sameMovesWithout([](rulestack::Def& d) {
    int n = 0;
    for (rulestack::Action& a : d.actions)
      if (a.costShape == rulestack::CostShape::Own && a.direct) n++, a.costShape = rulestack::CostShape::One;
    noZonePhases(d);
    return n;
  });
  CHECK(own >= 3);  // the Duel's three cards
  std::vector<rulestack::DefError> errs;
  auto def = rulestack::compileDefinition(kOwnGame, errs);
  REQUIRE(def);
  REQUIRE(def->actions.size() == 3);
  CHECK(def->actions[0].costShape == rulestack::CostShape::Own);
  CHECK(def->actions[0].tmplAmount == 0);  // (Free declares no cost)
  CHECK(def->actions[1].tmplAmount == 4);
  auto listed = [&](rulestack::Game& g, int action) {
    std::vector<rulestack::Move> moves;
    g.legalMoves(0, moves);
    std::vector<std::string> out;
    for (const auto& m : moves)
      if (m.kind == rulestack::Move::Take && m.action == action) out.push_back(g.entityId(m.source));
    return out;
  };
  rulestack::Game g(def, 1, false);
  CHECK(listed(g, 0) == std::vector<std::string>{"Free#1", "Free#2"});
  CHECK(listed(g, 1).empty());  // 4 > 3 energy: neither Dear card
  // Dear#1 demoted: a Free card that still costs 4, among two that cost nothing
  demoteDear1(g);
  REQUIRE(g.nextToAct() == 0);
  CHECK(listed(g, 0) == std::vector<std::string>{"Free#1", "Free#2"});
  // energy 4 (set from outside): the demoted card too, and the Dear card left
  rulestack::State st = g.state();
  st.props[0 * def->propNames.size() + def->prop(def->syms.find("energy"))] = rulestack::Slot{4, rulestack::VK::Int};
  g.mutableState() = st;
  CHECK(listed(g, 0) == std::vector<std::string>{"Free#1", "Free#2", "Dear#1"});
  CHECK(listed(g, 1) == std::vector<std::string>{"Dear#2"});
}

// A bot's deal (determinize) exchanges whole identities, a template with its properties, so
// whether a property can differ from its template's is as it was before the deal (the
// shortcuts of Game::propsVary_ hold in MCTS playouts too). Compared with the same deal marked
// as varying (mutableState): the same moves and states, in the Duel and in a game whose
// demoted card keeps its cost.
TEST_CASE("a bot's deal keeps whether properties can differ from their templates'", "[legal]") {
  auto sameAfterDeal = [](const rulestack::Game& g, uint64_t seed) {
    const int np = g.def().numPlayers();
    for (int v = 0; v < np; v++) {
      INFO("dealt for player " << v << ", seed " << seed);
      rulestack::Game dealt = g.clone();
      rulestack::Rng rng;
      rng.seed(seed * 7 + (uint64_t)v);
      rulestack::determinize(dealt, v, rng);
      rulestack::Game varying = dealt.clone();
      varying.mutableState();
      rt::Lcg pick(seed + (uint64_t)v);
      std::vector<rulestack::Move> ma, mb;
      for (int n = 0; n < 200 && !dealt.state().over(); n++) {
        const int who = dealt.nextToAct();
        if (who < 0) break;
        for (int p = 0; p < np; p++) {
          dealt.legalMoves(p, ma);
          varying.legalMoves(p, mb);
          REQUIRE(ma == mb);
        }
        dealt.legalMoves(who, ma);
        const rulestack::Move& m = ma[pick.below((uint32_t)ma.size())];
        dealt.applyUnchecked(who, m);
        varying.applyUnchecked(who, m);
        REQUIRE(dealt.hash() == varying.hash());
      }
    }
  };
  std::vector<rulestack::DefError> errs;
  auto duel = rulestack::compileDefinition(rt::readFile(std::string(RULESTACK_EXAMPLES_JSON) + "/duel.json"), errs);
  REQUIRE(duel);
  for (uint64_t seed = 1; seed <= 6; seed++) {
    rulestack::Game g(duel, seed, false);
    rt::Lcg pick(seed);
    std::vector<rulestack::Move> moves;
    for (int n = 0; n < 25 && !g.state().over(); n++) {
      g.legalMoves(g.nextToAct(), moves);
      g.applyUnchecked(g.nextToAct(), moves[pick.below((uint32_t)moves.size())]);
    }
    sameAfterDeal(g, seed);
  }
  auto own = rulestack::compileDefinition(kOwnGame, errs);
  REQUIRE(own);
  rulestack::Game g(own, 1, false);
  demoteDear1(g);  // a Free card that costs 4
  REQUIRE(g.state().ents[(size_t)g.findEntity("Dear#1")].tmpl == 0);
  sameAfterDeal(g, 1);
}

// A property operation on one player or entity (Mutation::quick) is applied in place, without
// the list of targets the general path makes: the same states as the general path, in every
// example (hashes compared at every step).
TEST_CASE("a property operation on one target gives the general path's states", "[legal]") {
  int quick = sameMovesWithout([](rulestack::Def& d) {
    int n = 0;
    auto undo = [&](std::vector<rulestack::Mutation>& ms) {
      for (rulestack::Mutation& m : ms) n += m.quick, m.quick = false;
    };
    for (rulestack::Action& a : d.actions) {
      undo(a.cost);
      undo(a.mutations);
      for (rulestack::Mode& m : a.modes) undo(m.mutations);
    }
    for (rulestack::Phase& p : d.phases) undo(p.onEnter);
    for (rulestack::Reaction& r : d.reactions) undo(r.mutations);
    for (rulestack::Triggered& t : d.triggered) undo(t.mutations);
    undo(d.setup);
    return n;
  });
  CHECK(quick >= 10);  // (the Duel alone: three costs, two cards' effects, three on_enter)
  std::vector<rulestack::DefError> errs;
  auto def = rulestack::compileDefinition(rt::readFile(std::string(RULESTACK_EXAMPLES_JSON) + "/duel.json"), errs);
  REQUIRE(def);
  const std::vector<rulestack::Mutation>& start = def->phases[0].onEnter;
  REQUIRE(start.size() == 4);
  CHECK(start[0].quick);   // max_energy + 1
  CHECK(start[1].quick);   // max_energy = 5 (with its condition)
  CHECK(start[2].quick);   // energy = max_energy
  CHECK(!start[3].quick);  // DrawCard
}
