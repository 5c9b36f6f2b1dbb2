// Malformed definitions: every error names where it is (a JSON pointer) and what was
// expected. Each case changes one thing in a small valid game and checks the exact path
// and the message (exactly, or a precise part of it).
#include <functional>

#include "test_util.h"

using rt::json;

namespace {

json base() {
  return json::parse(R"({
    "name": "T",
    "players": { "count": 2, "properties": { "life": 20 } },
    "settings": { "cancel_zone": "Grave" },
    "zones": [
      { "name": "Hand", "per_player": true, "visibility": "owner" },
      { "name": "Board" },
      { "name": "Grave", "per_player": true }
    ],
    "entities": [
      { "id": "Card", "type": "card", "properties": { "cost": 1, "attack": 2, "health": 3 },
        "actions": [ { "name": "Play", "mutations": [] } ] }
    ],
    "flow": { "phases": [ { "name": "Main", "valid_actions": ["Noop"] } ] },
    "actions": [ { "name": "Noop", "mutations": [] } ],
    "end_conditions": [ { "when": "$player.opponent.life <= 0", "winner": "$player.current" } ]
  })");
}

struct Case {
  const char* what;
  std::function<void(json&)> change;
  std::string path;
  std::string message;
  bool exact;
};

// a mutation placed into Noop
std::function<void(json&)> mut(const char* m) {
  std::string text = m;
  return [text](json& j) { j["actions"][0]["mutations"] = json::array({json::parse(text)}); };
}
std::function<void(json&)> set(const char* pointer, const char* value) {
  std::string p = pointer, v = value;
  return [p, v](json& j) { j[json::json_pointer(p)] = json::parse(v); };
}
std::function<void(json&)> erase(const char* parent, const char* key) {
  std::string p = parent, k = key;
  return [p, k](json& j) { j[json::json_pointer(p)].erase(k); };
}
const std::string M0 = "/actions/0/mutations/0";

void check(const Case& c) {
  json j = base();
  c.change(j);
  auto errs = rt::errorsOf(j);
  INFO(c.what << "\nexpected [" << c.path << "] " << c.message << "\ngot:\n" << rt::describe(errs));
  bool found = false;
  for (auto& e : errs)
    if (e.first == c.path && (c.exact ? e.second == c.message : e.second.find(c.message) != std::string::npos)) found = true;
  CHECK(found);
}

}  // namespace

TEST_CASE("the base game of the loader tests is valid", "[loader]") {
  auto errs = rt::errorsOf(base());
  INFO(rt::describe(errs));
  REQUIRE(errs.empty());
}

