// docs/language.md's table of kinds ("Kinds: what is checked at load") is the loader's: every
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
  size_t at = doc.find("### Kinds: what is checked at load");
  REQUIRE(at != std::string::npos);
  size_t table = doc.find("| expression | kind |", at);
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
