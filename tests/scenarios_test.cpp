// Every example scenario (examples/scenarios/**, converted to JSON with its game inlined
// under build/examples-json/scenarios/ by scripts/build.mjs) run through runScenario,
// natively and as wasm; a failing scenario fails with the runner's messages.
#include "test_util.h"

using rt::json;

namespace {

constexpr int kShards = 2;

std::string dir() { return std::string(RULESTACK_EXAMPLES_JSON) + "/scenarios"; }

void shard(int k) {
  auto files = rt::jsonFiles(dir(), true);
  REQUIRE(files.size() >= 1);
  for (size_t i = 0; i < files.size(); i++) {
    if ((int)(i % kShards) != k) continue;
    DYNAMIC_SECTION(files[i]) {
      std::string text = rt::readFile(dir() + "/" + files[i]);
      json sc = json::parse(text, nullptr, false);
      INFO("examples/scenarios/" << files[i]);
      REQUIRE_FALSE(sc.is_discarded());
      if (sc.is_object() && sc.contains("$error")) FAIL(sc["$error"].get<std::string>());
      // a game definition kept beside its scenarios (no steps) is not a scenario
      if (sc.contains("steps") || sc.contains("game")) {
        json r = json::parse(rulestack::runScenario(text));
        std::string failures;
        for (auto& f : r["failures"]) failures += "  step " + f["step"].dump() + ": " + f["message"].get<std::string>() + "\n";
        INFO("scenario '" << sc.value("name", std::string("?")) << "' failed:\n" << failures);
        CHECK(r["ok"] == true);
        CHECK(r["steps"].get<int>() >= 1);
      }
    }
  }
}

}  // namespace

TEST_CASE("the example scenarios are found", "[scenarios]") {
  auto files = rt::jsonFiles(dir(), true);
  INFO("looked in " << dir() << " (made by scripts/build.mjs)");
  CHECK(files.size() >= 10);
}

TEST_CASE("example scenarios, shard 0", "[scenarios]") { shard(0); }
TEST_CASE("example scenarios, shard 1", "[scenarios]") { shard(1); }

// docs/language.md, Scenarios: `illegal` names one of the reasons of "Moves"; another (a typo)
// is the scenario's error at its step, with the nearest reason, before anything runs.
TEST_CASE("a scenario's illegal step names a reason a move can be refused with", "[scenarios]") {
  json sc = json::parse(R"J({ "name": "typo", "game": {
    "name": "G", "players": { "count": 2 }, "zones": [ { "name": "Board" } ],
    "actions": [ { "name": "Noop", "mutations": [] } ], "flow": { "phases": [ { "name": "Main", "valid_actions": ["Noop"] } ] } },
    "steps": [ { "player": "1", "move": { "action": "pass" }, "illegal": "not_your_prority" } ] })J");
  json r = json::parse(rulestack::runScenario(sc.dump()));
  REQUIRE(r["failures"].size() == 1);
  CHECK(r["failures"][0]["step"] == 0);
  CHECK(r["failures"][0]["message"] == "/steps/0/illegal: unknown reason 'not_your_prority' (did you mean 'not_your_priority'?)");
  sc["steps"][0]["illegal"] = "not_your_priority";
  CHECK(json::parse(rulestack::runScenario(sc.dump()))["ok"] == true);
}