TEST_CASE("malformed definitions: every error with its JSON pointer and message", "[loader]") {
  const std::vector<Case> cases = {
      // ---- top level
      {"unknown top-level key, nearest suggested", set("/zone", "[]"), "/zone", "unknown key 'zone' (did you mean 'zones'?)", true},
      {"unknown top-level key 2", set("/action", "[]"), "/action", "unknown key 'action' (did you mean 'actions'?)", true},
      {"unknown key, nothing near", set("/xyzzy", "1"), "/xyzzy", "unknown key 'xyzzy'", true},
      {"missing name", erase("", "name"), "", "missing required key 'name'", true},
      {"missing flow", erase("", "flow"), "", "missing required key 'flow'", true},
      {"name of the wrong type", set("/name", "7"), "/name", "expected a string, found a number", true},
      // ---- players
      {"players not an object", set("/players", "2"), "/players", "expected an object, found a number", true},
      {"player count 0", set("/players/count", "0"), "/players/count", "expected a number from 1 to 8, found 0", true},
      {"player count 9", set("/players/count", "9"), "/players/count", "expected a number from 1 to 8, found 9", true},
      {"player count a string", set("/players/count", "\"two\""), "/players/count", "expected a whole number, found a string", true},
      {"player count a decimal", set("/players/count", "2.5"), "/players/count", "expected a whole number, found a decimal number", true},
      {"duplicate player ids", set("/players", R"({"ids": ["a", "a"]})"), "/players/ids/1", "duplicate player id 'a'", true},
      {"ids and count disagree", set("/players", R"({"ids": ["a", "b"], "count": 3})"), "/players/count",
       "count does not match the number of ids", true},
      {"players without count or ids", set("/players", R"({"properties": {}})"), "/players", "missing required key 'count' (or 'ids')", true},
      {"unknown players key", set("/players/propertes", "{}"), "/players/propertes",
       "unknown key 'propertes' (did you mean 'properties'?)", true},
      {"property default an object", set("/players/properties/life", "{}"), "/players/properties/life",
       "a property default must be a whole number, a boolean, a string or null, found an object", true},
      {"property default beyond 32 bits", set("/players/properties/life", "2147483648"), "/players/properties/life",
       "a property default is a 32-bit whole number (-2147483648 to 2147483647), found 2147483648", true},
      {"property default far below 32 bits", set("/players/properties/life", "-9223372036854775808"), "/players/properties/life",
       "a property default is a 32-bit whole number (-2147483648 to 2147483647), found -9223372036854775808", true},
      {"property default beyond 64 bits", set("/players/properties/life", "18446744073709551615"), "/players/properties/life",
       "a property default is a 32-bit whole number (-2147483648 to 2147483647), found 18446744073709551615", true},
      // ---- zones
      {"zones not a list", set("/zones", "{}"), "/zones", "expected a list, found an object", true},
      {"misspelt zone key", set("/zones/1/visiblity", "\"nobody\""), "/zones/1/visiblity",
       "unknown key 'visiblity' (did you mean 'visibility'?)", true},
      {"bad visibility", set("/zones/1/visibility", "\"hidden\""), "/zones/1/visibility",
       "expected everyone, owner or nobody, found 'hidden'", true},
      {"owner visibility on a shared zone", set("/zones/1/visibility", "\"owner\""), "/zones/1/visibility",
       "visibility 'owner' needs per_player: true", false},
      {"duplicate zone", set("/zones/3", R"({"name": "Board"})"), "/zones/3/name", "duplicate zone 'Board'", true},
      {"a zone called Queue", set("/zones/3", R"({"name": "Queue"})"), "/zones/3/name",
       "'Queue' is the engine's own zone; choose another name", true},
      {"a zone name with ':'", set("/zones/3", R"({"name": "A:B"})"), "/zones/3/name",
       "a zone name must be non-empty and contain no ':'", true},
      {"zone without name", set("/zones/3", R"({"per_player": true})"), "/zones/3", "missing required key 'name'", true},
      {"per_player not a boolean", set("/zones/0/per_player", "\"yes\""), "/zones/0/per_player",
       "expected true or false, found a string", true},
      // ---- entities
      {"duplicate template", set("/entities/1", R"({"id": "Card"})"), "/entities/1/id", "duplicate entity id 'Card'", true},
      {"template id with '#'", set("/entities/1", R"({"id": "A#1"})"), "/entities/1/id",
       "an entity id must be non-empty and contain no '#' or ':'", true},
      {"misspelt template key", set("/entities/0/propertys", "{}"), "/entities/0/propertys",
       "unknown key 'propertys' (did you mean 'properties'?)", true},
      {"template without id", set("/entities/1", R"({"type": "card"})"), "/entities/1", "missing required key 'id'", true},
      {"tags not a list", set("/entities/0/tags", "\"spell\""), "/entities/0/tags", "expected a list, found a string", true},
      {"entity action with a source", set("/entities/0/actions/0/source", "\"$zone.@Hand\""), "/entities/0/actions/0/source",
       "an entity action's source is the entity itself: remove 'source'", true},
      {"effect of an unknown property", set("/entities/0/effects", R"([{"applies_to": "$zone.@Board", "property": "attak", "add": 1}])"),
       "/entities/0/effects/0/property", "unknown property 'attak' (did you mean 'attack'?)", false},
      {"effect with both add and set", set("/entities/0/effects", R"([{"applies_to": "$zone.@Board", "property": "attack", "add": 1, "set": 2}])"),
       "/entities/0/effects/0", "an effect needs exactly one of 'add' or 'set'", true},
      // ---- settings
      {"bad resolution", set("/settings/resolution", "\"stack\""), "/settings/resolution", "expected 'item' or 'chain', found 'stack'", true},
      {"unknown cancel_zone, suggested", set("/settings/cancel_zone", "\"Grav\""), "/settings/cancel_zone",
       "unknown zone 'Grav' (did you mean 'Grave'?)", true},
      {"shared cancel_zone", set("/settings/cancel_zone", "\"Board\""), "/settings/cancel_zone",
       "zone 'Board' must be per_player (each card goes to its owner's)", true},
      {"max_events too small", set("/settings/max_events", "5"), "/settings/max_events", "expected a number from 10 to 1000000, found 5", true},
      {"auto_pass not a boolean", set("/settings/auto_pass", "1"), "/settings/auto_pass", "expected true or false, found a number", true},
      {"misspelt settings key", set("/settings/resolutoin", "\"item\""), "/settings/resolutoin",
       "unknown key 'resolutoin' (did you mean 'resolution'?)", true},
      // ---- actions
      {"action without name", set("/actions/1", R"({"mutations": []})"), "/actions/1", "missing required key 'name'", true},
      {"misspelt action key", set("/actions/0/mutation", "[]"), "/actions/0/mutation", "unknown key 'mutation' (did you mean 'mutations'?)", true},
      {"a zone named as a player", set("/players", R"({"ids": ["Board", "b"]})"), "/zones/1/name",
       "'Board' is a player's id: a move could not tell them apart", true},
      {"a zone named as a template's entities", set("/zones/1/name", "\"Card#1\""), "/zones/1/name",
       "'Card#1' has the form of the ids Card's entities are numbered with (Card#1, Card#2, ...): a move could not tell them apart", true},
      {"a player named as a queue item", set("/players", R"({"ids": ["a", "q1"]})"), "/players/ids/1",
       "'q1' is a queue item's id (q1, q2, ...): a move could not tell them apart", true},
      {"a player named as a per-player zone", set("/players", R"({"ids": ["a", "Hand:a"]})"), "/players/ids/1",
       "'Hand:a' is a zone's id: a move could not tell them apart", true},
      {"a zone named as a default player id", set("/zones/1/name", "\"1\""), "/zones/1/name",
       "'1' is a player's id: a move could not tell them apart", true},
      {"a Create id that is an expression", mut(R"({"operation": "Create", "template": "Card", "destination": "$zone.@Board", "id": "$player.current.id"})"),
       M0 + "/id", "the id '$player.current.id' starts with $ or (, as an expression does: an entity's id must name it alone", true},
      {"a zone name that starts as an expression does", set("/zones/1/name", "\"$Board\""), "/zones/1/name",
       "'$Board' starts with $ or (, as an expression does: a move could not tell them apart", true},
      {"draw: false", set("/end_conditions/0", R"({"when": "$turn > 3", "draw": false})"), "/end_conditions/0/draw",
       "draw: false ends nothing (write draw: true, or a winner)", true},
      {"a phase with on_enter and mutations", set("/flow/phases/0", R"({"name": "Main", "valid_actions": ["Noop"], "on_enter": [], "mutations": []})"),
       "/flow/phases/0/mutations", "give on_enter or mutations, not both", true},
      {"a trigger on GameOver", set("/reactions", R"([{"trigger": "$After.$GameOver", "mutations": []}])"), "/reactions/0/trigger",
       "this half of GameOver never happens: no trigger on it", true},
      {"a trigger on the $Before half of ActionExecuted", set("/reactions", R"([{"trigger": "$Before.$ActionExecuted", "mutations": []}])"),
       "/reactions/0/trigger", "this half of ActionExecuted never happens: no trigger on it", true},
      {"a trigger on the $Before half of ActionCancelled", set("/reactions", R"([{"trigger": "Before.ActionCancelled", "mutations": []}])"),
       "/reactions/0/trigger", "this half of ActionCancelled never happens: no trigger on it", true},
      {"an action with a source answered by a reaction",
       set("/actions/0", R"({"name": "Noop", "source": "$zone.@Board.entities", "reactions": [{"trigger": "$After.$TurnStart", "mutations": []}]})"),
       "/actions/0/reactions", "a decision picks no source, mode or x: this action cannot answer", true},
      {"a per-player zone named as an expression starts", set("/zones/0/name", "\"$Hand\""), "/zones/0/name",
       "'$Hand' starts with $ or (, as an expression does: a move could not tell them apart", true},
      {"an action with modes answered by a reaction",
       set("/actions/0", R"({"name": "Noop", "modes": [{"name": "a", "mutations": []}],
                              "reactions": [{"trigger": "$After.$TurnStart", "mutations": []}]})"),
       "/actions/0/reactions",
       "a decision picks no source, mode or x: this action cannot answer", true},
      {"an action with x answered by a reaction",
       set("/actions/0", R"({"name": "Noop", "x": {"min": 0, "max": 2}, "reactions": [{"trigger": "$After.$TurnStart", "mutations": []}]})"),
       "/actions/0/reactions",
       "a decision picks no source, mode or x: this action cannot answer", true},
      {"an action called pass", set("/actions/1", R"({"name": "pass"})"), "/actions/1/name",
       "'pass' is the engine's own move; choose another name", true},
      {"played action without a card", set("/actions/0/play", "true"), "/actions/0/play",
       "a played action needs a card: give it a 'source' (or make it an entity action)", true},
      {"target count 0", set("/actions/0/requires_target", R"({"from": "$zone.@Board", "count": 0})"), "/actions/0/requires_target/count",
       "expected a number from 1 to 16, found 0", true},
      {"target min > max", set("/actions/0/requires_target", R"({"from": "$zone.@Board", "min": 3, "max": 2})"), "/actions/0/requires_target",
       "min is greater than max", true},
      {"target object without from", set("/actions/0/requires_target", R"({"filter": "true"})"), "/actions/0/requires_target",
       "missing required key 'from'", true},
      {"target of the wrong type", set("/actions/0/requires_target", "3"), "/actions/0/requires_target",
       "expected a selector expression or {from, filter, count}, found a number", true},
      {"x without max", set("/actions/0/x", R"({"min": 1})"), "/actions/0/x", "missing required key 'max'", true},
      {"empty modes", set("/actions/0/modes", "[]"), "/actions/0/modes", "a 'pick one' list needs at least one mode", true},
      {"targets on the action and its mode",
       set("/actions/0", R"({"name": "Noop", "requires_target": "$zone.@Board", "modes": [{"requires_target": "$zone.@Board", "mutations": []}]})"),
       "/actions/0/modes/0/requires_target", "the action already has requires_target", false},
      {"properties not an object", set("/actions/0/properties", "[]"), "/actions/0/properties", "expected an object of name: expression, found a list", true},
      // ---- mutations
      {"unknown operation, suggested", mut(R"({"operation": "Destory", "target": "$entity.self"})"), M0 + "/operation",
       "unknown operation 'Destory' (did you mean 'Destroy'?)", false},
      {"missing operation", mut(R"({"target": "$entity.self"})"), M0, "missing required key 'operation' (one of:", false},
      {"mutation not an object", mut(R"("MoveZone")"), M0, "expected a mutation object, found a string", true},
      {"MoveZone without destination", mut(R"({"operation": "MoveZone", "target": "$entity.self"})"), M0,
       "missing required key 'destination'", true},
      {"arithmetic without property", mut(R"({"operation": "+", "target": "$player.current", "value": 1})"), M0,
       "missing required key 'property' (which property of the target to change)", true},
      {"a key the operation does not take", mut(R"({"operation": "Destroy", "target": "$entity.self", "destination": "$zone.@Board"})"),
       M0 + "/destination", "unknown key 'destination'", false},
      {"bad position", mut(R"({"operation": "MoveZone", "target": "$entity.self", "destination": "$zone.@Board", "position": "middle"})"),
       M0 + "/position", "expected 'top' or 'bottom', found 'middle'", true},
      {"unknown template, suggested", mut(R"({"operation": "Create", "template": "Crad", "destination": "$zone.@Board"})"),
       M0 + "/template", "unknown entity template 'Crad' (did you mean 'Card'?)", true},
      {"Create of too many", mut(R"({"operation": "Create", "template": "Card", "destination": "$zone.@Board", "count": 4294967297})"),
       M0 + "/count", "Create makes from 0 to 1000 entities at once, found 4294967297", true},
      {"Create of a negative count", mut(R"({"operation": "Create", "template": "Card", "destination": "$zone.@Board", "count": -1})"),
       M0 + "/count", "Create makes from 0 to 1000 entities at once, found -1", true},
      {"a number as a destination", mut(R"({"operation": "MoveZone", "target": "$entity.self", "destination": 3})"),
       M0 + "/destination", "a destination is a zone (an expression such as $zone.@Hand), found a number", true},
      {"Promote without template", mut(R"({"operation": "Promote", "target": "$entity.self"})"), M0, "missing required key 'template'", true},
      {"only damage_value is an event field to change", mut(R"({"operation": "+", "target": "$event.player", "value": 1})"),
       M0 + "/target", "only $event.damage_value can be changed by arithmetic", true},
      {"a number beyond 32 bits", mut(R"({"operation": "+", "target": "$player.current", "property": "life", "value": 3000000000})"),
       M0 + "/value", "number out of the 32-bit range", true},
      {"a decimal value", mut(R"({"operation": "+", "target": "$player.current", "property": "life", "value": 1.5})"),
       M0 + "/value", "expected a value or an expression, found a decimal number", true},
      {"empty property name", mut(R"({"operation": "=", "target": "$player.current", "property": "", "value": 1})"),
       M0 + "/property", "a property name cannot be empty", true},
      // ---- expressions: the column of the error
      {"unknown zone in an expression, suggested", mut(R"({"operation": "MoveZone", "target": "$entity.self", "destination": "$zone.@Bord"})"),
       M0 + "/destination", "expression error at column 7: unknown zone 'Bord' (did you mean 'Board'?)", true},
      {"expression ends early", set("/actions/0/condition", "\"$player.current.life >\""), "/actions/0/condition",
       "expression error at column 23: the expression ended where a value was expected", true},
      {"unknown reference", set("/actions/0/condition", "\"$playr.current\""), "/actions/0/condition",
       "expression error at column 1: unknown reference '$playr'", false},
      {"unknown $player member", set("/actions/0/condition", "\"$player.curent == 1\""), "/actions/0/condition",
       "expression error at column 9: unknown $player member 'curent'", false},
      {"unterminated string", set("/actions/0/condition", "\"$phase == 'Main\""), "/actions/0/condition",
       "expression error at column 11: unterminated string", true},
      {"unknown function", set("/actions/0/condition", "\"foo(1) > 0\""), "/actions/0/condition",
       "expression error at column 1: unknown function 'foo' (min, max, abs, count, sum)", true},
      {"wrong arity", set("/actions/0/condition", "\"1 + min(1)\""), "/actions/0/condition",
       "expression error at column 5: min() takes 2 arguments, got 1", true},
      {"unexpected character", set("/actions/0/condition", "\"$turn # 2\""), "/actions/0/condition",
       "expression error at column 7: unexpected character '#'", true},
      {"a property in properties and per_turn", set("/players/per_turn", R"({"life": 5})"), "/players/per_turn/life",
       "'life' is in properties too: per_turn sets it at the start and every turn; give it once", true},
      {"= where == is meant", set("/actions/0/condition", "\"$turn = 2\""), "/actions/0/condition",
       "expression error at column 7: unexpected character '=' (compare with ==)", true},
      {"trailing tokens", set("/actions/0/condition", "\"$turn 2\""), "/actions/0/condition",
       "expression error at column 7: unexpected '2' after the end of the expression", true},
      {"a bare word", set("/actions/0/condition", "\"$turn == Main\""), "/actions/0/condition",
       "expression error at column 10: unexpected name 'Main'", false},
      {"unknown event field", set("/actions/0/condition", "\"$event.damage > 1\""), "/actions/0/condition",
       "expression error at column 8: unknown event field 'damage'", false},
      {"unknown method", set("/actions/0/condition", "\"$zone.@Board.entities.first()\""), "/actions/0/condition",
       "expression error at column 23: unknown method 'first' (methods: contains, where)", true},
      {"number too large", set("/actions/0/condition", "\"$turn > 12345678901\""), "/actions/0/condition",
       "expression error at column 9: number too large (at most 2147483647)", true},
      {"number past the 32-bit range", set("/actions/0/condition", "\"$turn > 2147483648\""), "/actions/0/condition",
       "expression error at column 9: number too large (at most 2147483647)", true},
      {"a number with a fraction", set("/actions/0/condition", "\"$turn > 1.5\""), "/actions/0/condition",
       "expression error at column 9: numbers are whole numbers: '1.5' has a fraction part", true},
      {"a number with an exponent", set("/actions/0/condition", "\"$turn > 1e3\""), "/actions/0/condition",
       "expression error at column 9: numbers are written out in digits: '1e3' has an exponent", true},
      {"sum without a property name", set("/actions/0/condition", "\"sum($zone.@Board, 3) > 1\""), "/actions/0/condition",
       "sum() takes a property name as a string", false},
      {"expression too long", set("/actions/0/condition", ("\"" + std::string(5000, '1') + "\"").c_str()), "/actions/0/condition",
       "expression error at column 1: expression longer than 4096 characters", true},
      {"expression nested too deeply", set("/actions/0/condition", ("\"" + std::string(100, '(') + "1" + std::string(100, ')') + "\"").c_str()),
       "/actions/0/condition", "expression nested too deeply", false},
      // ---- reactions and triggers
      {"trigger without Before/After", set("/entities/0/reactions", R"([{"trigger": "DamageTaken", "mutations": []}])"),
       "/entities/0/reactions/0/trigger", "a trigger starts with $Before. or $After.", false},
      {"unknown event, suggested", set("/entities/0/reactions", R"([{"trigger": "$After.$DamagTaken", "mutations": []}])"),
       "/entities/0/reactions/0/trigger", "unknown event 'DamagTaken' (did you mean 'DamageTaken'?)", false},
      {"unknown action in a trigger, suggested", set("/triggered_actions", R"([{"name": "T", "trigger": "$After.@Nop", "mutations": []}])"),
       "/triggered_actions/0/trigger", "unknown action 'Nop' in trigger (did you mean 'Noop'?)", true},
      {"trigger of the wrong type", set("/entities/0/reactions", R"([{"trigger": 3}])"), "/entities/0/reactions/0/trigger",
       "expected a string, found a number", true},
      {"reaction without trigger", set("/entities/0/reactions", R"([{"mutations": []}])"), "/entities/0/reactions/0",
       "missing required key 'trigger'", true},
      {"a queued $Before reaction", set("/entities/0/reactions", R"([{"trigger": "$Before.DamageTaken", "queue": true}])"),
       "/entities/0/reactions/0/queue", "a $Before reaction cannot go on the queue: it must act before the event", true},
      {"triggered action without name", set("/triggered_actions", R"([{"trigger": "$After.@Noop"}])"), "/triggered_actions/0",
       "missing required key 'name'", true},
      {"misspelt triggered key", set("/triggered_actions", R"([{"name": "T", "trigger": "$After.@Noop", "optinal": false}])"),
       "/triggered_actions/0/optinal", "unknown key 'optinal' (did you mean 'optional'?)", true},
      // ---- flow
      {"valid_actions names an unknown action", set("/flow/phases/0/valid_actions", R"(["Nop"])"), "/flow/phases/0/valid_actions/0",
       "unknown action 'Nop' (did you mean 'Noop'?)", true},
      {"no phase with valid_actions", set("/flow/phases", R"([{"name": "Main"}])"), "/flow/phases",
       "no phase has valid_actions: the game would never ask a player for a move", true},
      {"only empty valid_actions", set("/flow/phases", R"([{"name": "Main", "valid_actions": []}])"), "/flow/phases",
       "no phase's valid_actions lists an action (an empty list lists none): the game would never ask a player for a move", true},
      {"no phase at all", set("/flow/phases", "[]"), "/flow/phases", "the flow needs at least one phase", true},
      // ---- a target of a kind the operation never acts on (it would do nothing, silently)
      {"Win of a zone", mut(R"({"operation": "Win", "target": "$zone.@Board"})"), M0 + "/target",
       "expression error at column 1: expected a player (or an entity: its owner), or a list of them, found a zone", true},
      // ---- default zones that do not exist (every run of the operation would fail)
      {"DrawCard from a Deck nobody declares", mut(R"({"operation": "DrawCard", "target": "$player.current"})"), M0,
       "DrawCard without 'from' needs a zone named Deck", true},
      {"DrawCard into a Hand nobody declares", [](json& j) {
         j["zones"][0]["name"] = "Deck";
         j["actions"][0]["mutations"] = json::parse(R"([{"operation": "DrawCard", "target": "$player.current"}])");
       }, M0, "DrawCard without 'destination' needs a zone named Hand", true},
      {"RequireDiscard from a Hand nobody declares", [](json& j) {
         j["zones"][0]["name"] = "Deck";
         j["actions"][0]["mutations"] = json::parse(R"([{"operation": "RequireDiscard", "target": "$player.current"}])");
       }, M0, "RequireDiscard without 'from' needs a zone named Hand", true},
      {"RequireDiscard to a discard_zone nobody sets", [](json& j) {
         j["settings"].erase("cancel_zone");
         j["actions"][0]["mutations"] = json::parse(R"([{"operation": "RequireDiscard", "target": "$player.current"}])");
       }, M0, "RequireDiscard without 'destination' needs settings.discard_zone", true},
      {"an end condition's winner that is a number", set("/end_conditions/0/winner", "\"$player.current.life\""), "/end_conditions/0/winner",
       "expression error at column 1: expected a player (or an entity: its owner), or a list of them, found an integer", true},
      {"an answer on the queue", set("/entities/0/actions/0/reactions", R"([{"trigger": "$After.@Noop", "queue": true}])"),
       "/entities/0/actions/0/reactions/0/queue", "an answer takes its action at once: it cannot go on the queue", true},
      {"Give without an owner", mut(R"({"operation": "Give", "target": "$zone.@Board.entities"})"), M0,
       "missing required key 'owner'", true},
      {"Give to a zone", mut(R"({"operation": "Give", "target": "$zone.@Board.entities", "owner": "$zone.@Board"})"), M0 + "/owner",
       "expression error at column 1: expected a player (or an entity: its owner), or a list of them, found a zone", true},
      {"Damage of a text", mut(R"({"operation": "Damage", "target": "$player.current", "property": "life", "value": "two"})"),
       M0 + "/value", "expected a number, found the text 'two'", true},
      {"DrawCard of a number", mut(R"({"operation": "DrawCard", "target": "$turn", "from": "$zone.@Board", "destination": "$zone.@Board"})"), M0 + "/target",
       "expected a player (or an entity: its owner), or a list of them, found", false},
      {"Destroy of a zone", mut(R"({"operation": "Destroy", "target": "$zone.@Board"})"), M0 + "/target",
       "expression error at column 1: expected an entity or a list of entities (a zone's entities: $zone.@Name.entities), found a zone", true},
      {"MoveZone of a number", mut(R"({"operation": "MoveZone", "target": "$turn", "destination": "$zone.@Board"})"), M0 + "/target",
       "expected an entity or a list of entities", false},
      {"Shuffle of a number", mut(R"({"operation": "Shuffle", "target": 3})"), M0 + "/target", "expected a zone or a list of zones, found", false},
      {"Shuffle of an entity", mut(R"({"operation": "Shuffle", "target": "$player.current"})"), M0 + "/target",
       "expected a zone or a list of zones, found", false},
      // ---- a created entity's id names it alone (a move's target is found by its id)
      {"an id of the automatic form", mut(R"({"operation": "Create", "template": "Card", "destination": "$zone.@Board", "id": "Card#2"})"),
       M0 + "/id", "the id 'Card#2' has the form of the ids Card's entities are numbered with (Card#1, Card#2, ...): an entity's id must name it alone", true},
      {"a shared zone's id", mut(R"({"operation": "Create", "template": "Card", "destination": "$zone.@Board", "id": "Board"})"),
       M0 + "/id", "the id 'Board' is a zone's id: an entity's id must name it alone", true},
      {"a player's zone's id", mut(R"({"operation": "Create", "template": "Card", "destination": "$zone.@Board", "id": "Hand:1"})"),
       M0 + "/id", "the id 'Hand:1' is a zone's id: an entity's id must name it alone", true},
      {"the queue's id", mut(R"({"operation": "Create", "template": "Card", "destination": "$zone.@Board", "id": "Queue"})"),
       M0 + "/id", "the id 'Queue' is a zone's id: an entity's id must name it alone", true},
      {"a player's id", mut(R"({"operation": "Create", "template": "Card", "destination": "$zone.@Board", "id": "1"})"),
       M0 + "/id", "the id '1' is a player's id: an entity's id must name it alone", true},
      {"a queue item's id", mut(R"({"operation": "Create", "template": "Card", "destination": "$zone.@Board", "id": "q3"})"),
       M0 + "/id", "the id 'q3' is a queue item's id (q1, q2, ...): an entity's id must name it alone", true},
      {"a handle's form", mut(R"({"operation": "Create", "template": "Card", "destination": "$zone.@Board", "id": "?0a1b2c3d"})"),
       M0 + "/id", "the id '?0a1b2c3d' starts with '?', as the handles of hidden entities do: an entity's id must name it alone", true},
      {"an empty id", mut(R"({"operation": "Create", "template": "Card", "destination": "$zone.@Board", "id": ""})"),
       M0 + "/id", "the id '' is empty: an entity's id must name it alone", true},
      {"duplicate phase", set("/flow/phases/1", R"({"name": "Main"})"), "/flow/phases/1/name", "duplicate phase 'Main'", true},
      {"unknown player in turn_order", set("/flow/turn_order", R"(["0", "2"])"), "/flow/turn_order/1", "unknown player '2'", false},
      {"turn_order misses a player", set("/flow/turn_order", R"(["0", "0"])"), "/flow/turn_order",
       "turn_order must list every player exactly once", true},
      {"unknown first player", set("/flow/first_player", "\"7\""), "/flow/first_player", "unknown player '7'", false},
      {"phase without name", set("/flow/phases/1", R"({"valid_actions": []})"), "/flow/phases/1", "missing required key 'name'", true},
      {"misspelt phase key", set("/flow/phases/0/on_entry", "[]"), "/flow/phases/0/on_entry", "unknown key 'on_entry' (did you mean 'on_enter'?)", true},
      // ---- end conditions
      {"end condition with winner and draw", set("/end_conditions/0/draw", "true"), "/end_conditions/0",
       "an end condition needs exactly one of 'winner' or 'draw'", true},
      {"end condition with neither", erase("/end_conditions/0", "winner"), "/end_conditions/0",
       "an end condition needs exactly one of 'winner' or 'draw'", true},
      {"end condition without when", erase("/end_conditions/0", "when"), "/end_conditions/0", "missing required key 'when'", true},
      {"end condition with a bad expression", set("/end_conditions/0/when", "\"$player.opponent.life <= \""), "/end_conditions/0/when",
       "expression error at column 26: the expression ended where a value was expected", true},
      // ---- the game cannot start: validateDefinition runs setup too
      {"setup creates the same id twice",
       set("/setup", R"([{"operation": "Create", "template": "Card", "destination": "$zone.@Board", "id": "X"},
                          {"operation": "Create", "template": "Card", "destination": "$zone.@Board", "id": "X"}])"),
       "/setup", "the game could not start: /setup/1: an entity with id 'X' already exists", true},
  };
  CHECK(cases.size() >= 40);
  for (const Case& c : cases) check(c);
}

