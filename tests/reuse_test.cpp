// What simulate reuses from one game and one call to the next must not change a game:
// - Game::restart: a game restarted in place (between simulate's games, keeping the memory
//   of the lists) is the game a fresh Game(def, seed) would be, for every example, whatever
//   the game before it had left behind (a long log, a queue, a stopped resolution);
// - the compiled definition simulate keeps for its next call with the same text.
#include "bot.h"
#include "test_util.h"

namespace {

// Random moves from the game's state to its end (or `cap` moves); the hashes on the way.
std::vector<uint64_t> play(rulestack::Game& g, uint64_t seed, int cap) {
  rulestack::Rng rng;
  rng.seed(seed);
  std::vector<rulestack::Move> moves;
  std::vector<uint64_t> hashes{g.hash()};
  for (int n = 0; n < cap && !g.state().over(); n++) {
    int who = g.nextToAct();
    if (who < 0) break;
    g.legalMoves(who, moves);
    if (moves.empty()) break;
    g.applyUnchecked(who, moves[rng.below((uint32_t)moves.size())]);
    hashes.push_back(g.hash());
  }
  return hashes;
}

}  // namespace

TEST_CASE("a restarted game is the fresh game of its seed", "[reuse]") {
  for (const std::string& file : rt::jsonFiles(RULESTACK_EXAMPLES_JSON, false)) {
    std::vector<rulestack::DefError> errs;
    auto def = rulestack::compileDefinition(rt::readFile(std::string(RULESTACK_EXAMPLES_JSON) + "/" + file), errs);
    REQUIRE(def);
    for (int stopAfter : {7, 400}) {  // restarted mid-game and after a whole game
      INFO(file << ", restarted after " << stopAfter << " moves");
      rulestack::Game reused(def, 3, true);
      play(reused, 11, stopAfter);
      reused.restart(5);
      rulestack::Game fresh(def, 5, true);
      CHECK(reused.hash() == fresh.hash());
      CHECK(reused.log.size() == fresh.log.size());
      CHECK(play(reused, 23, 400) == play(fresh, 23, 400));
      CHECK(reused.log.size() == fresh.log.size());
    }
  }
}

// Without a log, the first restart keeps where the setup starts to depend on the seed (its first
// draw from the RNG) and the later ones start from there: still the fresh game of each seed.
TEST_CASE("a game restarted from the setup's kept start is the fresh game of its seed", "[reuse]") {
  for (const std::string& file : rt::jsonFiles(RULESTACK_EXAMPLES_JSON, false)) {
    std::vector<rulestack::DefError> errs;
    auto def = rulestack::compileDefinition(rt::readFile(std::string(RULESTACK_EXAMPLES_JSON) + "/" + file), errs);
    REQUIRE(def);
    rulestack::Game reused(def, 3, false);
    for (uint64_t seed : {5ull, 9ull, 123456789ull, 5ull}) {
      INFO(file << ", seed " << seed);
      play(reused, 11, 30);
      reused.restart(seed);
      rulestack::Game fresh(def, seed, false);
      CHECK(reused.hash() == fresh.hash());
      CHECK(play(reused, 23, 400) == play(fresh, 23, 400));
    }
    rulestack::Game copy(def);  // a copy restarts from the start its original kept
    copy.copyFrom(reused);
    copy.restart(77);
    CHECK(copy.hash() == rulestack::Game(def, 77, false).hash());
  }
}

TEST_CASE("simulate gives the same games whatever it compiled before", "[reuse]") {
  std::string dir = RULESTACK_EXAMPLES_JSON;
  std::string duel = rt::readFile(dir + "/duel.json"), nexus = rt::readFile(dir + "/nexus.json");
  const char* options = R"({"games": 5, "seed": 3, "hashes": true})";
  std::string first = rulestack::simulate(duel, options);
  CHECK(rulestack::simulate(duel, options) == first);  // the kept definition
  std::string other = rulestack::simulate(nexus, options);
  CHECK(other != first);
  CHECK(rulestack::simulate(duel, options) == first);  // compiled again after another text
  CHECK(rulestack::simulate(nexus, options) == other);
  // a definition that does not compile is not kept in place of the last good one
  CHECK(rulestack::simulate("{\"name\": 1}", options).find("\"errors\"") != std::string::npos);
  CHECK(rulestack::simulate(duel, options) == first);
}
