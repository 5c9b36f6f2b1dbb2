// Session::view keeps each viewer's text until the game changes. Whatever changed it (a move,
// a refused move, undo, restore, a new game), the view given next must be the one a session
// that never saw the earlier states gives for the same state (restored from its snapshot).
#include "json_io.h"
#include "test_util.h"

using rt::json;

namespace {

const char* kViewers[] = {"", "0", "1"};

std::vector<std::string> viewsOf(const rulestack::Session& s) {
  std::vector<std::string> v;
  for (const char* p : kViewers) v.push_back(s.view(p));
  return v;
}

// The views of s's state, written by a fresh session (no view of it kept before).
std::vector<std::string> freshViews(const std::string& def, const rulestack::Session& s) {
  rulestack::Session t;
  REQUIRE(t.restore(def, s.snapshot()) == "");
  return viewsOf(t);
}

std::string firstToAct(const rulestack::Session& s) {
  json v = json::parse(s.view(""));
  REQUIRE(!v["toAct"].empty());
  return v["toAct"][0].get<std::string>();
}

}  // namespace

TEST_CASE("a kept view is written anew after every change of the game", "[view-cache]") {
  const std::string duel = rt::readFile(std::string(RULESTACK_EXAMPLES_JSON) + "/duel.json");
  rulestack::Session s;
  CHECK(s.view("0") == "null");  // no game yet
  REQUIRE(s.load(duel, "7") == "");
  std::vector<std::string> start = viewsOf(s);
  CHECK(viewsOf(s) == start);  // asked again: the same text
  CHECK(freshViews(duel, s) == start);

  // moves: each changes the views (the turn's events move cards, the priority passes)
  std::vector<std::vector<std::string>> seen{start};
  for (int i = 0; i < 8; i++) {
    std::string who = firstToAct(s);
    json moves = json::parse(s.legalMoves(who));
    REQUIRE(!moves.empty());
    REQUIRE(json::parse(s.apply(who, moves[(size_t)i % moves.size()].dump()))["ok"] == true);
    std::vector<std::string> now = viewsOf(s);
    INFO("move " << i);
    CHECK(now != seen.back());
    CHECK(now == freshViews(duel, s));
    seen.push_back(now);
  }

  SECTION("a refused move leaves the views as they were") {
    std::string who = firstToAct(s);
    std::string other = who == "0" ? "1" : "0";
    json r = json::parse(s.apply(other, R"({"action":"pass"})"));
    REQUIRE(r["ok"] == false);
    r = json::parse(s.apply(who, R"({"action":"NoSuchAction"})"));
    REQUIRE(r["ok"] == false);
    CHECK(viewsOf(s) == seen.back());
    CHECK(freshViews(duel, s) == seen.back());
  }
  SECTION("undo gives back each earlier state's views") {
    for (size_t i = seen.size() - 1; i > 0; i--) {
      REQUIRE(s.undo());
      INFO("undone to " << i - 1);
      CHECK(viewsOf(s) == seen[i - 1]);
    }
    CHECK_FALSE(s.undo());
    CHECK(viewsOf(s) == start);
  }
  SECTION("restore: the restored state's views") {
    rulestack::Session t;
    REQUIRE(t.load(duel, "7") == "");
    const std::string snap = t.snapshot();  // the start
    REQUIRE(s.restore(duel, snap) == "");
    CHECK(viewsOf(s) == start);
  }
  SECTION("a new game: its views") {
    REQUIRE(s.load(duel, "8") == "");
    rulestack::Session t;
    REQUIRE(t.load(duel, "8") == "");
    CHECK(viewsOf(s) == viewsOf(t));
    CHECK(viewsOf(s) != start);
    // and another definition (other zones, properties and templates)
    const std::string ttt = rt::readFile(std::string(RULESTACK_EXAMPLES_JSON) + "/tictactoe.json");
    REQUIRE(s.load(ttt, "7") == "");
    REQUIRE(t.load(ttt, "7") == "");
    CHECK(viewsOf(s) == viewsOf(t));
  }
}

TEST_CASE("a view layout kept across changes of the game writes what a new one writes", "[view-cache]") {
  // (what a scenario's `do` changes: engine-side mutations, then views of the new state)
  json def = json::parse(rt::readFile(std::string(RULESTACK_EXAMPLES_JSON) + "/duel.json"));
  rt::G g(def, 7);
  rulestack::ViewLayout layout;
  auto same = [&](const char* when) {
    INFO(when);
    for (int v = -2; v < 2; v++) CHECK(rulestack::viewText(g.g(), v, layout) == rulestack::viewText(g.g(), v));
  };
  same("at the start");
  std::string before = rulestack::viewText(g.g(), -2, layout);
  g.run(json::parse(R"([{"operation": "DrawCard", "target": "$player.active", "count": 2}])"));
  CHECK(rulestack::viewText(g.g(), -2, layout) != before);
  same("after a `do`");
  // another definition through the same layout: made again for it
  rt::G other(json::parse(rt::readFile(std::string(RULESTACK_EXAMPLES_JSON) + "/nexus.json")), 7);
  for (int v = -2; v < 2; v++) CHECK(rulestack::viewText(other.g(), v, layout) == rulestack::viewText(other.g(), v));
  same("back to the first");
}