TEST_CASE("hostile definitions: deep nesting, huge lists, not JSON", "[loader]") {
  SECTION("100k nested arrays: one error, no crash") {
    std::string text = "{\"name\": " + std::string(100000, '[') + std::string(100000, ']') + "}";
    auto errs = rt::errorsOf(text);
    REQUIRE(errs.size() == 1);
    CHECK(errs[0].first == "");
    CHECK(errs[0].second == "the definition is nested more than 200 levels deep");
    rulestack::Session s;
    CHECK_FALSE(s.load(text, "1").empty());
    CHECK_FALSE(s.loaded());
  }
  SECTION("100k nested objects inside a valid prefix") {
    std::string text = "{\"name\": \"T\", \"x\": ";
    for (int i = 0; i < 100000; i++) text += "{\"a\":";
    text += "1" + std::string(100000, '}') + "}";
    auto errs = rt::errorsOf(text);
    REQUIRE(errs.size() == 1);
    CHECK(errs[0].second == "the definition is nested more than 200 levels deep");
  }
  SECTION("brackets inside strings do not count as nesting") {
    json j = base();
    j["description"] = std::string(1000, '[');
    auto errs = rt::errorsOf(j);
    INFO(rt::describe(errs));
    CHECK(errs.empty());
  }
  SECTION("a list longer than 10000 items") {
    json j = base();
    json zones = json::array();
    for (int i = 0; i < 10001; i++) zones.push_back({{"name", "Z" + std::to_string(i)}});
    j["zones"] = zones;
    auto errs = rt::errorsOf(j);
    INFO(rt::describe(errs));
    CHECK(std::find(errs.begin(), errs.end(), std::make_pair(std::string("/zones"), std::string("list longer than 10000 items"))) != errs.end());
  }
  SECTION("many mutations (within limits) load") {
    json j = base();
    json ms = json::array();
    for (int i = 0; i < 5000; i++) ms.push_back({{"operation", "+"}, {"target", "$player.current"}, {"property", "life"}, {"value", 1}});
    j["actions"][0]["mutations"] = ms;
    CHECK(rt::errorsOf(j).empty());
  }
  SECTION("more than 8 MB of text") {
    std::string text = "{\"name\": \"" + std::string(9u << 20, 'a') + "\"}";
    auto errs = rt::errorsOf(text);
    REQUIRE(errs.size() == 1);
    CHECK(errs[0].second == "the definition is larger than 8 MB");
  }
  SECTION("not JSON at all") {
    auto errs = rt::errorsOf(std::string("name: T"));
    REQUIRE(errs.size() == 1);
    CHECK(errs[0].first == "");
    CHECK(errs[0].second.rfind("invalid JSON: parse error", 0) == 0);
  }
  SECTION("a list at the top") {
    auto errs = rt::errorsOf(std::string("[1, 2]"));
    REQUIRE(errs.size() == 1);
    CHECK(errs[0] == std::make_pair(std::string(""), std::string("expected an object, found a list")));
  }
  SECTION("Create of a huge count: a literal is refused at load, a computed one fails at start, not by exhausting memory") {
    json j = base();
    j["setup"] = json::parse(R"([{"operation": "Create", "template": "Card", "destination": "$zone.@Board", "count": 1000000}])");
    auto errs = rt::errorsOf(j);
    REQUIRE(errs.size() == 1);
    CHECK(errs[0] == std::make_pair(std::string("/setup/0/count"), std::string("Create makes from 0 to 1000 entities at once, found 1000000")));
    j["setup"][0]["count"] = "$turn + 1000000";
    errs = rt::errorsOf(j);
    REQUIRE(errs.size() == 1);
    CHECK(errs[0].first == "/setup");
    CHECK(errs[0].second.find("Create makes from 0 to 1000 entities at once, found 100000") != std::string::npos);
  }
}

