// The JSON-text facade: parsing at the edge, a Game inside, undo history beside it.
#include "rulestack/session.h"

#include <algorithm>
#include <cstdlib>
#include <deque>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <new>

#include "bot.h"
#include "rulestack/game.h"
#include "json_io.h"
#include "keys.h"
#include "names.h"
#include "seed.h"
#include "loader.h"
#include "session_impl.h"

namespace rulestack {

using json = Json;

namespace {

// [{"message": ..., "path": ...}, ...] (messages quote the author's text: the writer replaces a
// broken UTF-8 byte)
void writeIssues(JsonWriter& w, const std::vector<DefError>& issues) {
  w.beginArray();
  for (auto& e : issues) w.beginObject().field("message", e.message).field("path", e.path).endObject();
  w.endArray();
}

std::string errorsJson(const std::vector<DefError>& errs) {
  JsonWriter w;
  w.beginObject().key("errors");
  writeIssues(w, errs);
  return w.endObject().take();
}

// "errors": [{"message": message, "path": ""}] (one error without a path, as writeIssues writes
// it): no vector of DefError built at each call.
void writeError(JsonWriter& w, std::string_view message) {
  w.key("errors").beginArray();
  w.beginObject().field("message", message).field("path", "").endObject();
  w.endArray();
}

// errorsJson of one error without a path
std::string errorJson(std::string_view message) {
  JsonWriter w;
  w.beginObject();
  writeError(w, message);
  return w.endObject().take();
}


// Out of memory is the engine's state, not a fault of the definition or the snapshot: said
// apart, so that the package does not report it as one (a RangeError there).
std::string outOfMemoryJson(const char* what) {
  JsonWriter w;
  w.beginObject();
  writeError(w, cat({what, ": the engine is out of memory"}));
  return w.field("outOfMemory", true).endObject().take();
}

// Memory held back while a guarded call runs, and given back as it returns: its answer
// (and the binding's copy of it out of the module, which does not check its allocation) and
// the next call's arguments find room even when the call itself ran out of memory.
constexpr size_t kReserveBytes = 1u << 20;
struct MemoryReserve {
  void* block = std::malloc(kReserveBytes);  // (null when there is no room for it now)
  MemoryReserve() = default;
  MemoryReserve(const MemoryReserve&) = delete;
  MemoryReserve& operator=(const MemoryReserve&) = delete;
  ~MemoryReserve() { release(); }
  void release() {
    std::free(block);
    block = nullptr;
  }
};

template <class F>
std::string guardMemory(const char* what, F&& f) {
  MemoryReserve reserve;
  try {
    return f();
  } catch (const std::bad_alloc&) {
    reserve.release();
    return outOfMemoryJson(what);
  }
}

uint64_t seedOf(double seed) {
  if (!std::isfinite(seed)) return 0;
  double s = std::fabs(std::floor(seed));
  if (s > 9007199254740991.0) s = 9007199254740991.0;
  return (uint64_t)s;
}

std::string fail(const char* reason, std::string_view msg) {
  JsonWriter w;
  return w.beginObject().field("message", msg).field("ok", false).field("reason", reason).endObject().take();
}

constexpr size_t kMaxText = 8u << 20;
constexpr int kMaxDepth = 200;
}  // namespace

// Out of memory is said as a failure of the run, never an exception across the boundary.
std::string runScenario(const std::string& scenarioText) {
  MemoryReserve reserve;
  try {
    return runScenarioUnguarded(scenarioText);
  } catch (const std::bad_alloc&) {
    reserve.release();
    return R"({"failures":[{"message":"runScenario: the engine is out of memory","step":-1}],"ok":false,"steps":0})";
  }
}

// (here, not in loader.cpp: its catch needs unwinding code, which the loader is built without)
bool parseJsonText(const std::string& text, Json& out, DefError& err) {
  if (text.size() > kMaxText) {
    err = {"", "the definition is larger than 8 MB"};
    return false;
  }
  // nesting guard before parsing: a hostile text must not exhaust the stack
  if (nestedDeeper(text, kMaxDepth)) {
    err = {"", cat({"the definition is nested more than ", std::to_string(kMaxDepth), " levels deep"})};
    return false;
  }
  try {
    out = json::parse(text);
  } catch (const json::exception& e) {  // parse_error, and out_of_range 406: a number beyond double (1e999)
    std::string msg = e.what();
    auto p = msg.find("parse error");
    err = {"", "invalid JSON: " + (p == std::string::npos ? msg : msg.substr(p))};
    return false;
  }
  return true;
}

std::shared_ptr<Def> compileDefinition(const std::string& text, std::vector<DefError>& errs) {
  json j;
  DefError pe;
  if (!parseJsonText(text, j, pe)) {
    errs.push_back(pe);
    return nullptr;
  }
  try {
    return loadDefinition(j, errs);
  } catch (const std::bad_alloc&) {
    throw;  // not the definition's fault (outOfMemoryJson)
  } catch (const std::exception& e) {
    errs.push_back({"", std::string("the definition could not be read: ") + e.what()});
    return nullptr;
  }
}

std::unique_ptr<Game> startGame(std::shared_ptr<const Def> def, uint64_t seed, std::vector<DefError>& errs, bool logging,
                                std::unique_ptr<Game> reuse) {
  try {
    if (reuse) {
      reuse->logging = logging;
      reuse->restart(seed);
      return reuse;
    }
    return std::make_unique<Game>(std::move(def), seed, logging);
  } catch (const RuntimeError& e) {
    errs.push_back({"/setup", std::string("the game could not start: ") + e.what()});
  } catch (const std::bad_alloc&) {
    throw;
  } catch (const std::exception& e) {
    errs.push_back({"/setup", std::string("the game could not start: ") + e.what()});
  }
  return nullptr;
}

// Undo keeps the state before each of the last kUndoDepth moves (older ones are dropped, so
// a long game's memory stays bounded).
constexpr size_t kUndoDepth = 1000;
// log() and logFor() give the last logLimit events (kDefaultLogLimit unless load() was given
// {"seed": S, "logLimit": N}); older ones are erased from the front of Game::log once it holds
// logLimit + logSlack(logLimit) of them, so each event is moved a bounded number of times and
// a long game's log stays bounded too.
constexpr size_t kDefaultLogLimit = 100000;
constexpr size_t kMaxLogLimit = 10000000;
size_t logSlack(size_t limit) { return std::max<size_t>(limit / 4, 64); }
struct SessionHistory {
  std::deque<State> states;
  std::deque<size_t> logSizes;  // the log's length before each move, counting erased events
  size_t logLimit = kDefaultLogLimit;
  size_t logErased = 0;         // events erased from the front of Game::log
  size_t logShownFrom = 0;      // the first event shown so far (counting erased ones): an undo lowers it
                                // only to its own point, so it brings back no event the log had dropped
};

namespace {

// Erases the oldest events beyond the limit (and its slack) from the game's log.
void trimLog(Game& g, SessionHistory& h) {
  if (g.log.size() > h.logLimit) h.logShownFrom = std::max(h.logShownFrom, h.logErased + g.log.size() - h.logLimit);
  if (g.log.size() <= h.logLimit + logSlack(h.logLimit)) return;
  size_t n = g.log.size() - h.logLimit;
  g.log.erase(g.log.begin(), g.log.begin() + (std::ptrdiff_t)n);
  h.logErased += n;
}

// The first entry of the log that log()/logFor() show: the last logLimit of them.
size_t logFirst(const Game& g, const SessionHistory& h) {
  size_t first = g.log.size() > h.logLimit ? g.log.size() - h.logLimit : 0;
  size_t shown = h.logShownFrom > h.logErased ? h.logShownFrom - h.logErased : 0;
  return std::min(std::max(first, shown), g.log.size());
}

// What log()/logFor() answer: the array of events kept, or, when earlier events of the game
// are no longer kept, {"dropped": how many, "events": [...]}.
std::string logJson(const Game& g, size_t first, size_t dropped, int viewer) {
  JsonWriter w;
  if (dropped) w.beginObject().field("dropped", dropped).key("events");
  w.beginArray();
  for (size_t i = first; i < g.log.size(); i++) writeEvent(w, g, g.log[i], viewer);
  w.endArray();
  if (dropped) w.endObject();
  return w.take();
}

}  // namespace

// Each viewer's view text, kept while the game is as it was when it was written: version
// counts the game's changes (Session::changed), and a text is good while its version is the
// game's. (Comparing state hashes instead would cost more than most views: 5 µs of the Duel's,
// 37 of Nexus's, natively.)
struct SessionViews {
  struct Kept {
    uint64_t version = 0;  // 0: none kept
    std::string text;
  };
  ViewLayout layout;       // the definition's zone and property orders, for every view
  uint64_t version = 1;
  std::vector<Kept> kept;  // by viewer + 1 (0: the spectator)
  std::string other;       // the last answer that is not a view (no game, an unknown player)
};

Session::Session() = default;
Session::~Session() = default;

void Session::changed() {
  if (views_) views_->version++;
}

std::string Session::load(const std::string& definitionJson, const std::string& seedJson) {
  return guardMemory("createGame", [&]() -> std::string {
    std::vector<DefError> errs;
    uint64_t seed = 0;
    std::string seedError;
    json sj = nestedDeeper(seedJson, kMaxInputDepth) ? json() : json::parse(seedJson, nullptr, false);
    if (sj.is_discarded()) sj = json();
    // the seed, or {"seed": <seed>, "logLimit": N} (N from 1 to kMaxLogLimit)
    size_t logLimit = kDefaultLogLimit;
    if (sj.is_object()) {
      for (auto it = sj.begin(); it != sj.end(); ++it)
        if (it.key() != "seed" && it.key() != "logLimit")
          return errorJson(cat({"unknown load option '", it.key(), "' (seed, logLimit)"}));
      if (sj.contains("logLimit")) {
        const json& l = sj["logLimit"];
        if (!l.is_number_integer() || l.get<long long>() < 1 || l.get<long long>() > (long long)kMaxLogLimit ||
            (l.is_number_unsigned() && l.get<unsigned long long>() > kMaxLogLimit))
          return errorJson(cat({"invalid logLimit: an integer from 1 to ", std::to_string(kMaxLogLimit), ", not ", l.dump()}));
        logLimit = l.get<size_t>();
      }
      json s = sj.contains("seed") ? sj["seed"] : json();
      sj = std::move(s);
    }
    if (!parseSeed(sj, seed, seedError)) return errorJson(cat({"invalid seed: ", seedError}));
    auto def = compileDefinition(definitionJson, errs);
    if (!def) return errorsJson(errs);
    auto g = startGame(def, seed, errs);
    if (!g) return errorsJson(errs);
    auto history = std::make_unique<SessionHistory>();  // all made before any is kept
    history->logLimit = logLimit;
    trimLog(*g, *history);  // a setup that logged more than the limit
    game_ = std::move(g);
    history_ = std::move(history);
    changed();
    return "";
  });
}

bool Session::loaded() const { return game_ != nullptr; }

static int playerIndex(const Game& g, const std::string& id) { return g.findPlayer(id); }

std::string Session::view(const std::string& player) const { return keptView(player); }

const std::string& Session::keptView(const std::string& player) const {
  if (!views_) views_ = std::make_unique<SessionViews>();
  SessionViews& v = *views_;
  if (!game_) return v.other = "null";
  int p = -1;
  if (!player.empty()) {
    p = playerIndex(*game_, player);
    if (p < 0) return v.other = JsonWriter().beginObject().field("error", cat({"unknown player '", player, "'"})).endObject().take();
  }
  if (v.kept.size() < (size_t)game_->def().numPlayers() + 1) v.kept.resize((size_t)game_->def().numPlayers() + 1);
  SessionViews::Kept& k = v.kept[(size_t)(p + 1)];
  if (k.version != v.version) {
    k.text = viewText(*game_, p, v.layout);
    k.version = v.version;
  }
  return k.text;
}

std::string Session::legalMoves(const std::string& player) const {
  if (!game_) return "[]";
  int p = playerIndex(*game_, player);
  if (p < 0) return "[]";
  std::vector<Move> moves;
  game_->legalMoves(p, moves);
  JsonWriter w;
  w.beginArray();
  for (uint32_t i : game_->orderAsSeen(moves, p)) writeMove(w, *game_, moves[i], p);
  return w.endArray().take();
}

std::string Session::apply(const std::string& player, const std::string& moveText) {
  MemoryReserve reserve;
  std::vector<Game::TraceStep> steps;
  try {
    if (!game_) return fail("no_game", "no game is loaded");
    int p = playerIndex(*game_, player);
    if (p < 0) return fail("unknown_player", cat({"unknown player '", player, "'"}));
    if (game_->state().over()) return fail("game_over", "the game is over");
    if (nestedDeeper(moveText, kMaxInputDepth)) return fail("malformed_move", "the move is nested too deep");
    json mj = json::parse(moveText, nullptr, false);
    if (mj.is_discarded()) return fail("malformed_move", "the move is not valid JSON");
    Move m;
    std::string err;
    if (!parseMove(*game_, mj, m, err, p)) return fail(parseMoveReason(err), err);
    const size_t logStart = game_->log.size();
    State before = game_->state();
    game_->trace = trace_ ? &steps : nullptr;
    std::string msg;
    std::string reason = game_->apply(p, m, &msg);  // (transactional, out of memory too: see failures.cpp)
    game_->trace = nullptr;
    if (!reason.empty()) return fail(reason.c_str(), refusal(reason, err, msg));  // (the state as it was: the views kept hold)
    try {
      JsonWriter w;
      w.beginObject().key("events").beginArray();
      for (size_t i = logStart; i < game_->log.size(); i++) writeEvent(w, *game_, game_->log[i], p);
      w.endArray().field("ok", true);
      if (trace_) {
        w.key("steps").beginArray();
        for (auto& t : steps) writeTrace(w, *game_, t);
        w.endArray();
      }
      w.endObject();
      history_->logSizes.push_back(logStart + history_->logErased);
      history_->states.push_back(std::move(before));  // (the last allocation: if it fails, `before` is intact)
      if (history_->states.size() > kUndoDepth) {
        history_->states.pop_front();
        history_->logSizes.pop_front();
      }
      changed();
      trimLog(*game_, *history_);
      return w.take();
    } catch (const std::bad_alloc&) {
      // made, but its answer or undo entry could not be: taken back (moved, no allocation), as refused
      if (history_->logSizes.size() > history_->states.size()) history_->logSizes.pop_back();
      game_->mutableState() = std::move(before);
      game_->log.resize(logStart);
      throw;
    }
  } catch (const std::bad_alloc&) {
    if (game_) game_->trace = nullptr;
    steps = {};
    reserve.release();
    return fail("runtime_error", "the engine is out of memory: the move was not made");
  }
}

void Session::setTrace(bool on) { trace_ = on; }

bool Session::undo() {
  if (!game_ || history_->states.empty()) return false;
  game_->mutableState() = std::move(history_->states.back());
  size_t logSize = history_->logSizes.back();  // counting erased events
  // (what the undone moves logged is gone: the next moves' events are shown from there)
  history_->logShownFrom = std::min(history_->logShownFrom, logSize);
  if (logSize >= history_->logErased) {
    game_->log.resize(logSize - history_->logErased);
  } else {  // the move's first events were erased already: none of the log before it is left
    game_->log.clear();
    history_->logErased = logSize;
  }
  history_->states.pop_back();
  history_->logSizes.pop_back();
  changed();
  return true;
}

std::string Session::log() const {
  if (!game_) return "[]";
  size_t first = logFirst(*game_, *history_);
  return logJson(*game_, first, history_->logErased + first, -2);
}

std::string Session::logFor(const std::string& player) const {
  if (!game_) return "[]";
  int p = -1;
  if (!player.empty() && (p = playerIndex(*game_, player)) < 0) return "[]";
  size_t first = logFirst(*game_, *history_);
  return logJson(*game_, first, history_->logErased + first, p);
}

std::string Session::stateHash() const { return game_ ? hex16(game_->hash()) : "0000000000000000"; }

std::string Session::snapshot() const { return game_ ? snapshotText(*game_) : "null"; }

std::string Session::restore(const std::string& definitionJson, const std::string& snapshotText) {
  return guardMemory("restore", [&]() -> std::string {
    std::vector<DefError> errs;
    auto def = compileDefinition(definitionJson, errs);
    if (!def) return errorsJson(errs);
    json sj = nestedDeeper(snapshotText, kMaxInputDepth) ? json(nullptr) : json::parse(snapshotText, nullptr, false);
    if (sj.is_discarded()) return errorJson("the snapshot is not valid JSON");
    auto g = std::make_unique<Game>(def);
    std::string err;
    if (!restoreSnapshot(*g, sj, err)) return errorJson(err);
    auto history = std::make_unique<SessionHistory>();
    game_ = std::move(g);
    history_ = std::move(history);
    changed();
    return "";
  });
}

std::string Session::botChoose(const std::string& player, const std::string& optionsJson) {
  if (!game_) return "null";
  int p = playerIndex(*game_, player);
  if (p < 0) return "null";
  json o = nestedDeeper(optionsJson, kMaxInputDepth) ? json(nullptr) : json::parse(optionsJson, nullptr, false);
  BotOptions bo;
  if (o.is_object()) {
    if (o.contains("level") && (!o["level"].is_string() || !botLevel(o["level"].get<std::string>(), bo)))
      return JsonWriter().beginObject().field("error", cat({"unknown bot level ", o["level"].dump(), " (easy, normal or hard)"})).endObject().take();
    if (o.contains("kind")) bo.mcts = o["kind"] == "mcts";
    bo.omniscient = o.contains("omniscient") && o["omniscient"].is_boolean() && o["omniscient"].get<bool>();
    // a seed as a game's (seed.h): every 64-bit value, so that a bot of simulate's, seeded
    // with 64 random bits a move, can be asked again through the package
    std::string why;
    if (o.contains("seed") && !parseSeed(o["seed"], bo.seed, why))
      return JsonWriter().beginObject().field("error", cat({"invalid bot seed: ", why})).endObject().take();
    if (o.contains("iterations") && o["iterations"].is_number_integer())
      bo.iterations = std::max(1, std::min(100000, o["iterations"].get<int>()));
    if (o.contains("maxPlayoutMoves") && o["maxPlayoutMoves"].is_number_integer())
      bo.maxPlayoutMoves = std::max(1, std::min(100000, o["maxPlayoutMoves"].get<int>()));
  }
  std::vector<Move> moves;
  game_->legalMoves(p, moves);
  if (moves.empty()) return "null";
  return moveText(*game_, rulestack::botChoose(*game_, p, bo), p);
}

std::string validateDefinition(const std::string& definitionJson) {
  return guardMemory("validate", [&]() -> std::string {
    std::vector<DefError> errs;
    auto def = compileDefinition(definitionJson, errs);
    if (def) startGame(def, 0, errs);
    if (!def || !errs.empty() || def->warnings.empty()) return errorsJson(errs);
    // a sound definition: its warnings too (legal, almost certainly not what was meant)
    std::vector<DefError> warnings;
    for (auto& x : def->warnings) warnings.push_back({x.first, x.second});
    JsonWriter w;
    w.beginObject().key("errors").beginArray().endArray().key("warnings");
    writeIssues(w, warnings);
    return w.endObject().take();
  });
}

namespace {
// The definition the last simulate call compiled, for the next call with the same text: a
// caller that plays a batch per call (simulateParallel, the playground's panel) compiles it
// once, not once per batch (a Def is never changed once compiled).
std::shared_ptr<const Def> compiledForSimulate(const std::string& text, std::vector<DefError>& errs) {
  thread_local std::string lastText;
  thread_local std::shared_ptr<const Def> lastDef;
  if (lastDef && text == lastText) return lastDef;
  std::shared_ptr<const Def> def = compileDefinition(text, errs);
  lastDef = def;
  lastText = def ? text : std::string();
  return def;
}
// The most moves a simulated game is played for (simulate's maxMoves, and its default).
constexpr int kMaxSimulatedMoves = 100000;
}  // namespace

std::string simulate(const std::string& definitionJson, const std::string& optionsJson) {
  return guardMemory("simulate", [&]() -> std::string {
    std::vector<DefError> errs;
    auto def = compiledForSimulate(definitionJson, errs);
    if (!def) return errorsJson(errs);
    json o = nestedDeeper(optionsJson, kMaxInputDepth) ? json(nullptr) : json::parse(optionsJson, nullptr, false);
    int errors = 0;
    int games = 1, iterations = 200;
    uint64_t seed = 1;
    bool mcts = false, wantHashes = false, givenIterations = false;
    int maxMoves = kMaxSimulatedMoves;  // a game that reaches it is unfinished
    BotOptions level;  // the MCTS budget: --iterations, or a level's
    std::vector<std::string> hashes;
    struct Failed {
      int game;
      std::string message;
    };
    std::vector<Failed> errorList;  // the first few errored games, with their messages
    auto failed = [&](int i, const std::string& message) {
      errors++;
      if (errorList.size() < 20) errorList.push_back({i, message});
    };
    if (o.is_object()) {
      wantHashes = o.value("hashes", false);
      if (o.contains("games") && o["games"].is_number_integer()) games = std::max(1, std::min(1000000, o["games"].get<int>()));
      if (o.contains("seed") && o["seed"].is_number()) seed = seedOf(o["seed"].get<double>());
      if (o.contains("maxMoves") && o["maxMoves"].is_number_integer())
        maxMoves = std::max(1, std::min(kMaxSimulatedMoves, o["maxMoves"].get<int>()));
      givenIterations = o.contains("iterations") && o["iterations"].is_number_integer();
      if (givenIterations) iterations = std::max(1, o["iterations"].get<int>());
      mcts = o.value("bot", "random") == "mcts";
      if (o.contains("bot") && o["bot"].is_string() && botLevel(o["bot"].get<std::string>(), level)) mcts = true;
    }
    // 'mcts': `iterations` (200 by default); a level: its budget, `iterations` given overriding its
    // iterations (as a Bot's options do)
    if (mcts && !level.mcts) level.iterations = iterations, level.maxPlayoutMoves = BotOptions{}.maxPlayoutMoves;
    else if (level.mcts && givenIterations) level.iterations = iterations;
    long long moves = 0;
    int draws = 0, unfinished = 0;
    std::vector<int> wins(def->numPlayers(), 0);
    std::vector<Move> scratch;
    // one game, restarted for each seed, and kept for the next call on the same definition
    // (a caller playing a batch per call: the setup's start is kept once, not once per batch)
    thread_local std::unique_ptr<Game> kept;
    std::unique_ptr<Game> g;
    if (kept && kept->defPtr() == def) g = std::move(kept);
    kept.reset();
    for (int i = 0; i < games; i++) {
      std::vector<DefError> e2;
      g = startGame(def, seed + (uint64_t)i, e2, false, std::move(g));
      if (!g) {
        failed(i, e2.empty() ? "the game could not start" : e2[0].message);
        continue;
      }
      Rng rng;  // depends on this game's seed only, so games are the same however they are batched
      rng.seed((seed + (uint64_t)i) * 0x9E3779B97F4A7C15ULL + 0x632BE59BD9B4E019ULL);
      try {
        if (!mcts) {
          moves += randomPlayout(*g, rng, maxMoves, scratch);
        } else {
          BotOptions bo = level;
          bo.mcts = true;
          int n = 0;
          while (!g->state().over() && n < maxMoves) {
            int who = g->nextToAct();
            if (who < 0) break;
            bo.seed = rng.next();
            g->applyUnchecked(who, rulestack::botChoose(*g, who, bo));
            n++;
          }
          moves += n;
        }
      } catch (const std::bad_alloc&) {
        throw;  // the engine's memory, not the game's fault: simulate as a whole is out of memory
      } catch (const std::exception& e) {
        failed(i, e.what());
        continue;
      }
      const State& s = g->state();
      if (wantHashes) hashes.push_back(hex16(g->hash()));
      if (!s.over()) unfinished++;
      else if (s.result < 0) draws++;
      else wins[s.result]++;
    }
    kept = std::move(g);
    JsonWriter w;
    w.beginObject().field("draws", draws);
    if (!errorList.empty()) {
      w.key("errorList").beginArray();
      for (auto& f : errorList)
        w.beginObject().field("game", f.game).field("message", f.message).field("seed", (double)(seed + (uint64_t)f.game)).endObject();
      w.endArray();
    }
    w.field("errors", errors).field("games", games);
    if (wantHashes) w.field("hashes", hashes);
    w.field("meanLength", games ? (double)moves / games : 0.0).field("moves", moves).field("unfinished", unfinished);
    w.key("wins").beginObject();  // (the writer sorts the players' ids)
    for (int p = 0; p < def->numPlayers(); p++) w.field(def->playerIds[p], wins[p]);
    w.endObject();
    return w.endObject().take();
  });
}

std::string languageKeys() {
  JsonWriter w;
  w.beginObject();  // (the writer sorts the contexts)
  for (const KeySet& k : allKeySets()) w.key(k.context).beginObject().field("allowed", k.allowed).field("required", k.required).endObject();
  return w.endObject().take();
}

const char* version() { return "0.1.0"; }

}  // namespace rulestack
