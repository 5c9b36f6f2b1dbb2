// rulestack-bench: the native side of `npm run bench` (bench/run.mjs). Uses the internal Game
// API (engine/src/game.h); every timed batch goes through a non-inlined function, called
// repeatedly, so the optimiser cannot fold the work into the timing loop. Times are CPU time.
//   rulestack-bench DUEL.json NEXUS.json [--seconds S]    prints one JSON object
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bot.h"
#include "rulestack/game.h"
#include "rulestack/session.h"
#include "session_impl.h"
#include "bench_util.h"

using namespace rulestack;
using nlohmann::json;
using Clock = std::chrono::steady_clock;

using bench::compile;
using bench::now;
using bench::readFile;

namespace {

volatile uint64_t sink = 0;

// `games` random games (game i: seed + i), as simulate() plays them. Returns the moves made.
__attribute__((noinline)) long long randomBatch(const std::shared_ptr<const Def>& def, uint64_t seed, int games,
                                                long long& unfinished) {
  long long moves = 0;
  std::vector<Move> scratch;
  Game g(def, seed, false);
  for (int i = 0; i < games; i++) {
    if (i > 0) g.restart(seed + (uint64_t)i);  // (one game in its memory, as simulate() plays them)
    Rng rng;
    rng.seed(seed * 7919 + (uint64_t)i);
    moves += randomPlayout(g, rng, 100000, scratch);
    if (!g.state().over()) unfinished++;
    sink += (uint64_t)(g.state().result + 2) + (uint64_t)g.state().turn;  // (the outcome: a hash per game would be timed too)
  }
  return moves;
}

// One MCTS decision of `iterations` full playouts from the state.
__attribute__((noinline)) void mctsBatch(const Game& g, int player, int iterations, uint64_t seed) {
  BotOptions o;
  o.mcts = true;
  o.iterations = iterations;
  o.seed = seed;
  Move m = botChoose(g, player, o);
  sink += (uint64_t)m.source;
}

__attribute__((noinline)) void copyBatch(const State& s, int n, std::vector<State>& out) {
  for (int i = 0; i < n; i++) out[i & 63] = s;  // copy-assign: what a bot's clone costs
}
__attribute__((noinline)) void copyConstructBatch(const State& s, int n) {
  for (int i = 0; i < n; i++) {
    State c(s);
    sink += c.ents.size();
  }
}

__attribute__((noinline)) void loadBatch(const std::string& text, int n) {
  for (int i = 0; i < n; i++) sink += compile(text)->actions.size();
}

/**
 * The benchmark position: from `seed`, at ply i play legal move (i*7+3) mod n, until at least
 * `minPlies` were made and the player to act has 2 or more moves (bench/wasm.mjs does the same
 * through the JSON API, and checks it reaches the same state hash).
 */
Game position(std::shared_ptr<const Def> def, uint64_t seed, int minPlies, int& plies) {
  Game g(def, seed);
  g.logging = false;
  std::vector<Move> moves;
  for (plies = 0; !g.state().over(); plies++) {
    auto who = g.toAct();
    if (who.empty()) break;
    g.legalMoves(who[0], moves);
    if (plies >= minPlies && moves.size() >= 2) break;
    g.applyUnchecked(who[0], moves[(size_t)(plies * 7 + 3) % moves.size()]);
  }
  return g;
}

template <class F>
double timeRepeated(double seconds, F&& f) {  // calls f() until `seconds` passed; returns s per call
  int calls = 0;
  double t0 = now(), t;
  do {
    f();
    calls++;
    t = now();
  } while (t - t0 < seconds);
  return (t - t0) / calls;
}

struct Round {
  long long units = 0, extra = 0;
  double seconds = 0;
};
// `rounds` rounds of calling f() (-> {units, extra}) for `seconds`; the round with the best rate.
template <class F>
Round bestOf(int rounds, double seconds, F&& f) {
  Round best;
  for (int i = 0; i < rounds; i++) {
    Round r;
    double t0 = now(), t;
    do {
      auto [u, e] = f();
      r.units += u;
      r.extra += e;
      t = now();
    } while (t - t0 < seconds);
    r.seconds = t - t0;
    if (best.units == 0 || r.units / r.seconds > best.units / best.seconds) best = r;
  }
  return best;
}

std::string hex16(uint64_t h) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", (unsigned long long)h);
  return buf;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "usage: rulestack-bench DUEL.json NEXUS.json [--seconds S] [--rounds R] [--only random|mcts|nexus|copy]\n";
    return 2;
  }
  double seconds = 2.0;
  int rounds = 1;
  std::string only;
  for (int i = 3; i + 1 < argc; i += 2) {
    std::string a = argv[i];
    if (a == "--seconds") seconds = std::stod(argv[i + 1]);
    else if (a == "--only") only = argv[i + 1];
    else if (a == "--rounds") rounds = std::max(1, std::stoi(argv[i + 1]));
  }
  try {
    std::string duelText = readFile(argv[1]), nexusText = readFile(argv[2]);
    auto duel = compile(duelText);
    auto nexus = compile(nexusText);
    json out = json::object();

    // Random games, `batch` a call, the best of the rounds.
    auto randomRate = [&](const std::shared_ptr<Def>& def, int batch) {
      long long unfinished = 0;
      randomBatch(def, 1, batch, unfinished);  // warm up
      Round r = bestOf(rounds, seconds, [&, seed = (uint64_t)1000]() mutable {
        long long m = randomBatch(def, seed, batch, unfinished);
        seed += batch;
        return std::make_pair((long long)batch, m);
      });
      return json{{"games", r.units}, {"moves", r.extra}, {"unfinishedGames", unfinished}, {"seconds", r.seconds},
                  {"movesPerSecond", r.extra / r.seconds}, {"gamesPerSecond", r.units / r.seconds}};
    };
    // MCTS decisions of 200 iterations from the bench position (seed, at least minPlies in).
    auto mctsRate = [&](const std::shared_ptr<Def>& def, uint64_t seed, int minPlies) {
      int plies = 0;
      Game g = position(def, seed, minPlies, plies);
      int player = g.toAct()[0];
      const int iterations = 200;
      mctsBatch(g, player, iterations, 1);  // warm up
      Round r = bestOf(rounds, seconds, [&, s = (uint64_t)2]() mutable {
        mctsBatch(g, player, iterations, s++);
        return std::make_pair((long long)iterations, 0LL);
      });
      std::vector<Move> moves;
      g.legalMoves(player, moves);
      return json{{"iterations", r.units}, {"seconds", r.seconds}, {"iterationsPerSecond", r.units / r.seconds},
                  {"perDecision", iterations}, {"positionSeed", seed}, {"positionPlies", plies},
                  {"positionHash", hex16(g.hash())}, {"positionMoves", moves.size()}};
    };

    if (only.empty() || only == "random") out["random"] = randomRate(duel, 200);
    if (only.empty() || only == "mcts") out["mcts"] = mctsRate(duel, 42, 12);
    // Nexus: longer games (≈180 moves), 20 a call; MCTS from the bots bench's position (seed 7, ≥ 40 plies)
    if (only.empty() || only == "nexus") out["nexus"] = {{"random", randomRate(nexus, 20)}, {"mcts", mctsRate(nexus, 7, 40)}};

    if (only.empty() || only == "copy") {
      json copies = json::object();
      for (auto& [name, def, seed, minPlies] :
           std::vector<std::tuple<std::string, std::shared_ptr<Def>, uint64_t, int>>{{"duel", duel, 42, 30}, {"nexus", nexus, 7, 40}}) {
        int plies = 0;
        Game g = position(def, seed, minPlies, plies);
        const State& s = g.state();
        std::vector<State> slots(64, s);
        const int n = 10000;
        double assign = timeRepeated(seconds / 4, [&] { copyBatch(s, n, slots); }) / n;
        double construct = timeRepeated(seconds / 4, [&] { copyConstructBatch(s, n); }) / n;
        size_t zoneEntries = 0;
        for (auto& z : s.zones) zoneEntries += z.size();
        copies[name] = {{"plies", plies}, {"turn", s.turn}, {"over", s.over()}, {"entities", s.ents.size()},
                        {"props", s.props.size()}, {"zones", s.zones.size()}, {"zoneEntries", zoneEntries},
                        {"queue", s.queue.size()}, {"assignNs", assign * 1e9}, {"copyConstructNs", construct * 1e9}};
      }
      out["stateCopy"] = copies;

      json loads = json::object();
      for (auto& entry : std::vector<std::pair<std::string, const std::string*>>{{"duel", &duelText}, {"nexus", &nexusText}}) {
        const std::string& name = entry.first;
        const std::string* text = entry.second;
        double per = timeRepeated(seconds / 4, [&] { loadBatch(*text, 10); }) / 10;
        loads[name] = {{"bytes", text->size()}, {"ms", per * 1e3}};
      }
      out["definitionLoad"] = loads;  // JSON text -> parsed -> validated and compiled Def

      // The same random games through the JSON facade (simulate), the path wasm is timed on.
      const int games = 200;
      std::string opts = json{{"games", games}, {"seed", 5}}.dump();
      simulate(duelText, opts);
      Round r = bestOf(rounds, seconds, [&] {
        json res = json::parse(simulate(duelText, opts));
        return std::make_pair((long long)games, res["moves"].get<long long>());
      });
      long long played = r.units, moves = r.extra;
      double t = r.seconds, t0 = 0;
      out["simulate"] = {{"gamesPerCall", games}, {"games", played}, {"moves", moves}, {"seconds", t - t0},
                         {"movesPerSecond", moves / (t - t0)}, {"gamesPerSecond", played / (t - t0)}};
    }
    std::cout << out.dump() << "\n";
  } catch (const std::exception& e) {
    std::cerr << "rulestack-bench: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