TEST_CASE("several errors in one definition are all reported, in document order", "[loader]") {
  json j = base();
  j["zone"] = json::array();                                               // unknown key
  j["players"]["count"] = 0;                                               // out of range
  j["zones"][1]["visibility"] = "hidden";                                  // bad enum
  j["actions"][0]["mutations"] = json::parse(R"([
    {"operation": "MoveZone", "target": "$entity.self"},
    {"operation": "Frobnicate"},
    {"operation": "+", "target": "$player.current", "property": "life", "value": "$turn +"}
  ])");
  j["flow"]["phases"][0]["valid_actions"] = {"Noop", "Nope"};
  j["end_conditions"][0]["draw"] = true;
  auto errs = rt::errorsOf(j);
  INFO(rt::describe(errs));
  std::vector<std::string> paths;
  for (auto& e : errs) paths.push_back(e.first);
  std::vector<std::string> want = {"/zone", "/players/count", "/zones/1/visibility", "/actions/0/mutations/0",
                                   "/actions/0/mutations/1/operation", "/actions/0/mutations/2/value",
                                   "/flow/phases/0/valid_actions/1", "/end_conditions/0"};
  CHECK(paths == want);
}

TEST_CASE("Session.load returns every error as JSON, and nothing runs", "[loader]") {
  json j = base();
  j["actions"][0]["mutations"] = json::parse(R"([{"operation": "MoveZone", "target": "$entity.self"}, {"operation": "Nope"}])");
  rulestack::Session s;
  json r = json::parse(s.load(j.dump(), "1"));
  REQUIRE(r["errors"].size() == 2);
  CHECK(r["errors"][0]["path"] == "/actions/0/mutations/0");
  CHECK(r["errors"][1]["path"] == "/actions/0/mutations/1/operation");
  CHECK_FALSE(s.loaded());
  CHECK(s.view("") == "null");
  CHECK(json::parse(s.apply("0", R"({"action":"pass"})"))["reason"] == "no_game");
}

