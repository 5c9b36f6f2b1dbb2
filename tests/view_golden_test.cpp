// Golden view text: every example game, played by a fixed move picker over fixed seeds; at
// every ply the view of every viewer (each player, the spectator, the full record), each
// player's legal moves as they see them, and the move's events as each viewer sees them, as
// JSON text, must hash to the digests recorded here. The JSON writers may get faster; their
// bytes must not change (the package, the server and saved replays read them).
//
// When the view format is meant to change, regenerate the table:
// RULESTACK_VIEW_GOLDEN_WRITE=tests/view_goldens.inc build/native/rulestack_tests "[view-golden]".
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>

#include "json_io.h"
#include "names.h"
#include "test_util.h"

namespace {

struct Fnv {
  uint64_t h = 1469598103934665603ull;
  void add(const std::string& s) {
    for (char ch : s) h = (h ^ (uint8_t)ch) * 1099511628211ull;
    h = (h ^ 0xFF) * 1099511628211ull;  // a separator: "ab"+"c" differs from "a"+"bc"
  }
};

using rulestack::hex16;  // (names.h: the engine's own)

struct Golden { const char* file; uint64_t seed; const char* digest; };

const Golden kGolden[] = {
#include "view_goldens.inc"
};

constexpr int kMaxPlies = 60;

// Everything the writers give of one game, hashed.
std::string digestOf(const std::string& text, uint64_t seed) {
  std::vector<rulestack::DefError> errs;
  auto def = rulestack::compileDefinition(text, errs);
  REQUIRE(def);
  auto game = rulestack::startGame(def, seed, errs);
  REQUIRE(game);
  rulestack::Game& g = *game;
  const int players = g.def().numPlayers();
  rt::Lcg pick(seed);
  Fnv f;
  std::vector<rulestack::Move> moves;
  for (int ply = 0;; ply++) {
    for (int v = -2; v < players; v++) f.add(rulestack::viewText(g, v));
    for (int p = 0; p < players; p++) {
      g.legalMoves(p, moves);
      for (auto& m : moves) f.add(rulestack::moveText(g, m, p));
    }
    int who = g.nextToAct();
    if (ply == kMaxPlies || g.state().over() || who < 0) break;
    g.legalMoves(who, moves);
    REQUIRE(!moves.empty());
    size_t logStart = g.log.size();
    std::string msg;
    std::string r = g.apply(who, moves[pick.below((uint32_t)moves.size())], &msg);
    INFO(msg);
    REQUIRE(r == "");
    for (size_t i = logStart; i < g.log.size(); i++)
      for (int v = -2; v < players; v++) f.add(rulestack::eventText(g, g.log[i], v));
  }
  f.add(rulestack::snapshotText(g));
  return hex16(f.h);
}

}  // namespace

TEST_CASE("every example's views, moves and events are the recorded JSON text", "[view-golden]") {
  std::string dir = RULESTACK_EXAMPLES_JSON;
  std::ostringstream table;
  std::string diffs;
  std::map<std::string, int> seen;
  for (const Golden& gd : kGolden) {
    std::string text = rt::readFile(dir + "/" + gd.file);
    REQUIRE(!text.empty());
    seen[gd.file]++;
    INFO(gd.file << " seed " << gd.seed);
    std::string got = digestOf(text, gd.seed);
    table << "    {\"" << gd.file << "\", " << gd.seed << ", \"" << got << "\"},\n";
    if (got != gd.digest) diffs += std::string(gd.file) + " seed " + std::to_string(gd.seed) + ": digest " + got + ", recorded " + gd.digest + "\n";
  }
  if (const char* out = std::getenv("RULESTACK_VIEW_GOLDEN_WRITE")) std::ofstream(out) << table.str();
  INFO("the table as it is now (RULESTACK_VIEW_GOLDEN_WRITE=FILE writes it there):\n" << table.str());
  CHECK(diffs == "");
  for (const std::string& f : rt::jsonFiles(dir, false)) {
    INFO(f << " has no view golden entry");
    CHECK(seen.count(f) == 1);
  }
}

TEST_CASE("the writer escapes and sorts as it always did", "[view-golden]") {
  rulestack::JsonWriter w;
  w.beginObject();
  w.field("plain", "Bolt#3");
  w.field("b\"q", "say \"hi\"\\ \t\n\x01\x1f end");
  w.field("utf8", "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x82\xA1");
  w.field("broken", "a\x80" "b\xC3" "c\xE2\x82" "d\xF0\x9F\x82" "e\xFF" "f\xC3");
  w.field("\x80key", 1);
  w.field("a\\b", 2);
  w.field("a", 3);
  w.field("a\x01", 4);
  w.endObject();
  CHECK(w.str() ==
        "{\"a\":3,\"a\\u0001\":4,\"a\\\\b\":2,\"b\\\"q\":\"say \\\"hi\\\"\\\\ \\t\\n\\u0001\\u001f end\","
        "\"broken\":\"a\xEF\xBF\xBD" "b\xEF\xBF\xBD" "c\xEF\xBF\xBD" "d\xEF\xBF\xBD" "e\xEF\xBF\xBD" "f\xEF\xBF\xBD\","
        "\"plain\":\"Bolt#3\",\"utf8\":\"caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x82\xA1\",\"\xEF\xBF\xBDkey\":1}");
}
