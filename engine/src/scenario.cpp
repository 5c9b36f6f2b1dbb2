// Scenario files: a game, a seed, and steps (moves, expected illegal moves, expectations on
// the state, expected events). Game authors and the test suites use the same runner.
#include <algorithm>

#include "rulestack/game.h"
#include "json_io.h"
#include "seed.h"
#include "loader.h"
#include "names.h"
#include "rulestack/session.h"
#include "session_impl.h"

namespace rulestack {

using json = Json;

namespace {

// Whether every field of `want` is in `got` with the same value.
bool subset(const json& want, const json& got) {
  if (!want.is_object()) return want == got;
  if (!got.is_object()) return false;
  for (auto it = want.begin(); it != want.end(); ++it) {
    if (!got.contains(it.key())) return false;
    if (!subset(it.value(), got[it.key()])) return false;
  }
  return true;
}

std::string playerOf(const json& step) {
  const json p = step.value("player", json());  // (no "player": const operator[] on a missing key is UB)
  return p.is_number_integer() ? std::to_string(p.get<long long>()) : p.is_string() ? p.get<std::string>() : "";
}

}  // namespace

// (runScenario, in session.cpp, catches out of memory: this file is built without unwinding code)
std::string runScenarioUnguarded(const std::string& scenarioText) {
  // {"failures": [...], "ok": ..., "steps": N}, written once the run ends
  struct Failure {
    int step;
    std::string message;
  };
  std::vector<Failure> failures;
  int ran = 0;
  auto failure = [&](int step, const std::string& msg) { failures.push_back({step, msg}); };
  auto result = [&]() {
    JsonWriter w;
    w.beginObject().key("failures").beginArray();
    for (auto& f : failures) w.beginObject().field("message", f.message).field("step", f.step).endObject();
    return w.endArray().field("ok", failures.empty()).field("steps", ran).endObject().take();
  };
  if (nestedDeeper(scenarioText, kMaxInputDepth)) {
    failure(-1, cat({"the scenario is nested more than ", std::to_string(kMaxInputDepth), " levels deep"}));
    return result();
  }
  json sc = json::parse(scenarioText, nullptr, false);
  if (sc.is_discarded() || !sc.is_object()) {
    failure(-1, "the scenario is not a JSON object");
    return result();
  }
  if (!sc.contains("game") || !sc["game"].is_object()) {
    failure(-1, "the scenario needs 'game' (an inline definition)");
    return result();
  }
  std::vector<DefError> errs;
  auto def = compileDefinition(sc["game"].dump(), errs);
  if (!def) {
    for (auto& e : errs) failure(-1, cat({"game definition: ", e.path, e.path.empty() ? "" : ": ", e.message}));
    return result();
  }
  if (!sc.contains("steps") || !sc["steps"].is_array()) {
    failure(-1, "the scenario needs 'steps' (a list)");
    return result();
  }
  for (auto it = sc.begin(); it != sc.end(); ++it)
    if (it.key() != "name" && it.key() != "game" && it.key() != "seed" && it.key() != "steps") {
      failure(-1, "unknown key '" + it.key() + "' in the scenario (keys: name, game, seed, steps)");
      return result();
    }
  // compile every expectation and `do` up front: the definition is immutable once a game runs
  const json& steps = sc["steps"];
  std::vector<Expr> exprs(steps.size());
  std::vector<std::vector<Mutation>> dos(steps.size());
  for (size_t i = 0; i < steps.size(); i++) {
    const json& s = steps[i];
    std::string path = cat({"/steps/", std::to_string(i)});
    if (!s.is_object()) { failure((int)i, "a step is an object"); continue; }
    std::vector<DefError> e2;
    if (s.contains("expect") && s["expect"].is_string()) compileCondition(*def, s["expect"], cat({path, "/expect"}), exprs[i], e2);
    if (s.contains("do")) compileMutations(*def, s["do"], cat({path, "/do"}), dos[i], e2);
    // a reason no move is ever refused with (a typo) would only read as a mismatch later
    if (s.contains("illegal") && s["illegal"].is_string()) {
      const std::string want = s["illegal"].get<std::string>();
      const std::vector<std::string> reasons = words(
          "game_over decision_pending not_your_priority unknown_action not_in_phase condition_false bad_source "
          "bad_target bad_mode bad_x cannot_pay must_act unknown_decision not_your_decision must_accept "
          "malformed_move loop_limit runtime_error unknown_player");
      if (!want.empty() && std::find(reasons.begin(), reasons.end(), want) == reasons.end())
        e2.push_back({cat({path, "/illegal"}), cat({"unknown reason '", want, "'", didYouMean(want, reasons)})});
    }
    for (auto& e : e2) failure((int)i, cat({e.path, ": ", e.message}));
  }
  if (!failures.empty()) return result();
  uint64_t seed = 0;
  std::string seedError;
  if (sc.contains("seed") && !parseSeed(sc["seed"], seed, seedError)) {
    failure(-1, cat({"seed: ", seedError}));
    return result();
  }
  auto game = startGame(def, seed, errs);
  if (!game) {
    for (auto& e : errs) failure(-1, cat({e.path, ": ", e.message}));
    return result();
  }
  Game& g = *game;
  size_t lastEvents = 0;
  for (size_t i = 0; i < steps.size(); i++) {
    const json& s = steps[i];
    int si = (int)i;
    ran++;
    if (s.contains("move")) {
      std::string pid = playerOf(s);
      int p = g.findPlayer(pid);
      if (p < 0) { failure(si, cat({"unknown player '", pid, "'"})); break; }
      Move m;
      std::string err;
      bool parsed = parseMove(g, s["move"], m, err);
      std::string reason = g.state().over() ? "game_over" : parsed ? "" : parseMoveReason(err);
      if (g.state().over()) { err = "the game is over"; parsed = false; }
      std::string msg = err;
      uint64_t before = g.hash();
      size_t logStart = g.log.size();
      if (parsed) {
        reason = g.apply(p, m, &msg);
        msg = refusal(reason, err, msg);
      }
      if (s.contains("illegal")) {
        std::string want = s["illegal"].is_string() ? s["illegal"].get<std::string>() : "";
        if (reason.empty()) { failure(si, cat({"the move was legal, expected it rejected with '", want, "'"})); break; }
        if (!want.empty() && reason != want) { failure(si, cat({"rejected with '", reason, "' (", msg, "), expected '", want, "'"})); break; }
        if (g.hash() != before) { failure(si, "a rejected move changed the state"); break; }
        continue;
      }
      if (!reason.empty()) {
        failure(si, cat({"move ", s["move"].dump(), " by ", pid, " rejected: ", reason, ": ", msg}));
        break;
      }
      lastEvents = logStart;
      continue;
    }
    if (s.contains("expect")) {
      const json& e = s["expect"];
      if (e.is_string()) {
        Ctx c;
        c.player = g.state().active;
        if (!g.test(exprs[i], c)) failure(si, cat({"expected ", e.get<std::string>()}));
      } else if (e.is_object() && e.contains("path")) {
        json view = json::parse(viewText(g, -2));
        const json* got = e["path"].is_string() ? view.pointer(e["path"].get<std::string>()) : nullptr;
        if (!got) failure(si, cat({e["path"].dump(), " is not in the view"}));
        else if (*got != e.value("value", json()))
          failure(si, cat({e["path"].get<std::string>(), " is ", got->dump(), ", expected ", e.value("value", json()).dump()}));
      } else {
        failure(si, "expect is an expression or {path, value}");
      }
      continue;
    }
    if (s.contains("event")) {
      const json& want = s["event"];
      bool found = false;
      for (size_t k = lastEvents; k < g.log.size() && !found; k++) found = subset(want, json::parse(eventText(g, g.log[k])));
      if (!found) failure(si, cat({"no event ", want.dump(), " since the last move"}));
      continue;
    }
    if (s.contains("do")) {
      size_t logStart = g.log.size();
      std::string msg;
      std::string reason = g.runMutations(dos[i], &msg);
      if (!reason.empty()) { failure(si, cat({"do failed: ", reason, ": ", msg})); break; }
      lastEvents = logStart;
      continue;
    }
    if (s.contains("legal")) {
      const json& l = s["legal"];
      std::string pid = l.contains("player") ? (l["player"].is_string() ? l["player"].get<std::string>() : l["player"].dump()) : "";
      int p = g.findPlayer(pid);
      if (p < 0) { failure(si, cat({"unknown player '", pid, "'"})); continue; }
      std::vector<Move> moves;
      g.legalMoves(p, moves);
      JsonWriter mw;
      mw.beginArray();
      for (auto& m : moves) writeMove(mw, g, m);
      json mj = json::parse(mw.endArray().take());
      if (l.contains("count") && l["count"] != json(moves.size()))
        failure(si, cat({"player ", pid, " has ", std::to_string(moves.size()), " legal moves, expected ", l["count"].dump(), ": ", mj.dump()}));
      if (l.contains("includes")) {
        bool found = false;
        for (auto& m : mj) found = found || subset(l["includes"], m);
        if (!found) failure(si, cat({"no legal move of ", pid, " matches ", l["includes"].dump(), "; legal: ", mj.dump()}));
      }
      if (l.contains("excludes")) {
        for (auto& m : mj)
          if (subset(l["excludes"], m)) failure(si, cat({"legal moves of ", pid, " include ", m.dump()}));
      }
      continue;
    }
    failure(si, cat({"unknown step (expected move, expect, event, do or legal): ", s.dump()}));
  }
  return result();
}

}  // namespace rulestack