// docs/language.md, "Values and properties" and "Expressions": a member nobody declares is a
// load error with its place; one that some template declares reads null where it is missing.
TEST_CASE("an unknown member is a load error with its column and a suggestion", "[loader]") {
  json j = base();
  j["actions"][0]["condition"] = "$player.current.controller.opponent == null";
  j["actions"][0]["mutations"] = json::parse(R"([{"operation": "=", "target": "$player.current", "property": "is_ready", "value": "$player.current.is_redy"}])");
  auto errs = rt::errorsOf(j);
  INFO(rt::describe(errs));
  REQUIRE(errs.size() == 2);
  CHECK(errs[0].first == "/actions/0/condition");
  CHECK(errs[0].second == "expression error at column 28: unknown member 'opponent' (no built-in member, property or action property has this name)");
  CHECK(errs[1].first == "/actions/0/mutations/0/value");
  CHECK(errs[1].second == "expression error at column 17: unknown member 'is_redy' (no built-in member, property or action property has this name) (did you mean 'is_ready'?)");
}

TEST_CASE("$entity.self where there is never one is a load error with its column", "[loader]") {
  json j = base();
  j["actions"][0]["condition"] = "$player.current.life > 0 and $entity.self.cost > 0";  // Noop: no source
  j["setup"] = json::parse(R"([{"target": "$entity.self", "property": "life", "operation": "=", "value": 3}])");
  j["end_conditions"][0]["when"] = "$entity.self == null";
  auto errs = rt::errorsOf(j);
  INFO(rt::describe(errs));
  const std::string why = ": $entity.self is always null here (only an entity's own actions, reactions, triggered actions "
                          "and effects have one; a top-level action gets one from its 'source')";
  REQUIRE(errs.size() == 3);
  CHECK(errs[0] == std::make_pair(std::string("/actions/0/condition"), "expression error at column 30" + why));
  CHECK(errs[1] == std::make_pair(std::string("/setup/0/target"), "expression error at column 1" + why));
  CHECK(errs[2] == std::make_pair(std::string("/end_conditions/0/when"), "expression error at column 1" + why));
  // an entity's action, and a top-level action with a source, have one
  json ok = base();
  ok["entities"][0]["actions"][0]["condition"] = "$entity.self.cost > 0";
  ok["actions"][0]["source"] = "$zone.@Board";
  ok["actions"][0]["condition"] = "$entity.self.cost > 0";
  CHECK(rt::errorsOf(ok).empty());
}

