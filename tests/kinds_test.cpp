// docs/language.md's table of kinds ("Types: what is checked at load") is the loader's: every
// expression the table lists is compiled and must have the kind the table gives it.
#include <map>
#include <regex>

#include "test_util.h"
#include "types.h"

using rt::json;

namespace {

// The table's rows: (the first column's text, the kind column's text).
std::vector<std::pair<std::string, std::string>> kindRows() {
  std::string doc = rt::readFile(std::string(RULESTACK_SOURCE_DIR) + "/docs/language.md");
  size_t at = doc.find("### Types: what is checked at load");
  REQUIRE(at != std::string::npos);
  size_t table = doc.find("| expression | type |", at);
  REQUIRE(table != std::string::npos);
  std::vector<std::pair<std::string, std::string>> rows;
  std::istringstream lines(doc.substr(table));
  std::string line;
  std::getline(lines, line);  // header
  std::getline(lines, line);  // |---|---|
  while (std::getline(lines, line) && line.rfind("|", 0) == 0) {
    size_t mid = line.find(" | ");
    rows.push_back({line.substr(2, mid - 2), line.substr(mid + 3, line.size() - mid - 5)});
  }
  return rows;
}

rulestack::Kind kindOfWord(const std::string& k) {
  using rulestack::Kind;
  if (k.rfind("integer", 0) == 0) return Kind::Int;
  if (k.rfind("boolean", 0) == 0) return Kind::Bool;
  if (k.rfind("string", 0) == 0) return Kind::Str;
  if (k.rfind("entity or player", 0) == 0) return Kind::Ent;
  if (k.rfind("zone", 0) == 0) return Kind::Zone;
  if (k.rfind("queue item", 0) == 0) return Kind::Item;
  if (k.rfind("list", 0) == 0) return Kind::List;
  return Kind::Unknown;
}

// A listed form as a whole expression: a member on a value that has it, a function called.
std::string asExpression(const std::string& form) {
  static const std::map<std::string, std::string> words = {
      {"count", "count($player.all)"}, {"sum", "sum($player.all, 'life')"}, {"min", "min(1, 2)"}, {"max", "max(1, 2)"},
      {"abs", "abs(-1)"}, {"and", "true and false"}, {"or", "true or false"}, {"not", "not true"},
      {"$entity.<type>", "$entity.card"}, {"$players[i]", "$players[0]"}, {".where(...)", "$player.all.where(true)"},
      {".contains(...)", "$player.all.contains($player.current)"}, {"x.zone.@Z", "$player.current.zone.@Hand"},
      {"$zone.@Z", "$zone.@Hand"}, {".top", "$zone.@Hand.top"}, {".entities", "$zone.@Hand.entities"},
      {".cancelled", "$queue.top.cancelled"}};
  auto w = words.find(form);
  if (w != words.end()) return w->second;
  if (form[0] == '.') return "$player.current" + form;
  return form;
}

}  // namespace

