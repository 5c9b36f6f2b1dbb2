// The JSON boundary of a game: views (with hidden information removed), moves, events,
// snapshots. Nothing on the hot path goes through here.
#pragma once
#include <string>

#include "json.h"
#include "rulestack/game.h"

namespace rulestack {

// Each write* appends one JSON value to w; each *Text gives it as text.
// viewer: a player index, -1 for the spectator, -2 for the omniscient view (tests).
void writeView(JsonWriter& w, const Game& g, int viewer);
std::string viewText(const Game& g, int viewer);
// What every view of one definition shares, worked out once rather than on each view: the
// zone ids and their order, the property names of players and of each template in order, and
// the members of an entity's object that its template or a player fixes, as JSON text.
// prepare() (re)builds it for g's definition (it holds the definition, so the check is sound).
struct ViewLayout {
  struct Props {
    std::vector<int> props;  // in name order, each name once
    bool ordered = true;     // no name needs an escape: written as JsonWriter::beginOrderedObject
    bool ready = false;      // (templates': made on first use)
    std::string tail;        // (templates') "tags":[...],"template":"...","type":"..."
  };
  std::shared_ptr<const Def> def;
  std::vector<std::string> zoneIds;
  std::vector<uint32_t> zoneOrder;  // zone indexes in id order
  bool zonesOrdered = true;         // no zone id needs an escape
  std::vector<std::string> controllerOf, ownerOf;  // by player: "controller":"<id>", "owner":"<id>"
  Props playerProps;                // playerProps then perTurn
  std::vector<Props> templateProps;  // each template's, once propsOf made it
  size_t sizeHint = 0;               // the longest view written: reserved for the next
  void prepare(const Game& g);
  const Props& propsOf(int32_t tmpl);
};
void writeView(JsonWriter& w, const Game& g, int viewer, ViewLayout& layout);
std::string viewText(const Game& g, int viewer, ViewLayout& layout);
// A move as `viewer` sees it (what they may not identify under its handle).
void writeMove(JsonWriter& w, const Game& g, const Move& m, int viewer = -2);
std::string moveText(const Game& g, const Move& m, int viewer = -2);
// Parses a move written by `viewer` (-2: anyone's real ids); false with a message when it
// cannot be read (malformed_move). A name that names nothing (an action, a source, a target)
// does not fail it: the move keeps a value no legal move has, so that checking it gives the
// first reason in their documented order (a player without priority is told that first), and
// `error` says what was unknown: the message of that reason (refusal, below).
bool parseMove(const Game& g, const Json& j, Move& out, std::string& error, int viewer = -2);
// The reason code for a parseMove error (unknown_action, bad_source, bad_target, malformed_move).
const char* parseMoveReason(const std::string& error);
// The message for a move refused with `reason`: the unknown name parseMove noted when that is
// what the reason is about, else the check's own message.
const std::string& refusal(const std::string& reason, const std::string& noted, const std::string& checked);
// An event as `viewer` may see it (-2: everything): an entity the viewer could not identify
// when it was logged shows under the handle it had then; "revealed" names the handle of an
// entity the move showed them.
void writeEvent(JsonWriter& w, const Game& g, const LogEntry& e, int viewer = -2);
std::string eventText(const Game& g, const LogEntry& e, int viewer = -2);
// A step of the resolution machine, for tools (everything shown: not for players' eyes).
void writeTrace(JsonWriter& w, const Game& g, const Game::TraceStep& t);
std::string traceText(const Game& g, const Game::TraceStep& t);
void writeSnapshot(JsonWriter& w, const Game& g);
std::string snapshotText(const Game& g);
// Restores a snapshot into g (whose definition is loaded). false + message on a bad snapshot.
bool restoreSnapshot(Game& g, const Json& j, std::string& error);

}  // namespace rulestack
