// The JSON-text facade over the engine: what wasm/ binds and the native CLI uses.
// Every call takes and returns JSON text, so the boundary is one copy of one string.
// Nothing here throws: errors come back as JSON.
#pragma once
#include <memory>
#include <string>

namespace rulestack {

class Game;
struct SessionHistory;
struct SessionViews;

class Session {
 public:
  Session();
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  // Loads and compiles a definition (JSON text) and starts a game with the seed (JSON text:
  // an integer, -2^63 to 2^63-1, or a string; see seed.h), or with options
  // {"seed": <seed>, "logLimit": N} (the log keeps the last N events, default 100000).
  // Returns "" on success, else {"errors":[{"path":"/json/pointer","message":"..."}]} (a bad
  // seed or option: path "", "invalid seed: ..." / "invalid logLimit: ...").
  std::string load(const std::string& definitionJson, const std::string& seedJson);
  bool loaded() const;

  // A player's view ("" = spectator). JSON object, see DESIGN.md. Each viewer's text is kept
  // until the game changes (a move applied, undo, load, restore): asking again
  // copies it.
  std::string view(const std::string& player) const;
  // view()'s text where the session keeps it: good until the next call that changes the game
  // or asks for a view (what the wasm binding decodes in place, without a copy)
  const std::string& keptView(const std::string& player) const;
  // Every move that player may make now, fully specified. JSON array.
  std::string legalMoves(const std::string& player) const;
  // Applies a move (JSON). {"ok":true,"events":[...]} (as the mover may see them) or
  // {"ok":false,"reason":"not_your_priority"|...,"message":"..."}; on failure nothing changed.
  std::string apply(const std::string& player, const std::string& moveJson);
  // When on, apply also returns "steps": every step the resolution machine ran (an event
  // half, a reaction cursor, a mutation...), with its depth: what happened because of what.
  void setTrace(bool on);
  // Back to the state before the last applied move; false when there is none (at most the
  // last 1000 moves can be undone: older states are dropped, to bound memory).
  bool undo();
  // JSON array of the events kept (the full record: the last logLimit events); when older
  // ones were dropped, {"dropped": N, "events": [...]}.
  std::string log() const;
  // The same, as that player may see them ("" = a spectator): an entity they could not
  // identify shows under its handle.
  std::string logFor(const std::string& player) const;
  std::string stateHash() const;  // 16 lowercase hex digits
  std::string snapshot() const;   // JSON object
  // Loads the definition and restores the snapshot into this session. "" or {"errors":[...]}.
  std::string restore(const std::string& definitionJson, const std::string& snapshotJson);
  // A bot's move for the player: options {"kind":"random"|"mcts","seed":N,"iterations":N}.
  std::string botChoose(const std::string& player, const std::string& optionsJson);

 private:
  std::unique_ptr<Game> game_;
  std::unique_ptr<SessionHistory> history_;
  mutable std::unique_ptr<SessionViews> views_;  // a cache that view() makes and fills
  bool trace_ = false;
  // Every change of game_ calls it: the views kept are of the state before.
  void changed();
};

// {"errors":[...]} — an empty array means the definition is valid.
std::string validateDefinition(const std::string& definitionJson);

// Runs a scenario (JSON, with its game inlined under "game"). Returns
// {"ok":true|false,"steps":N,"failures":[{"step":i,"message":"..."}]}.
std::string runScenario(const std::string& scenarioJson);

// Bot-vs-bot games: options {"games":N,"bot":"random"|"mcts"|level,"seed":N,"iterations":N,
// "maxMoves":N,"hashes":bool}. Game i uses seed+i; a game still on after maxMoves moves
// (100,000 at most, the default) is unfinished. Returns {"games":N,"moves":N,"wins":{"<player>":N},"draws":N,
// "unfinished":N,"errors":N,"meanLength":x} plus "hashes" (each final state hash) when asked, and
// "errorList" ([{"game","seed","message"}], the first 20) when some game failed.
std::string simulate(const std::string& definitionJson, const std::string& optionsJson);

// The keys of every object of the definition language:
// {"<context>":{"allowed":[...],"required":[...]}} (the JSON Schema is tested against it).
std::string languageKeys();

const char* version();

}  // namespace rulestack