TEST_CASE("every expression in the language reference's table of kinds has that kind", "[kinds]") {
  json def = json::parse(R"({
    "name": "K", "players": {"count": 2, "properties": {"life": 20}},
    "zones": [{"name": "Hand", "per_player": true}],
    "entities": [{"id": "Card", "type": "card", "properties": {"cost": 1}}],
    "actions": [{"name": "Go", "mutations": []}],
    "flow": {"phases": [{"name": "Main", "valid_actions": ["Go"]}]}, "end_conditions": []})");
  rt::G g(def);
  auto& d = const_cast<rulestack::Def&>(g.game->def());
  rulestack::Typer typer(d);
  int checked = 0;
  for (auto& [forms, kindText] : kindRows()) {
    rulestack::Kind want = kindOfWord(kindText);
    if (want == rulestack::Kind::Unknown) continue;  // the property row: "the kind of its defaults"
    // the backticked forms, leaving out remarks in parentheses
    std::string text = std::regex_replace(forms, std::regex(R"(\([^)]*`[^)]*\))"), "");
    std::regex tick("`([^`]+)`");
    for (auto it = std::sregex_iterator(text.begin(), text.end(), tick); it != std::sregex_iterator(); ++it) {
      std::string expr = asExpression((*it)[1]);
      INFO((*it)[1] << " as " << expr << " (the table says " << kindText << ")");
      std::vector<rulestack::DefError> errs;
      rulestack::Expr e;
      REQUIRE(rulestack::compileCondition(d, json(expr), "/test", e, errs));
      CHECK(typer.of(e.root) == want);
      checked++;
    }
    // the words of the integer row that are not in backticks
    if (want == rulestack::Kind::Int)
      for (const char* w : {"3", "1 + 2"}) {
        rulestack::Expr e;
        std::vector<rulestack::DefError> errs;
        REQUIRE(rulestack::compileCondition(d, json(w), "/test", e, errs));
        CHECK(typer.of(e.root) == want);
      }
  }
  CHECK(checked >= 40);
}

namespace {

// The "Types: what is checked at load" section of the reference, up to the next heading.
std::string typesSection() {
  std::string doc = rt::readFile(std::string(RULESTACK_SOURCE_DIR) + "/docs/language.md");
  size_t at = doc.find("### Types: what is checked at load");
  REQUIRE(at != std::string::npos);
  return doc.substr(at, doc.find("\n## ", at) - at);
}

// A definition where every reference is at home: an entity's reaction (so $entity.self and
// $event), with a requires_target over players ($target) and a for_each over players
// ($item); `misuse` is its one mutation.
json withMisuse(const json& misuse, const json& from = "$player.all") {
  json def = json::parse(R"({
    "name": "T", "players": {"count": 2, "properties": {"life": 20}},
    "zones": [{"name": "Hand", "per_player": true}, {"name": "Board"}],
    "entities": [{"id": "Card", "type": "card", "properties": {"cost": 1},
      "reactions": [{"name": "R", "trigger": "$After.OnZoneEnter", "mutations": []}]}],
    "actions": [{"name": "Go", "mutations": []}],
    "flow": {"phases": [{"name": "Main", "valid_actions": ["Go"]}]}, "end_conditions": []})");
  json& r = def["entities"][0]["reactions"][0];
  r["requires_target"] = from;
  r["mutations"].push_back(misuse);
  return def;
}

const std::string kAt = "/entities/0/reactions/0/mutations/0";

// The one error of a definition (path, message), or ("", "") when it loads.
std::pair<std::string, std::string> oneError(const json& def) {
  auto errs = rt::errorsOf(def);
  INFO(rt::describe(errs));
  REQUIRE(errs.size() <= 1);
  return errs.empty() ? std::pair<std::string, std::string>{} : errs[0];
}

// Uses an expression of type `k` where it cannot go, and checks the error names that type:
// arithmetic for what is not a number, a destination for what is.
void checkTypeError(const std::string& expr, rulestack::Kind k, const std::string& from = "$player.all") {
  using rulestack::Kind;
  const std::string name = rulestack::kindName(k);
  INFO(expr << " (" << name << ")");
  const std::string x = "(" + expr + ")";  // (an expression, whatever it starts with)
  if (k == Kind::Int || k == Kind::Bool) {
    auto e = oneError(withMisuse({{"target", "$entity.all"}, {"operation", "MoveZone"}, {"destination", x}}, from));
    CHECK(e.first == kAt + "/destination");
    CHECK(e.second.find("expected a zone (or an entity: its zone), found " + name) != std::string::npos);
  } else {
    json m = {{"target", "$player.current"}, {"property", "life"}, {"operation", "+"}, {"value", x + " + 1"}};
    if (expr.find("$item") != std::string::npos) m["for_each"] = "$player.all";
    auto e = oneError(withMisuse(m, from));
    CHECK(e.first == kAt + "/value");
    CHECK(e.second.find("'+' takes numbers, but its left side is " + name) != std::string::npos);
  }
}

}  // namespace

