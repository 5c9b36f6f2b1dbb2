// Golden state hashes: every example game, played by the random bot over fixed seeds (and
// the Duel, Crazy Eights and Nexus by MCTS too), must end in exactly the states recorded here. A speed-up
// of the engine (expression evaluation, legal-move enumeration, the state layout) must not
// change a single game: the same table holds natively and in wasm. The digest is FNV-1a
// over each game's final state hash, in game order.
//
// When a change is meant to change the games (a rule fixed), regenerate the table:
// RULESTACK_GOLDEN_WRITE=tests/golden_hashes.inc build/native/rulestack_tests "[golden]".
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>

#include "names.h"
#include "test_util.h"

using rt::json;

namespace {

uint64_t digestOf(const json& hashes) {
  uint64_t h = 1469598103934665603ull;
  for (const auto& x : hashes)
    for (char ch : x.get<std::string>()) h = (h ^ (uint8_t)ch) * 1099511628211ull;
  return h;
}

using rulestack::hex16;  // (names.h: the engine's own)

struct Golden { const char* file; const char* options; const char* digest; };

// Recorded with the engine of main at 723998b (before the perf-core work).
const Golden kGolden[] = {
#include "golden_hashes.inc"
};

}  // namespace

TEST_CASE("every example ends in the recorded state hashes over fixed seeds", "[golden]") {
  std::string dir = RULESTACK_EXAMPLES_JSON;
  std::ostringstream table;
  std::string diffs;
  std::map<std::string, int> seen;
  for (const Golden& g : kGolden) {
    std::string text = rt::readFile(dir + "/" + g.file);
    REQUIRE(!text.empty());
    seen[g.file]++;
    json r = json::parse(rulestack::simulate(text, g.options));
    INFO(g.file << " " << g.options);
    CHECK(r["errors"] == 0);
    std::string got = hex16(digestOf(r["hashes"]));
    table << "    {\"" << g.file << "\", R\"(" << g.options << ")\", \"" << got << "\"},\n";
    if (got != g.digest) diffs += std::string(g.file) + " " + g.options + ": digest " + got + ", recorded " + g.digest + "\n";
  }
  if (const char* out = std::getenv("RULESTACK_GOLDEN_WRITE")) std::ofstream(out) << table.str();
  INFO("the table as it is now (RULESTACK_GOLDEN_WRITE=FILE writes it there):\n" << table.str());
  CHECK(diffs == "");
  // every example is in the table (a new one must be added)
  for (const std::string& f : rt::jsonFiles(dir, false)) {
    INFO(f << " has no golden entry");
    CHECK(seen.count(f) == 1);
  }
}
