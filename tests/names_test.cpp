// NameIndex (expr.h): the table of the names a definition declares (its symbols, zones and
// templates), filled once at load and read by the loader and the expression compiler.
#include <string>

#include "test_util.h"

TEST_CASE("a name index finds every name it was given, through its growth, and no other", "[names]") {
  rulestack::NameIndex idx;
  CHECK(idx.find("Hand") == -1);  // empty: nothing, and no table to look in
  // 3,000 names: the table doubles from 16 slots to 8,192 on the way; names that differ by one
  // character, and the empty name
  for (int i = 0; i < 3000; i++) idx.set("card" + std::to_string(i), i * 7);
  idx.set("", -5);
  for (int i = 0; i < 3000; i++) {
    INFO(i);
    REQUIRE(idx.find("card" + std::to_string(i)) == i * 7);
  }
  CHECK(idx.find("") == -5);
  CHECK(idx.find("card3000") == -1);
  CHECK(idx.find("card") == -1);
  CHECK_FALSE(idx.count("Card1"));
  CHECK(idx.count("card2999"));
  // a new value for a name already there: one entry, in its first place
  idx.set("card12", 99);
  CHECK(idx.find("card12") == 99);
  REQUIRE(idx.entries().size() == 3001);
  CHECK(idx.entries()[12].first == "card12");
  CHECK(idx.entries()[12].second == 99);
  CHECK(idx.entries()[3000].first.empty());
}

TEST_CASE("symbols are numbered in the order they are first met", "[names]") {
  rulestack::Symbols s;
  CHECK(s.intern("life") == 0);
  CHECK(s.intern("energy") == 1);
  CHECK(s.intern("life") == 0);
  CHECK(s.find("energy") == 1);
  CHECK(s.find("mana") == -1);
  REQUIRE(s.names.size() == 2);
  CHECK(s.names[1] == "energy");
}
