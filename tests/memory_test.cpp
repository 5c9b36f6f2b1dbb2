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
