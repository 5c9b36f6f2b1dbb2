// Lists built in the evaluator's scratch (eval_cold.cpp): a `where` reads its list in place and
// notes the elements it keeps as bits, then puts them after whatever its test added there. So
// a test that builds lists of its own (a `where` inside a `where`) and a list of more than 64
// elements give exactly the elements whose test holds, in list order.
#include "test_util.h"

namespace {
const char* kPile = R"J({
  "name": "Lists",
  "players": { "count": 2 },
  "zones": [{ "name": "Pile" }],
  "entities": [{ "id": "Card", "type": "card", "tags": ["plain"], "properties": { "power": 0 } }],
  "actions": [{ "name": "Noop", "mutations": [] }],
  "setup": [
    { "operation": "Create", "template": "Card", "count": 70, "destination": "$zone.@Pile" },
    { "target": "$item", "property": "power", "operation": "=", "value": "$item.index", "for_each": "$zone.@Pile.entities" }
  ],
  "flow": { "phases": [{ "name": "Main", "valid_actions": ["Noop"] }] }
})J";
}  // namespace

TEST_CASE("a where keeps the elements whose test holds, in order, past 64 and with lists made in its test", "[eval]") {
  rt::G g(rt::json::parse(kPile));
  CHECK(g.eval("$zone.@Pile.entities.size") == 70);
  CHECK(g.eval("$zone.@Pile.entities[69].power") == 69);
  // past the 64th element
  CHECK(g.eval("$zone.@Pile.entities.where($candidate.power >= 60).size") == 10);
  CHECK(g.eval("$zone.@Pile.entities.where($candidate.power >= 60)[0].power") == 60);
  CHECK(g.eval("$zone.@Pile.entities.where($candidate.power >= 60)[4].power") == 64);
  CHECK(g.eval("$zone.@Pile.entities.where($candidate.power >= 60)[9].power") == 69);
  CHECK(g.eval("$zone.@Pile.entities.where($candidate.power % 2 == 1).size") == 35);
  CHECK(g.eval("$zone.@Pile.entities.where($candidate.power % 2 == 1)[34].power") == 69);
  // a where straight on a zone, and a where in a where's test (its lists come between the elements)
  CHECK(g.eval("$zone.@Pile.where($candidate.power < 2).size") == 2);
  const char* nested =
      "$zone.@Pile.entities.where($candidate.power % 10 == 0 and "
      "$zone.@Pile.entities.where($candidate.power < 3 and $candidate.tags.contains('plain')).size == 3)";
  CHECK(g.eval(std::string(nested) + ".size") == 7);
  CHECK(g.eval(std::string(nested) + "[1].power") == 10);
  CHECK(g.eval(std::string(nested) + "[6].power") == 60);
  // a sum over a where, and over a zone
  CHECK(g.eval("sum($zone.@Pile.entities.where($candidate.power > 65), 'power')") == 66 + 67 + 68 + 69);
  CHECK(g.eval("sum($zone.@Pile, 'power')") == 69 * 70 / 2);
  CHECK(g.eval("$zone.@Pile.entities.where($candidate.power > 100).size") == 0);
}

TEST_CASE("two lists are equal when their elements are, in order; a list equals itself", "[eval]") {
  rt::G g(rt::json::parse(kPile));
  CHECK(g.holds("$zone.@Pile.entities[0].tags == $zone.@Pile.entities[1].tags"));
  CHECK(g.holds("$zone.@Pile.entities == $zone.@Pile.entities"));
  CHECK(g.holds("$zone.@Pile.entities.where($candidate.power < 2) == $zone.@Pile.entities.where($candidate.power <= 1)"));
  CHECK(g.holds("$zone.@Pile.entities.where($candidate.power > 100) == $entity.card.where($candidate.power < 0)"));  // both empty
  // another length, other elements: not equal
  CHECK(g.holds("$zone.@Pile.entities.where($candidate.power < 2) != $zone.@Pile.entities.where($candidate.power < 3)"));
  CHECK(g.holds("$zone.@Pile.entities.where($candidate.power == 0) != $zone.@Pile.entities.where($candidate.power == 1)"));
  CHECK(g.holds("$zone.@Pile.entities[0].tags != $zone.@Pile.entities.where($candidate.power == 0)"));  // strings, an entity
  // a list is not its zone (a zone is one value, compared as itself)
  CHECK(g.holds("$zone.@Pile.entities != $zone.@Pile"));
}

TEST_CASE("a where whose test does not read its $candidate tests once: wheres nested 40 deep in tests are quick", "[eval]") {
  // over 70 cards each level would test 70 times: 70^40 tests without it
  auto nest = [](const char* inner) {
    std::string e = "count(";
    for (int i = 0; i < 40; i++) e += "$zone.@Pile.entities.where(";
    e += inner;
    for (int i = 0; i < 40; i++) e += ")";
    return e + ") > 0";
  };
  rt::json def = rt::json::parse(kPile);
  def["actions"] = rt::json::array({{{"name", "Deep"}, {"condition", nest("$turn > 0")}, {"mutations", rt::json::array()}},
                                    {{"name", "Never"}, {"condition", nest("$turn > 100")}, {"mutations", rt::json::array()}},
                                    {{"name", "Noop"}, {"mutations", rt::json::array()}}});
  def["flow"]["phases"][0]["valid_actions"] = rt::json::array({"Deep", "Never", "Noop"});
  rt::G g(def);
  std::vector<std::string> names;
  for (auto& m : g.legal("0")) names.push_back(m["action"]);
  CHECK(names == std::vector<std::string>{"Deep", "Noop", "pass"});
}