// docs/language.md, "Expressions": $item, $candidate, $target and $event each have a value only
// where the key that gives it is (a for_each, a filter or .where, a requires_target, an event
// answered); anywhere else they read null for ever: a load error with its column.
TEST_CASE("$item, $candidate, $target and $event where nothing gives them are load errors", "[loader]") {
  const std::string col = "expression error at column ";
  const std::string noItem = "$item is only given in a mutation with for_each (the current element)";
  const std::string noCandidate = "$candidate is only given in a filter or .where(...) (the value tested)";
  const std::string noTarget = "$target is only given where targets are chosen (an action, mode, reaction or "
                               "triggered action with requires_target)";
  const std::string notYet = "$target is not chosen yet in a requires_target (test each value with $candidate)";
  const std::string noEvent = "$event is always null here: only reactions, triggered actions, on_enter and answering actions have one";
  json j = base();
  j["actions"][0]["mutations"] = json::parse(R"([
      {"operation": "+", "target": "$player.current", "property": "life", "value": "$item"},
      {"operation": "+", "target": "$player.current", "property": "life", "value": 1, "condition": "$candidate.life > 0"},
      {"operation": "+", "target": "$target", "property": "life", "value": 1},
      {"operation": "+", "target": "$player.current", "property": "life", "value": 1, "condition": "$event.turn > 1"}])");
  j["entities"][0]["actions"][0]["requires_target"] = json::parse(R"({"from": "$player.all", "filter": "$target != $player.current"})");
  j["end_conditions"][0]["when"] = "count($targets) > 0";
  auto errs = rt::errorsOf(j);
  INFO(rt::describe(errs));
  REQUIRE(errs.size() == 6);
  CHECK(errs[0] == std::make_pair(std::string("/actions/0/mutations/0/value"), col + "1: " + noItem));
  CHECK(errs[1] == std::make_pair(std::string("/actions/0/mutations/1/condition"), col + "1: " + noCandidate));
  CHECK(errs[2] == std::make_pair(std::string("/actions/0/mutations/2/target"), col + "1: " + noTarget));
  CHECK(errs[3] == std::make_pair(std::string("/actions/0/mutations/3/condition"), col + "1: " + noEvent));
  CHECK(errs[4] == std::make_pair(std::string("/entities/0/actions/0/requires_target/filter"), col + "1: " + notYet));
  CHECK(errs[5] == std::make_pair(std::string("/end_conditions/0/when"), col + "7: " + noTarget));
  // where they are given: a for_each, a filter, a .where, a requires_target (of the action, or
  // of a mode: the action's own mutations read it too), a reaction's event, a phase's on_enter
  json ok = base();
  ok["actions"][0]["mutations"] = json::parse(R"J([
      {"operation": "+", "target": "$item", "property": "life", "value": 1, "for_each": "$player.all.where($candidate.life > 0)"}])J");
  ok["entities"][0]["actions"][0]["requires_target"] = json::parse(R"({"from": "$player.all", "filter": "$candidate != $player.current"})");
  ok["entities"][0]["actions"][0]["mutations"] = json::parse(R"([{"operation": "-", "target": "$target", "property": "life", "value": 1}])");
  ok["actions"].push_back(json::parse(R"({"name": "Pick", "modes": [{"name": "None", "mutations": []},
      {"name": "One", "requires_target": {"from": "$player.all"}, "mutations": [{"operation": "-", "target": "$target", "property": "life", "value": 1}]}],
      "mutations": [{"operation": "+", "target": "$targets", "property": "life", "value": 1}]})"));
  ok["entities"][0]["reactions"] = json::parse(R"([{"trigger": "$After.$DamageTaken", "condition": "$event.damage_value > 1", "mutations": []}])");
  // a mode's targets in its action's cost and properties; an answer's own targets in its action's
  // lists; $candidate in an effect's add (with a filter); a property whose name starts so
  ok["actions"][1]["cost"] = json::parse(R"([{"operation": "-", "target": "$target", "property": "life", "value": 1}])");
  ok["actions"][1]["properties"] = json::parse(R"({"aimed": "$target.life", "requires_target_seen": "$target"})");
  ok["actions"].push_back(json::parse(R"({"name": "Guard", "mutations": [{"operation": "-", "target": "$target", "property": "life", "value": 1}],
      "reactions": [{"trigger": "$After.@Noop", "requires_target": {"from": "$player.all"}}]})"));
  ok["entities"][0]["effects"] = json::parse(R"([{"applies_to": "$zone.@Board", "filter": "$candidate.type == 'card'", "property": "attack", "add": "$candidate.cost"}])");
  ok["flow"]["phases"][0]["on_enter"] = json::parse(R"([{"operation": "+", "target": "$player.current", "property": "life", "value": 1, "condition": "$event.turn > 1"}])");
  auto none = rt::errorsOf(ok);
  INFO(rt::describe(none));
  CHECK(none.empty());
}

