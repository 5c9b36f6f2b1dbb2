// rulestack-bots-bench: the bots section of `npm run bench` (bench/run.mjs). Uses the internal
// Game API (engine/src/game.h, bot.h). Three measures, deterministic seeds throughout:
//   1. win rates: whole games of fair (information-set) MCTS, omniscient MCTS and the random
//      bot against each other, seats alternated (games 2k and 2k+1 are the same deal with the
//      seats swapped), in the Duel and Crazy Eights;
//   2. the cost of one MCTS iteration, fair against omniscient, from a fixed mid-game position
//      of the Duel and of Crazy Eights (CPU time, the median of rounds);
//   3. the time one move takes at each level (botLevel: easy, normal, hard) from a fixed
//      mid-game position of the Duel, Crazy Eights and Nexus (CPU time, the median of rounds).
//   rulestack-bots-bench DUEL.json CRAZY_EIGHTS.json NEXUS.json [--games N] [--slow-games M]
//                        [--seconds S] [--rounds R] [--only winrates|cost|levels]
// Prints one JSON object on stdout, progress on stderr.
#include <time.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
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

using bench::compile;
using bench::now;
using bench::readFile;

namespace {

uint64_t mix(uint64_t a, uint64_t b) {  // a seed from two numbers
  Rng r;
  r.seed(a * 0x9E3779B97F4A7C15ULL + b);
  return r.next();
}

std::string hex16(uint64_t h) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", (unsigned long long)h);
  return buf;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n == 0 ? 0 : n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// Wilson score interval (95 %) of a proportion k/n.
std::pair<double, double> wilson(int k, int n) {
  if (n == 0) return {0, 1};
  const double z = 1.959964, p = (double)k / n, z2 = z * z;
  double c = (p + z2 / (2 * n)) / (1 + z2 / n);
  double h = z * std::sqrt(p * (1 - p) / n + z2 / (4.0 * n * n)) / (1 + z2 / n);
  return {std::max(0.0, c - h), std::min(1.0, c + h)};
}

/**
 * The benchmark position, as bench/duel_bench.cpp reaches it: from `seed`, at ply i play legal
 * move (i*7+3) mod n, until at least `minPlies` were made and the player to act has 2 or more
 * moves.
 */
Game position(std::shared_ptr<const Def> def, uint64_t seed, int minPlies, int& plies) {
  Game g(def, seed);
  g.logging = false;
  std::vector<Move> moves;
  for (plies = 0; !g.state().over(); plies++) {
    int who = g.nextToAct();
    if (who < 0) break;
    g.legalMoves(who, moves);
    if (plies >= minPlies && moves.size() >= 2) break;
    g.applyUnchecked(who, moves[(size_t)(plies * 7 + 3) % moves.size()]);
  }
  return g;
}

// ------------------------------------------------------------------ 1. win rates
struct Bot {
  std::string name;
  BotOptions o;
};

Bot randomBot() { return {"random", BotOptions{}}; }
Bot mctsBot(bool omniscient) {
  BotOptions o;  // the defaults: 200 iterations, playouts of up to 2000 moves (to the end)
  o.mcts = true;
  o.omniscient = omniscient;
  return {omniscient ? "omniscient MCTS" : "fair MCTS", o};
}

struct GameResult {
  int winner = -1;  // -1: a draw (or unfinished)
  int plies = 0;
  bool unfinished = false;
  std::string error;  // a move the bot chose that apply() refused
};

__attribute__((noinline)) GameResult playGame(const std::shared_ptr<const Def>& def, uint64_t seed, Bot seat[2],
                                              uint64_t botSeed, int maxPlies) {
  Game g(def, seed);
  g.logging = false;
  GameResult r;
  while (!g.state().over() && r.plies < maxPlies) {
    int who = g.nextToAct();
    if (who < 0) break;
    BotOptions o = seat[who].o;
    o.seed = mix(botSeed, (uint64_t)who);
    Move m = botChoose(g, who, o);
    std::string msg;
    std::string err = g.apply(who, m, &msg);
    if (!err.empty()) {
      r.error = err + ": " + msg;
      break;
    }
    r.plies++;
  }
  r.unfinished = !g.state().over();
  r.winner = g.state().over() ? g.state().result : -1;
  return r;
}

json pairing(const std::string& game, const std::shared_ptr<const Def>& def, const Bot& a, const Bot& b, int games,
             uint64_t seed) {
  int wins = 0, draws = 0, losses = 0, unfinished = 0, errors = 0;
  int winsAs[2] = {0, 0}, drawsAs[2] = {0, 0}, gamesAs[2] = {0, 0};
  long long plies = 0;
  std::string firstError;
  double t0 = now();
  for (int i = 0; i < games; i++) {
    int seatA = i % 2;  // games 2k and 2k+1: the same deal, the seats swapped
    Bot seat[2];
    seat[seatA] = a;
    seat[1 - seatA] = b;
    GameResult r = playGame(def, mix(seed, (uint64_t)(i / 2)), seat, mix(seed + 1, (uint64_t)i), 20000);
    plies += r.plies;
    gamesAs[seatA]++;
    if (!r.error.empty()) {
      errors++;
      if (firstError.empty()) firstError = r.error;
    }
    if (r.unfinished) unfinished++;
    if (r.winner == seatA) wins++, winsAs[seatA]++;
    else if (r.winner < 0) draws++, drawsAs[seatA]++;
    else losses++;
  }
  double secs = now() - t0;
  auto [lo, hi] = wilson(wins, games);
  auto [slo, shi] = wilson(2 * wins + draws, 2 * games);  // score (a draw = half a win), roughly
  json out = {{"game", game}, {"a", a.name}, {"b", b.name}, {"games", games}, {"wins", wins}, {"draws", draws},
              {"losses", losses}, {"winRate", (double)wins / games}, {"winLow", lo}, {"winHigh", hi},
              {"score", (wins + 0.5 * draws) / games}, {"scoreLow", slo}, {"scoreHigh", shi},
              {"asPlayer0", {{"games", gamesAs[0]}, {"wins", winsAs[0]}, {"draws", drawsAs[0]}}},
              {"asPlayer1", {{"games", gamesAs[1]}, {"wins", winsAs[1]}, {"draws", drawsAs[1]}}},
              {"meanPlies", (double)plies / games}, {"unfinished", unfinished}, {"errors", errors},
              {"cpuSeconds", secs}};
  if (!firstError.empty()) out["firstError"] = firstError;
  std::cerr << "bots-bench: " << game << ": " << a.name << " vs " << b.name << ": " << wins << "/" << draws << "/"
            << losses << " in " << games << " games, " << secs << " CPU s\n";
  return out;
}

// ------------------------------------------------------------------ 2. and 3. timing
volatile uint64_t sink = 0;

// `decisions` decisions from g (seeds 1..decisions): the same work in every round.
__attribute__((noinline)) void decide(const Game& g, int player, const BotOptions& base, int decisions) {
  for (int k = 0; k < decisions; k++) {
    BotOptions o = base;
    o.seed = (uint64_t)k + 1;
    Move m = botChoose(g, player, o);
    sink += (uint64_t)(m.source + 1) + (uint64_t)m.action;
  }
}

// How many decisions make a round of about `seconds` (from one timed call after a warm-up).
int calibrate(const Game& g, int player, const BotOptions& o, double seconds) {
  decide(g, player, o, 1);
  double t0 = now();
  decide(g, player, o, 1);
  double one = now() - t0;
  return std::max(1, (int)std::lround(seconds / std::max(one, 1e-6)));
}

// Mean length of a random playout (the bot's playout, capped at maxMoves) from the true state
// and from deals of the hidden part as the player to act sees it: what an iteration plays.
json playoutLengths(const Game& g, int player, int maxMoves, int samples) {
  std::vector<Move> scratch;
  long long trueLen = 0, dealtLen = 0;
  int trueEnded = 0, dealtEnded = 0;
  Rng rng;
  rng.seed(99);
  for (int i = 0; i < samples; i++) {
    Game a = g.clone();
    trueLen += randomPlayout(a, rng, maxMoves, scratch);
    trueEnded += a.state().over();
    Game b = g.clone();
    determinize(b, player, rng);
    dealtLen += randomPlayout(b, rng, maxMoves, scratch);
    dealtEnded += b.state().over();
  }
  return {{"samples", samples}, {"trueState", (double)trueLen / samples}, {"dealt", (double)dealtLen / samples},
          {"trueEnded", (double)trueEnded / samples}, {"dealtEnded", (double)dealtEnded / samples}};
}

struct Pos {
  std::string name;
  std::shared_ptr<Def> def;
  uint64_t seed;
  int minPlies;
};

json describe(const Game& g, const Pos& p, int plies) {
  std::vector<Move> moves;
  int player = g.nextToAct();
  g.legalMoves(player, moves);
  return {{"seed", p.seed}, {"plies", plies}, {"turn", g.state().turn}, {"player", player},
          {"moves", moves.size()}, {"hash", hex16(g.hash())}};
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::cerr << "usage: rulestack-bots-bench DUEL.json CRAZY_EIGHTS.json NEXUS.json [--games N] [--slow-games M] "
                 "[--seconds S] [--rounds R] [--only winrates|cost|levels]\n";
    return 2;
  }
  int games = 100, slowGames = 10, rounds = 5;
  double seconds = 0.5;  // per round
  std::string only;
  try {
  for (int i = 4; i + 1 < argc; i += 2) {
    std::string a = argv[i];
    if (a == "--games") games = std::max(2, std::stoi(argv[i + 1]));
    else if (a == "--slow-games") slowGames = std::max(2, std::stoi(argv[i + 1]));
    else if (a == "--seconds") seconds = std::stod(argv[i + 1]);
    else if (a == "--rounds") rounds = std::max(1, std::stoi(argv[i + 1]));
    else if (a == "--only") only = argv[i + 1];
    else throw std::runtime_error("unknown option " + a);
  }
  games += games % 2;  // an even number: every deal with both seatings
  slowGames += slowGames % 2;
    auto duel = compile(readFile(argv[1]));
    auto crazy = compile(readFile(argv[2]));
    auto nexus = compile(readFile(argv[3]));
    json out = json::object();
    out["config"] = {{"games", games}, {"slowGames", slowGames}, {"seconds", seconds}, {"rounds", rounds},
                     {"kMaxDeals", kMaxDeals}, {"kIterationsPerDeal", kIterationsPerDeal},
                     {"mcts", {{"iterations", BotOptions{}.iterations}, {"maxPlayoutMoves", BotOptions{}.maxPlayoutMoves}}}};

    if (only.empty() || only == "winrates") {
      // The Duel's pairings against random get `games` games, its MCTS-against-MCTS pairing (two
      // searching bots) half as many; Crazy Eights' pairings (an iteration costs ~15x the
      // Duel's: playouts of ~170 moves of ~5 us) get `slowGames`.
      json rows = json::array();
      Bot fair = mctsBot(false), omni = mctsBot(true), rnd = randomBot();
      struct P { std::string game; std::shared_ptr<Def> def; Bot a, b; int games; uint64_t seed; };
      std::vector<P> ps = {
          {"duel", duel, fair, rnd, games, 101}, {"duel", duel, omni, rnd, games, 102},
          {"duel", duel, fair, omni, std::max(2, games / 2 + (games / 2) % 2), 103},
          {"crazy-eights", crazy, fair, rnd, slowGames, 201}, {"crazy-eights", crazy, omni, rnd, slowGames, 202},
          {"crazy-eights", crazy, fair, omni, slowGames, 203},
      };
      // Random against random: the seat advantage the other rows are to be read against. The
      // random bot seeded by the true state (omniscient): the same uniform choice, without the
      // fair bot's view hash per move (~0.2 ms, see iterationCost.randomMove).
      json base = json::array();
      for (auto& [name, def] : std::vector<std::pair<std::string, std::shared_ptr<Def>>>{{"duel", duel}, {"crazy-eights", crazy}}) {
        Bot r2 = rnd;
        r2.o.omniscient = true;
        base.push_back(pairing(name, def, r2, r2, 2000, 300));
      }
      for (auto& p : ps) rows.push_back(pairing(p.game, p.def, p.a, p.b, p.games, p.seed));
      out["winRates"] = rows;
      out["randomVsRandom"] = base;
    }

    std::vector<Pos> positions = {{"duel", duel, 42, 12}, {"crazy-eights", crazy, 42, 12}, {"nexus", nexus, 7, 40}};

    if (only.empty() || only == "cost") {
      json cost = json::object();
      for (size_t pi = 0; pi < 2; pi++) {
        const Pos& p = positions[pi];
        int plies = 0;
        Game g = position(p.def, p.seed, p.minPlies, plies);
        int player = g.nextToAct();
        BotOptions fair = mctsBot(false).o, omni = mctsBot(true).o;
        int nFair = calibrate(g, player, fair, seconds), nOmni = calibrate(g, player, omni, seconds);
        std::vector<double> usFair, usOmni, ratio;
        for (int r = 0; r < rounds; r++) {  // fair and omniscient in turn: a drift hits both
          double t0 = now();
          decide(g, player, fair, nFair);
          double t1 = now();
          decide(g, player, omni, nOmni);
          double t2 = now();
          double f = (t1 - t0) / (nFair * (double)fair.iterations) * 1e6, o = (t2 - t1) / (nOmni * (double)omni.iterations) * 1e6;
          usFair.push_back(f);
          usOmni.push_back(o);
          ratio.push_back(f / o);
        }
        // the random bot: one move, fair (seeded by a hash of the player's view) and omniscient
        BotOptions rf, ro;
        ro.omniscient = true;
        int nRf = calibrate(g, player, rf, seconds / 4), nRo = calibrate(g, player, ro, seconds / 4);
        std::vector<double> rfUs, roUs;
        for (int r = 0; r < rounds; r++) {
          double t0 = now();
          decide(g, player, rf, nRf);
          double t1 = now();
          decide(g, player, ro, nRo);
          double t2 = now();
          rfUs.push_back((t1 - t0) / nRf * 1e6);
          roUs.push_back((t2 - t1) / nRo * 1e6);
        }
        json pos = describe(g, p, plies);
        cost[p.name] = {{"position", pos}, {"iterationsPerDecision", fair.iterations}, {"decisionsPerRound", {nFair, nOmni}},
                        {"fairUs", median(usFair)}, {"omniscientUs", median(usOmni)}, {"ratio", median(ratio)},
                        {"fairUsRounds", usFair}, {"omniscientUsRounds", usOmni},
                        {"playouts", playoutLengths(g, player, fair.maxPlayoutMoves, 400)},
                        {"randomMove", {{"fairUs", median(rfUs)}, {"omniscientUs", median(roUs)}}}};
        std::cerr << "bots-bench: cost " << p.name << ": fair " << median(usFair) << " us/iteration, omniscient "
                  << median(usOmni) << "\n";
      }
      out["iterationCost"] = cost;
    }

    if (only.empty() || only == "levels") {
      json levels = json::object();
      for (const Pos& p : positions) {
        int plies = 0;
        Game g = position(p.def, p.seed, p.minPlies, plies);
        int player = g.nextToAct();
        json row = {{"position", describe(g, p, plies)}};
        for (const char* level : {"easy", "normal", "hard"}) {
          BotOptions o;
          botLevel(level, o);
          int n = calibrate(g, player, o, seconds);
          std::vector<double> ms;
          for (int r = 0; r < rounds; r++) {
            double t0 = now();
            decide(g, player, o, n);
            ms.push_back((now() - t0) / n * 1e3);
          }
          row[level] = {{"iterations", o.iterations}, {"maxPlayoutMoves", o.maxPlayoutMoves}, {"decisionsPerRound", n},
                        {"ms", median(ms)}, {"msRounds", ms}};
          std::cerr << "bots-bench: " << p.name << " " << level << ": " << median(ms) << " ms per move\n";
        }
        levels[p.name] = row;
      }
      out["levels"] = levels;
    }
    std::cout << out.dump() << "\n";
  } catch (const std::exception& e) {
    std::cerr << "rulestack-bots-bench: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
