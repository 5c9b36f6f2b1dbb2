// Zone (state.h): a zone's entities top first, kept with room above the top. Whatever the
// order of puts and takes, it must read exactly as a plain list with its top at index 0.
#include <algorithm>
#include <vector>

#include "test_util.h"
#include "rulestack/rng.h"

using rulestack::Zone;

TEST_CASE("Zone: on top, at the bottom and out of the middle, as a list top first") {
  Zone z;
  CHECK(z.empty());
  z.push_back(1);
  z.push_back(2);
  z.putOnTop(3);  // 3 1 2
  z.putOnTop(4);  // 4 3 1 2
  CHECK(z.list() == std::vector<int32_t>{4, 3, 1, 2});
  CHECK(z.front() == 4);
  CHECK(z[2] == 1);
  CHECK(z.size() == 4);
  CHECK(z.takeOut(3));   // upper half: the cards above move down
  CHECK(z.list() == std::vector<int32_t>{4, 1, 2});
  CHECK(z.takeOut(2));   // lower half: the cards below move up
  CHECK(z.list() == std::vector<int32_t>{4, 1});
  CHECK_FALSE(z.takeOut(9));  // not there: nothing changes
  CHECK(z.list() == std::vector<int32_t>{4, 1});
  Zone other;
  other.assign({4, 1});
  CHECK(z.list() == other.list());  // the same contents, whatever room each keeps
  z.clear();
  CHECK(z.empty());
  CHECK(z.list().empty());
}

TEST_CASE("Zone: random puts and takes read as the same plain list") {
  rulestack::Rng rng;
  rng.seed(7);
  Zone z;
  std::vector<int32_t> model;  // index 0 = top
  int32_t next = 0;
  for (int step = 0; step < 5000; step++) {
    switch (rng.below(4)) {
      case 0:
        z.putOnTop(next);
        model.insert(model.begin(), next++);
        break;
      case 1:
        z.push_back(next);
        model.push_back(next++);
        break;
      default: {  // take one out: the top, or any
        if (model.empty()) break;
        int32_t e = rng.below(2) ? model.front() : model[rng.below((uint32_t)model.size())];
        REQUIRE(z.takeOut(e));
        model.erase(std::find(model.begin(), model.end(), e));
      }
    }
    REQUIRE(z.list() == model);
  }
}

TEST_CASE("Zone: taken from the top and put at the bottom, its memory stays bounded") {
  Zone z;
  for (int32_t e = 0; e < 10; e++) z.push_back(e);
  for (int32_t e = 10; e < 100000; e++) {  // a queue: the top out, a new one at the bottom
    REQUIRE(z.takeOut(z.front()));
    z.push_back(e);
  }
  CHECK(z.size() == 10);
  CHECK(z.front() == 99990);
  CHECK(z.footprint() <= 40);
}

TEST_CASE("Zone: its only card put on top and taken out again keeps the room above (no resize per few cards, as a queue's one item)") {
  Zone z;
  z.putOnTop(1);
  const size_t footprint = z.footprint();
  for (int k = 0; k < 100; k++) {
    REQUIRE(z.takeOut(1));
    CHECK(z.empty());
    z.putOnTop(1);
    CHECK(z.list() == std::vector<int32_t>{1});
    REQUIRE(z.footprint() == footprint);  // (taken from below, each took a place off the buffer, until the room ran out)
  }
}

TEST_CASE("Zone: a copy reads as the original, into a smaller or a larger buffer, and then works alone") {
  Zone big;
  for (int32_t e = 0; e < 12; e++) big.putOnTop(e);  // 11 10 ... 0, with room above
  CHECK(big.takeOut(5));
  Zone small;
  small.push_back(99);
  small = big;  // into a smaller buffer: it grows
  CHECK(small.list() == big.list());
  CHECK(small.list() == std::vector<int32_t>{11, 10, 9, 8, 7, 6, 4, 3, 2, 1, 0});
  Zone two;
  two.assign({1, 2});
  small = two;  // into a larger one: the buffer stays, the rest is room
  CHECK(small.list() == std::vector<int32_t>{1, 2});
  CHECK(small.footprint() >= 11);
  small.putOnTop(7);  // the copy changes alone
  small.push_back(8);
  CHECK(small.list() == std::vector<int32_t>{7, 1, 2, 8});
  CHECK(two.list() == std::vector<int32_t>{1, 2});
  Zone& same = small;
  small = same;  // onto itself: unchanged
  CHECK(small.list() == std::vector<int32_t>{7, 1, 2, 8});
  Zone empty;
  small = empty;
  CHECK(small.empty());
  small.putOnTop(3);
  CHECK(small.list() == std::vector<int32_t>{3});
}