TEST_CASE("not errors: a member some template declares reads null where missing, a mutation declares its property", "[loader]") {
  json j = base();
  j["actions"][0]["condition"] = "$player.current.attack == null and $player.current.is_ready == null";
  j["actions"][0]["mutations"] = json::parse(R"([{"operation": "=", "target": "$player.current", "property": "is_ready", "value": true}])");
  auto errs = rt::errorsOf(j);
  INFO(rt::describe(errs));
  CHECK(errs.empty());
  rt::G g(j);
  CHECK(g.eval("$players[0].is_ready") == nullptr);
  g.play("0", json{{"action", "Noop"}});
  g.play("1", json{{"action", "pass"}});
  g.play("0", json{{"action", "pass"}});
  CHECK(g.eval("$players[0].is_ready") == true);
}

// Kinds (engine/src/types.h): what can never work for the kinds of its values is a load error
// with its place, instead of a game that silently does nothing.
TEST_CASE("kinds: an operation or a key given a value of the wrong kind is a load error with its column", "[loader]") {
  struct KindCase { const char* what; std::function<void(json&)> change; std::string path, message; };
  std::vector<KindCase> cases = {
      {"two lists added (no target would ever be offered)",
       [](json& j) { j["entities"][0]["actions"][0]["requires_target"] = json{{"from", "$player.all + $entity.card"}}; },
       "/entities/0/actions/0/requires_target/from",
       "expression error at column 13: '+' takes numbers, but its left side is a list (lists do not add up: list them "
       "in 'from' one by one, or use count(...) or sum(...))"},
      {"a property as a destination",
       [](json& j) { j["actions"][0]["mutations"] = json::parse(R"([{"operation": "MoveZone", "target": "$entity.all", "destination": "$player.current.life"}])"); },
       "/actions/0/mutations/0/destination",
       "expression error at column 1: expected a zone (or an entity: its zone), found an integer"},
      {"a quoted expression that is text",
       [](json& j) { j["actions"][0]["mutations"] = json::parse(R"([{"operation": "-", "target": "$player.current", "property": "life", "value": "1 + $x"}])"); },
       "/actions/0/mutations/0/value",
       "expected a number, found the text '1 + $x' (text, not an expression: an expression starts with $, ( or a "
       "function such as min(; write $x + 1, not 1 + $x)"},
      {"one value's property read from a list",
       [](json& j) { j["end_conditions"][0]["when"] = "$player.all.life <= 0"; },
       "/end_conditions/0/when",
       "expression error at column 13: '.life' is read from one value, but this is a list (choose one with [i] or "
       ".where(...), or use sum(list, prop))"},
      {"a number as the target of a property change",
       [](json& j) { j["actions"][0]["mutations"] = json::parse(R"([{"operation": "+", "target": "$turn", "property": "life", "value": 1}])"); },
       "/actions/0/mutations/0/target",
       "expression error at column 1: expected an entity or a player (or a list of them), found an integer"},
      {"a zone compared with a number",
       [](json& j) { j["actions"][0]["condition"] = "$zone.@Board > 2"; },
       "/actions/0/condition",
       "expression error at column 14: '>' takes numbers, but its left side is a zone"},

      {"a text as a condition (always true)",
       [](json& j) { j["actions"][0]["condition"] = "$phase"; },
       "/actions/0/condition",
       "expression error at column 1: expected a condition (a comparison, .contains(...), and/or/not; a text is always "
       "true), found a string"},
      {"arithmetic on a property that holds text",
       [](json& j) { j["players"]["properties"]["title"] = "none";
                     j["actions"][0]["mutations"] = json::parse(R"([{"operation": "+", "target": "$player.current", "property": "title", "value": 1}])"); },
       "/actions/0/mutations/0/property",
       "arithmetic changes a number, but property 'title' holds a string (its declared defaults)"},
      {"$target of a zone selector used as a number",
       [](json& j) { j["entities"][0]["actions"][0]["requires_target"] = "$zone.@Board";
                     j["entities"][0]["actions"][0]["condition"] = "$target + 1 > 0"; },
       "/entities/0/actions/0/condition",
       "expression error at column 9: '+' takes numbers, but its left side is a zone"},
      {"Cancel given a list (it would cancel nothing)",
       [](json& j) { j["actions"][0]["mutations"] = json::parse(R"([{"operation": "Cancel", "target": "$queue.items"}])"); },
       "/actions/0/mutations/0/target",
       "expression error at column 1: expected one queue item or event ($event.action, $event, $queue.top, "
       "$queue.items[i]; to cancel several, give for_each and target: $item), found a list"},
      {"Cancel given a player",
       [](json& j) { j["actions"][0]["mutations"] = json::parse(R"([{"operation": "Cancel", "target": "$player.opponent"}])"); },
       "/actions/0/mutations/0/target",
       "expression error at column 1: expected one queue item or event ($event.action, $event, $queue.top, "
       "$queue.items[i]; to cancel several, give for_each and target: $item), found an entity or player"},
      {"$entity.<type> of a type no template has",
       [](json& j) { j["end_conditions"][0]["when"] = "$entity.crad.size > 3"; },
       "/end_conditions/0/when",
       "expression error at column 1: no entity template has type 'crad' (did you mean 'card'?) ($entity.<type> lists "
       "the entities of a declared type)"},
  };
  for (auto& c : cases) {
    INFO(c.what);
    json j = base();
    c.change(j);
    auto errs = rt::errorsOf(j);
    INFO(rt::describe(errs));
    REQUIRE(errs.size() == 1);
    CHECK(errs[0].first == c.path);
    CHECK(errs[0].second == c.message);
  }
  // what the kinds allow: a zone's size, a count of a list, a property of one list element
  json ok = base();
  ok["actions"][0]["condition"] = "$zone.@Board.size > 2 or count($player.all) > 1 or $player.all[0].life > 0";
  ok["actions"][0]["mutations"] = json::parse(R"([{"operation": "+", "target": "$player.all", "property": "life", "value": "$zone.@Board.size"}])");
  CHECK(rt::errorsOf(ok).empty());
  // Cancel of one item or event: the top item, one of the items, each of them, the event
  json cancels = base();
  cancels["actions"][0]["mutations"] = json::parse(R"([{"operation": "Cancel", "target": "$queue.top"},
      {"operation": "Cancel", "target": "$queue.items[1]"},
      {"operation": "Cancel", "target": "$item", "for_each": "$queue.items"}])");
  cancels["entities"][0]["reactions"] = json::parse(R"([{"name": "Stop", "trigger": "$Before.$ActionPlayed",
      "mutations": [{"operation": "Cancel", "target": "$event.action"}, {"operation": "Cancel", "target": "$event"}]}])");
  CHECK(rt::errorsOf(cancels).empty());
}

