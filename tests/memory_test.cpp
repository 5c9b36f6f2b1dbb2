// Out of memory is the engine's condition, not a fault of what it was given: a load, restore or
// validate that runs out of memory says so ("outOfMemory": the package throws a RangeError),
// never a definition or snapshot error, and the engine works afterwards. The allocation that
// fails is chosen by a replacement operator new (this test binary's only one).
#include <cstdlib>
#include <functional>
#include <new>

#include "test_util.h"

using rt::json;

namespace {
long long failAfter = -1;  // allocations until one fails; -1: none fails
long long allocations = 0;
}  // namespace

void* operator new(std::size_t n) {
  allocations++;
  if (failAfter >= 0 && failAfter-- == 0) throw std::bad_alloc();
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
// every other form goes through the one above (and all free what malloc gave: the sanitizers
// check that allocation and release match)
void* operator new[](std::size_t n) { return operator new(n); }
// (nothrow forms are not made to fail: their callers cope by design, e.g. stable_sort's buffer)
void* operator new(std::size_t n, const std::nothrow_t&) noexcept { return std::malloc(n ? n : 1); }
void* operator new[](std::size_t n, const std::nothrow_t& t) noexcept { return operator new(n, t); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }

namespace {
// Runs `call` with the n-th allocation from now failing.
std::string failingAt(long long n, const std::function<std::string()>& call) {
  failAfter = n;
  std::string r = call();
  failAfter = -1;
  return r;
}
// How many allocations the move makes (the session ready for it), and the state hash after it.
long long allocationsOf(rulestack::Session& s, const std::string& player, const std::string& move, std::string& after) {
  long long before = allocations;
  const std::string answer = s.apply(player, move);
  const long long count = allocations - before;  // (the move's own: not the parse of its answer)
  REQUIRE(json::parse(answer)["ok"] == true);
  after = s.stateHash();
  REQUIRE(count > 10);
  return count;
}

// The move, its n-th allocation failing, is refused as out of memory, the game as it was.
void checkRefusedUnchanged(rulestack::Session& s, const std::string& player, const std::string& move, long long n) {
  const std::string hash = s.stateHash(), log = s.log(), view = s.view(player);
  json r = json::parse(failingAt(n, [&] { return s.apply(player, move); }));
  CHECK(r["ok"] == false);
  CHECK(r["reason"] == "runtime_error");
  CHECK(s.stateHash() == hash);
  CHECK(s.log() == log);
  CHECK(s.view(player) == view);
}
}  // namespace

TEST_CASE("running out of memory while loading is said as such, never as a bad definition", "[reliability]") {
  const std::string duel = rt::readFile(std::string(RULESTACK_EXAMPLES_JSON) + "/duel.json");
  rulestack::Session ok;
  REQUIRE(ok.load(duel, "7") == "");
  const std::string snapshot = ok.snapshot();
  // how many allocations each call makes; then each fails at its first, in the middle
  // (compiling the definition) and at its last allocation (the setup, the restore)
  long long fewest = -1;
  for (int i = 0; i < 3; i++) {
    long long before = allocations;
    rulestack::Session s;
    if (i == 0) s.load(duel, "7");
    else if (i == 1) s.restore(duel, snapshot);
    else rulestack::validateDefinition(duel);
    long long n = allocations - before;
    fewest = fewest < 0 ? n : std::min(fewest, n);
  }
  REQUIRE(fewest > 100);
  for (long long n : {0LL, fewest / 2, fewest - 1}) {
    INFO("allocation " << n);
    for (const char* what : {"createGame", "restore", "validate"}) {
      INFO(what);
      rulestack::Session s;
      std::string r = failingAt(n, [&] {
        std::string w = what;
        return w == "createGame" ? s.load(duel, "7") : w == "restore" ? s.restore(duel, snapshot) : rulestack::validateDefinition(duel);
      });
      json j = json::parse(r);
      CHECK(j.value("outOfMemory", false));
      CHECK(j["errors"][0]["message"] == std::string(what) + ": the engine is out of memory");
      CHECK_FALSE(s.loaded());
    }
  }
  // a scenario run: out of memory is a failed run, never an exception across the boundary
  json scenario = {{"name", "s"}, {"game", json::parse(duel)}, {"seed", 7}, {"steps", json::array({json{{"expect", "$turn == 1"}}})}};
  const std::string text = scenario.dump();
  REQUIRE(json::parse(rulestack::runScenario(text))["ok"] == true);  // (a first run grows the scratch buffers)
  long long before = allocations;
  std::string passed = rulestack::runScenario(text);  // (counted alone: not the parse below)
  long long runs = allocations - before;
  REQUIRE(json::parse(passed)["ok"] == true);
  // (the first, a quarter and the middle one)
  for (long long n : {0LL, runs / 4, runs / 2}) {
    INFO("runScenario, allocation " << n);
    json r = json::parse(failingAt(n, [&] { return rulestack::runScenario(text); }));
    CHECK(r["ok"] == false);
    CHECK(r["failures"][0]["message"] == "runScenario: the engine is out of memory");
  }
  // nothing was left broken: the same game loads and plays as before
  rulestack::Session again;
  REQUIRE(again.load(duel, "7") == "");
  CHECK(again.stateHash() == ok.stateHash());
}

TEST_CASE("a move that runs out of memory is refused with runtime_error and changes nothing", "[reliability]") {
  const std::string duel = rt::readFile(std::string(RULESTACK_EXAMPLES_JSON) + "/duel.json");
  rulestack::Session ok;
  REQUIRE(ok.load(duel, "7") == "");
  const std::string snapshot = ok.snapshot();
  const std::string player = json::parse(ok.view(""))["toAct"][0].get<std::string>();
  const json moves = json::parse(ok.legalMoves(player));
  REQUIRE(moves.size() >= 2);
  const std::string move = moves[1].dump();  // (a card played: the move resolves and answers with its events)
  rulestack::Session warm, counted;  // (a first move grows the engine's scratch buffers: counted after one)
  REQUIRE(warm.restore(duel, snapshot) == "");
  REQUIRE(json::parse(warm.apply(player, move))["ok"] == true);
  REQUIRE(counted.restore(duel, snapshot) == "");
  counted.stateHash(), counted.log(), counted.view(player);  // (as each session below is before its move)
  std::string after;
  const long long count = allocationsOf(counted, player, move, after);
  // every allocation of the move, in turn, the one that fails: in the game's resolution, in
  // the undo entry, in writing its events
  for (long long n = 0; n < count; n++) {
    INFO("allocation " << n << " of " << count);
    rulestack::Session s;
    REQUIRE(s.restore(duel, snapshot) == "");
    checkRefusedUnchanged(s, player, move, n);
    CHECK_FALSE(s.undo());  // no undo entry was kept
    // and the move is made when memory allows
    CHECK(json::parse(s.apply(player, move))["ok"] == true);
    CHECK(s.stateHash() == after);
  }
}

TEST_CASE("simulate that runs out of memory says so, not a game's error", "[reliability]") {
  const std::string duel = rt::readFile(std::string(RULESTACK_EXAMPLES_JSON) + "/duel.json");
  REQUIRE(json::parse(rulestack::simulate(duel, R"({"games":3})"))["games"] == 3);  // (compiled once: kept)
  long long before = allocations;
  rulestack::simulate(duel, R"({"games":3})");
  const long long count = allocations - before;
  REQUIRE(count > 10);
  for (long long n : {0LL, count / 3, count / 2, count - 1}) {
    INFO("allocation " << n << " of " << count);
    const std::string options = R"({"games":3})";  // (made here: in wasm32 a string this long is allocated)
    json r = json::parse(failingAt(n, [&] { return rulestack::simulate(duel, options); }));
    CHECK(r.value("outOfMemory", false));
    CHECK(r["errors"][0]["message"] == "simulate: the engine is out of memory");
  }
}

TEST_CASE("a move that runs out of memory while it recovers from a run-time error changes nothing either", "[reliability]") {
  // player 1's pass ends Main; Broken's on_enter fails (a MoveZone to a player), so the move
  // is rolled back and the game ends in a draw: each allocation of that recovery fails in turn
  const std::string def = R"J({
    "name": "Faults", "players": { "count": 2, "properties": { "n": 0 } },
    "zones": [ { "name": "Hand", "per_player": true }, { "name": "Board" } ],
    "entities": [ { "id": "Card", "type": "card" } ],
    "setup": [ { "operation": "Create", "template": "Card", "destination": "$item.zone.@Hand", "for_each": "$player.all" } ],
    "actions": [ { "name": "Good", "queue": true, "mutations": [ { "target": "$player.current", "property": "n", "operation": "+", "value": 1 } ] } ],
    "flow": { "phases": [ { "name": "Main", "valid_actions": ["Good"] },
      { "name": "Broken", "on_enter": [ { "target": "$entity.all", "destination": "$player.current", "operation": "MoveZone" } ], "valid_actions": [] } ] },
    "end_conditions": [] })J";
  const std::string pass = R"({"action":"pass"})", one = "1";
  auto ready = [&](rulestack::Session& s) {
    REQUIRE(s.load(def, "1") == "");
    REQUIRE(json::parse(s.apply("0", pass))["ok"] == true);
    s.stateHash(), s.log(), s.view(one);
  };
  rulestack::Session warm, counted;
  ready(warm);
  REQUIRE(json::parse(warm.apply(one, pass))["ok"] == true);
  ready(counted);
  std::string after;
  const long long count = allocationsOf(counted, one, pass, after);
  for (long long n = 0; n < count; n++) {
    INFO("allocation " << n << " of " << count);
    rulestack::Session s;
    ready(s);
    checkRefusedUnchanged(s, one, pass, n);
    CHECK(json::parse(s.apply(one, pass))["ok"] == true);
    CHECK(s.stateHash() == after);
  }
}