TEST_CASE("every $ reference, member and event field has a documented type", "[kinds]") {
  std::string section = typesSection();
  // the references the parser knows, as its own message lists them
  std::vector<rulestack::DefError> errs;
  rulestack::Expr e;
  rt::G g(withMisuse({{"operation", "Draw"}}));
  auto& d = const_cast<rulestack::Def&>(g.game->def());
  CHECK_FALSE(rulestack::compileCondition(d, json("$nope"), "/test", e, errs));
  REQUIRE(errs.size() == 1);
  std::regex ref(R"(\$[a-z]+)");
  int refs = 0;
  const std::string& msg = errs[0].message;
  for (auto it = std::sregex_iterator(msg.begin(), msg.end(), ref); it != std::sregex_iterator(); ++it) {
    std::string r = (*it)[0];
    if (r == "$nope") continue;
    INFO(r);
    CHECK(section.find("`" + r) != std::string::npos);
    refs++;
  }
  CHECK(refs == 14);
  // every built-in member (health is the property Damage changes, not a member)
  const int* b = &d.b.id;
  for (size_t k = 0; k < sizeof(rulestack::Builtins) / sizeof(int); k++) {
    std::string m = d.syms.names[b[k]];
    if (m == "health") continue;
    INFO("." << m);
    CHECK(section.find("`." + m + "`") != std::string::npos);
  }
  for (const char* f : {"action", "player", "entity", "zone", "from", "damage_value", "source", "phase", "winner", "turn"}) {
    INFO("$event." << f);
    CHECK(section.find(std::string("`$event.") + f + "`") != std::string::npos);
  }
}

TEST_CASE("every form the types table lists, used where its type cannot go, is a load error naming its type", "[kinds]") {
  int checked = 0;
  for (auto& [forms, typeText] : kindRows()) {
    rulestack::Kind k = kindOfWord(typeText);
    if (k == rulestack::Kind::Unknown) continue;
    std::string text = std::regex_replace(forms, std::regex(R"(\([^)]*`[^)]*\))"), "");
    std::regex tick("`([^`]+)`");
    for (auto it = std::sregex_iterator(text.begin(), text.end(), tick); it != std::sregex_iterator(); ++it) {
      std::string expr = asExpression((*it)[1]);
      checkTypeError(expr, k);
      checked++;
    }
  }
  CHECK(checked >= 40);
  // the one-element references: the type of what they come from
  using rulestack::Kind;
  checkTypeError("$target", Kind::Ent);                          // from $player.all
  checkTypeError("$targets[0]", Kind::Ent);
  checkTypeError("$target", Kind::Zone, "$zone.@Board");         // the selector form: the zone itself
  checkTypeError("$target", Kind::Item, "$queue.items");
  checkTypeError("$item", Kind::Ent);                            // for_each $player.all
  checkTypeError("$player.all[1]", Kind::Ent);
  checkTypeError("$player.all.zone.@Hand[0]", Kind::Zone);
  checkTypeError("$entity.card[0].tags[0]", Kind::Str);
  // $candidate: the elements of the list filtered
  auto e = oneError(withMisuse({{"target", "$player.current"}, {"property", "life"}, {"operation", "+"},
                                {"value", "count($player.all.where($candidate + 1 > 0))"}}));
  CHECK(e.first == kAt + "/value");
  CHECK(e.second == "expression error at column 36: '+' takes numbers, but its left side is an entity or player");
  e = oneError(withMisuse({{"operation", "Draw"}}, {{"from", "$queue.items"}, {"filter", "$candidate + 1 > 0"}}));
  CHECK(e.first == "/entities/0/reactions/0/requires_target/filter");
  CHECK(e.second == "expression error at column 12: '+' takes numbers, but its left side is a queue item");
}