// Warnings: legal, almost certainly not meant; the game still loads (validate lists them apart).
TEST_CASE("warnings: a property nothing gives a default, $entity.self in a top-level triggered action", "[loader]") {
  json j = base();
  j["entities"][0]["reactions"] = json::parse(R"([{"name": "Guard", "trigger": "$Before.$DamageTaken",
      "condition": "$entity.self.is_ready == true", "mutations": []}])");
  j["actions"][0]["mutations"] = json::parse(R"([{"operation": "=", "target": "$player.current", "property": "is_ready", "value": true}])");
  j["triggered_actions"] = json::parse(R"([{"name": "Echo", "trigger": "$After.$ActionExecuted", "condition": "$entity.self != null", "mutations": []}])");
  json r = json::parse(rulestack::validateDefinition(j.dump()));
  INFO(r.dump(2));
  CHECK(r["errors"].empty());
  REQUIRE(r["warnings"].size() == 2);
  CHECK(r["warnings"][1] == json{{"path", "/triggered_actions/0/condition"},
                                 {"message", "at column 1: $entity.self is always null here (only an entity's own actions, reactions, "
                                             "triggered actions and effects have one; a top-level action gets one from its 'source')"}});
  CHECK(r["warnings"][0] == json{{"path", "/entities/0/reactions/0/condition"},
                                 {"message", "at column 14: property 'is_ready' has no declared default: it reads null until a mutation "
                                             "sets it (declare it in a template's or the players' properties)"}});
  rt::G g(j);  // and it loads
  // an integer as a condition: it holds when not 0
  json k = base();
  k["actions"][0]["condition"] = "$turn";
  json rk = json::parse(rulestack::validateDefinition(k.dump()));
  CHECK(rk["warnings"] == json::array({json{{"path", "/actions/0/condition"},
                                            {"message", "this condition is an integer: it holds when the integer is not 0 (write '!= 0' to say so)"}}}));
  // a property named as an entity's built-in member hides it on every entity
  json t = base();
  t["entities"][0]["properties"]["type"] = "rare";
  json rt = json::parse(rulestack::validateDefinition(t.dump()));
  CHECK(rt["warnings"] == json::array({json{{"path", "/entities/0/properties/type"},
                                            {"message", "property 'type' hides the built-in member 'type' of every entity: .type "
                                                        "reads this property, null where a template does not declare it (rename it)"}}}));
  // with a default, no warning; a definition with errors lists only its errors
  j["players"]["properties"]["is_ready"] = false;
  j.erase("triggered_actions");
  CHECK_FALSE(json::parse(rulestack::validateDefinition(j.dump())).contains("warnings"));
}

// "Choose one of these zones": a list's .zone.@Z (each player's or owner's zone) and a list's
// .zone (the zones its entities are in) are lists of zones, each once; a target may be one.
TEST_CASE("a list of zones as targets: each player's Board, the zones a list's entities are in", "[loader]") {
  json j = json::parse(R"({
    "name": "Zones", "players": {"count": 2},
    "zones": [{"name": "Board", "per_player": true}, {"name": "Pile"}],
    "entities": [{"id": "Token", "type": "token"}],
    "setup": [{"operation": "Create", "template": "Token", "destination": "$zone.@Pile", "count": 2}],
    "actions": [{"name": "Place", "requires_target": "$player.all.zone.@Board", "queue": false,
                 "mutations": [{"operation": "MoveZone", "target": "$zone.@Pile.top", "destination": "$target"}]}],
    "flow": {"phases": [{"name": "Main", "valid_actions": ["Place"]}]}, "end_conditions": []})");
  rt::G g(j);
  CHECK(g.eval("count($player.all.zone.@Board)") == 2);
  CHECK(g.eval("count($entity.all.zone)") == 1);  // both tokens are in the Pile: once
  CHECK(g.eval("count($players.zone.@Pile)") == 1);  // a shared zone: once
  json legal = g.legal("0");
  CHECK(legal == json::parse(R"([{"action": "Place", "targets": ["Board:0"]}, {"action": "Place", "targets": ["Board:1"]}, {"action": "pass"}])"));
  g.play("0", json{{"action", "Place"}, {"targets", {"Board:1"}}});
  CHECK(g.zone("Board:1") == std::vector<std::string>{"Token#1"});  // the Pile's top (made first)
  CHECK(g.eval("count($entity.all.zone)") == 2);  // now the Pile and Board:1
}

TEST_CASE("a created entity's id that names nothing else is taken: Card#x, Hand, Hand:2, q, Board2", "[loader]") {
  for (const char* id : {"Card#x", "Card#", "Hand", "Hand:2", "q", "qa", "Board2", "Cards#1", "Hero"}) {
    json j = base();
    j["actions"][0]["mutations"] = json::array({{{"operation", "Create"}, {"template", "Card"}, {"destination", "$zone.@Board"}, {"id", id}}});
    auto errs = rt::errorsOf(j);
    INFO(id << ": " << rt::describe(errs));
    CHECK(errs.empty());
  }
}
