#include "json_io.h"

#include "names.h"

#include <algorithm>

namespace rulestack {

using json = Json;

namespace {

// std::stoi's reading (blanks, a sign, digits; what follows them ignored; false when there are
// none or they are beyond int) without the C library's number scanner (kilobytes in wasm).
bool readInt(const std::string& s, int& out) {
  size_t i = 0;
  while (i < s.size() && (s[i] == ' ' || (s[i] >= '\t' && s[i] <= '\r'))) i++;
  const bool negative = i < s.size() && s[i] == '-';
  if (i < s.size() && (s[i] == '-' || s[i] == '+')) i++;
  const size_t first = i;
  long long v = 0;
  for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; i++)
    if ((v = v * 10 + (s[i] - '0')) > 2147483648LL) return false;
  if (i == first || (!negative && v > 2147483647LL)) return false;
  out = (int)(negative ? -v : v);
  return true;
}

template <class F>
std::string textOf(F&& write) {
  JsonWriter w;
  write(w);
  return w.take();
}

// Game::entityIdFor's id, the common one ("Bolt#3") written without building it
void writeEntityId(JsonWriter& w, const Game& g, int32_t e, int viewer) {
  const State& s = g.state();
  if (e >= g.def().numPlayers() && e < (int32_t)s.ents.size() && s.ents[e].serial >= 0 && g.identifies(viewer, e))
    w.idValue(g.def().templates[s.ents[e].idTmpl].id, "#", s.ents[e].serial);
  else
    w.value(g.entityIdFor(e, viewer));
}

// "q12": a queue item's id
void writeItemId(JsonWriter& w, int32_t item) { w.idValue("q", "", item); }

// Game::slotIdFor's id
void writeSlotId(JsonWriter& w, const Game& g, const Slot& s, int viewer) {
  if (s.k == VK::Ent) writeEntityId(w, g, s.v, viewer);
  else if (s.k == VK::Item) writeItemId(w, s.v);
  else w.value(g.slotId(s));
}

// A reference (a queue item's source or targets, a property's value) to a card in a place
// the viewer does not see, or destroyed out of their sight, is "?", with no handle: a handle
// there would tie the card to where it went, through a shuffle too; a card in a hidden place
// is only counted. (A move's events and the moves a player may make name it by its handle.)
void writeRef(JsonWriter& w, const Game& g, const Slot& s, int viewer) {
  if (s.k == VK::Ent && s.v >= g.def().numPlayers() && viewer != -2) {
    const Entity& en = g.state().ents[s.v];
    const unsigned gone = (en.goneHidden | en.goneFaceDown) & (viewer < 0 ? 0xffu : 1u << viewer);  // (the spectator saw neither)
    if (en.zone >= 0 ? !g.seesZone(en.zone, viewer) : gone != 0) {
      w.value("?");
      return;
    }
  }
  writeSlotId(w, g, s, viewer);
}

// Targets as the viewer is shown them: those it identifies in the engine's order (the order
// the entities were made), then the others by handle (Game::seenKey), for that order would
// tell which hidden card is which. `ref`: a reference's (writeRef).
void writeSlotList(JsonWriter& w, const Game& g, const std::vector<Slot>& targets, int viewer, bool ref = false) {
  w.beginArray();
  for (uint64_t k = g.nextAsSeen(targets, viewer, 0); k != ~0ULL; k = g.nextAsSeen(targets, viewer, k + 1))
    (ref ? writeRef : writeSlotId)(w, g, targets[(uint32_t)k], viewer);
  w.endArray();
}

void writeTargets(JsonWriter& w, const Game& g, const std::vector<Slot>& targets, int viewer, bool ref = false) {
  writeSlotList(w.key("targets"), g, targets, viewer, ref);
}

void writeValue(JsonWriter& w, const Game& g, Value v, int viewer) {
  const Def& d = g.def();
  switch (v.k()) {
    case VK::Int: w.value(v.v()); break;
    case VK::Bool: w.value(v.v() != 0); break;
    case VK::Str: w.value(d.syms.names[v.v()]); break;
    case VK::Ent: writeRef(w, g, Slot{v.v(), VK::Ent}, viewer); break;
    case VK::Zone: w.value(g.zoneId(v.v())); break;
    case VK::Item: writeItemId(w, v.v()); break;
    default: w.null();
  }
}

// The properties of a and then b, in name order (stably; of equal names the last, as the
// writer keeps), and whether their names need no escape (an ordered object, then).
template <class Props>
ViewLayout::Props propsInOrder(const Def& d, const Props& a, const Props& b) {
  std::vector<int> props;
  for (auto& kv : a) props.push_back(kv.first);
  for (auto& kv : b) props.push_back(kv.first);
  struct Ctx {
    const std::vector<std::string>& names;
    const std::vector<int>& props;
  } ctx{d.propNames, props};
  std::vector<uint32_t> order = stableOrder(props.size(), [](const void* c, size_t x, size_t y) {
    const Ctx& k = *(const Ctx*)c;
    return k.names[k.props[x]] < k.names[k.props[y]];
  }, &ctx);
  ViewLayout::Props out;
  for (size_t i = 0; i < order.size(); i++) {
    const std::string& name = d.propNames[props[order[i]]];
    if (i + 1 < order.size() && name == d.propNames[props[order[i + 1]]]) continue;
    out.ordered = out.ordered && plainJsonText(name);
    out.props.push_back(props[order[i]]);
  }
  return out;
}

// An object of property: value, the properties in name order (the writer would sort them too,
// by copying).
void writeProps(JsonWriter& w, const Game& g, int32_t e, const ViewLayout::Props& props, int viewer) {
  const Def& d = g.def();
  if (props.ordered) w.beginOrderedObject();
  else w.beginObject();
  for (int p : props.props) {
    w.key(d.propNames[p]);
    writeValue(w, g, g.propValue(e, p), viewer);
  }
  w.endObject();
}

// What a viewer sees of an entity in a zone they see: a face-down one they may not identify
// shows its face-down template (public) under its handle.
void writeEntity(JsonWriter& w, const Game& g, int32_t e, int viewer, ViewLayout& layout) {
  const Entity& en = g.state().ents[e];
  const ViewLayout::Props& props = layout.propsOf(en.tmpl);
  w.beginOrderedObject();
  w.raw(layout.controllerOf[en.controller]);
  if (g.def().templates[en.tmpl].faceDown) w.field("face_down", true);
  if (en.host >= 0) writeEntityId(w.key("host"), g, en.host, viewer);
  writeEntityId(w.key("id"), g, e, viewer);
  w.raw(layout.ownerOf[en.owner]);
  w.key("properties");
  writeProps(w, g, e, props, viewer);
  w.raw(props.tail);
  w.endObject();
}

// The members an object's writer adds in f, as JSON text (for ViewLayout's fixed members).
template <class F>
std::string membersText(F&& f) {
  JsonWriter w;
  w.beginOrderedObject();
  f(w);
  std::string text = w.endObject().take();
  return text.substr(1, text.size() - 2);
}

void writeItem(JsonWriter& w, const Game& g, const Item& it, int viewer) {
  const Def& d = g.def();
  const char* kind = "action";
  const std::string* name = nullptr;
  switch (it.kind) {
    case ItemKind::Action: name = &d.actions[it.def].name; break;
    case ItemKind::Reaction: name = &d.reactions[it.def].name; kind = "reaction"; break;
    case ItemKind::Triggered: name = &d.triggered[it.def].name; kind = "triggered"; break;
  }
  w.beginOrderedObject();
  w.key("action");
  if (name) w.value(*name);
  else w.value("");
  writeItemId(w.key("id"), it.id);
  w.field("kind", kind);
  w.key("mode");
  if (it.mode >= 0) w.value(it.mode);
  else w.null();
  w.field("player", d.playerIds[it.player]);
  w.key("source");
  if (it.source >= 0) writeRef(w, g, Slot{it.source, VK::Ent}, viewer);
  else w.null();
  writeTargets(w, g, it.targets, viewer, true);
  w.key("x");
  if (it.hasX) w.value(it.x);
  else w.null();
  w.endObject();
}

const char* evName(Ev e) {
  switch (e) {
    case Ev::ActionPlayed: return "ActionPlayed";
    case Ev::ActionExecuted: return "ActionExecuted";
    case Ev::ActionCancelled: return "ActionCancelled";
    case Ev::OnZoneEnter: return "OnZoneEnter";
    case Ev::DamageTaken: return "DamageTaken";
    case Ev::PhaseExecute: return "PhaseExecute";
    case Ev::TurnStart: return "TurnStart";
    case Ev::DrawFailed: return "DrawFailed";
    case Ev::GameOver: return "GameOver";
    case Ev::Named: return "Action";
    case Ev::GameError: return "GameError";
    default: return "Pass";
  }
}

void writeSlot(JsonWriter& w, const Game& g, const Slot& s, int viewer = -2) {
  if (s.k == VK::Null) w.null();
  else writeSlotId(w, g, s, viewer);
}


}  // namespace

void ViewLayout::prepare(const Game& g) {
  const Def& d = g.def();
  const size_t zoneCount = g.state().zones.size();
  if (def.get() == &d && zoneIds.size() == zoneCount) return;
  def = g.defPtr();
  zoneIds.clear();
  for (int32_t z = 0; z < (int32_t)zoneCount; z++) zoneIds.push_back(g.zoneId(z));
  zoneOrder = stableOrder(zoneIds.size(), [](const void* c, size_t x, size_t y) {
    auto& ids = *(const std::vector<std::string>*)c;
    return ids[x] < ids[y];
  }, &zoneIds);
  zonesOrdered = true;
  for (const std::string& id : zoneIds) zonesOrdered = zonesOrdered && plainJsonText(id);
  playerProps = propsInOrder(d, d.playerProps, d.perTurn);
  templateProps.assign(d.templates.size(), Props());
  controllerOf.clear();
  ownerOf.clear();
  for (const std::string& id : d.playerIds) {
    controllerOf.push_back(membersText([&](JsonWriter& w) { w.field("controller", id); }));
    ownerOf.push_back(membersText([&](JsonWriter& w) { w.field("owner", id); }));
  }
}

const ViewLayout::Props& ViewLayout::propsOf(int32_t tmpl) {
  if (!templateProps[tmpl].ready) {  // (on first use: a view shows a few of a definition's templates)
    const Template& t = def->templates[tmpl];
    templateProps[tmpl] = propsInOrder(*def, t.props, decltype(t.props){});
    templateProps[tmpl].tail = membersText([&](JsonWriter& w) {
      if (!t.tags.empty()) {
        w.key("tags").beginArray();
        for (int tg : t.tags) w.value(def->syms.names[tg]);
        w.endArray();
      }
      w.field("template", t.id);
      w.field("type", def->syms.names[t.typeSym]);
    });
    templateProps[tmpl].ready = true;
  }
  return templateProps[tmpl];
}

void writeView(JsonWriter& w, const Game& g, int viewer) {
  ViewLayout layout;
  writeView(w, g, viewer, layout);
}

void writeView(JsonWriter& w, const Game& g, int viewer, ViewLayout& layout) {
  const Def& d = g.def();
  const State& s = g.state();
  layout.prepare(g);
  w.beginOrderedObject();
  w.field("active", d.playerIds[s.active]);
  w.key("decisions").beginArray();
  for (auto& dec : s.decisions) {
    w.beginOrderedObject();
    // what the decider may choose is their business only
    if (viewer == -2 || viewer == dec.player) {
      std::vector<Move> moves;
      g.legalMoves(dec.player, moves);
      w.key("choices").beginArray();
      for (uint32_t i : g.orderAsSeen(moves, viewer)) {
        const Move& m = moves[i];
        if (m.kind == Move::Answer && m.decision == dec.id && m.accept) writeSlotList(w, g, m.targets, viewer);
      }
      w.endArray();
    }
    if (dec.kind == DecisionKind::Discard) w.field("count", dec.count);
    w.key("id").idValue("d", "", dec.id);
    // a reaction of a card the viewer may not identify does not name it (its name would)
    bool named = viewer == dec.player || dec.self < 0 || g.identifies(viewer, dec.self);
    switch (dec.kind) {
      case DecisionKind::Trigger: w.field("kind", "trigger"); if (named) w.field("name", d.triggered[dec.def].name); break;
      case DecisionKind::Reaction: w.field("kind", "reaction"); if (named) w.field("name", d.reactions[dec.def].name); break;
      case DecisionKind::Discard: w.field("kind", "discard"); break;
    }
    w.field("optional", dec.optional);
    w.field("player", d.playerIds[dec.player]);
    w.endObject();
  }
  w.endArray();
  w.field("game", d.name);
  w.key("phase");
  if (s.phase >= 0 && s.phase < (int)d.phases.size()) w.value(d.phases[s.phase].name);
  else w.null();
  w.key("players").beginArray();
  for (int p = 0; p < d.numPlayers(); p++) {
    w.beginOrderedObject();
    w.field("id", d.playerIds[p]);
    w.key("properties");
    writeProps(w, g, p, layout.playerProps, viewer);
    w.endObject();
  }
  w.endArray();
  w.key("priority");
  if (s.priority >= 0) w.value(d.playerIds[s.priority]);
  else w.null();
  w.key("queue").beginArray();
  for (auto it = s.queue.rbegin(); it != s.queue.rend(); ++it) writeItem(w, g, *it, viewer);
  w.endArray();
  w.key("result");
  if (!s.over()) w.null();
  else if (s.result < 0) w.beginObject().field("draw", true).endObject();
  else w.beginObject().field("winner", d.playerIds[s.result]).endObject();
  w.key("toAct").beginArray();
  for (int p : g.toAct()) w.value(d.playerIds[p]);
  w.endArray();
  w.field("turn", s.turn);
  // zones by id, in the ids' order
  const std::vector<std::string>& zoneIds = layout.zoneIds;
  w.key("zones");
  if (layout.zonesOrdered) w.beginOrderedObject();
  else w.beginObject();
  for (uint32_t zi : layout.zoneOrder) {
    int32_t z = (int32_t)zi;
    int32_t owner = g.zoneOwner(z);
    w.key(zoneIds[z]).beginOrderedObject();
    w.field("count", s.zones[z].size());
    if (g.seesZone(z, viewer)) {
      w.key("entities").beginArray();
      for (int32_t e : s.zones[z]) writeEntity(w, g, e, viewer, layout);
      w.endArray();
    }
    w.key("owner");
    if (owner >= 0) w.value(d.playerIds[owner]);
    else w.null();
    w.endObject();
  }
  w.endObject();
  w.endObject();
}

std::string viewText(const Game& g, int viewer) {
  ViewLayout layout;
  return viewText(g, viewer, layout);
}

std::string viewText(const Game& g, int viewer, ViewLayout& layout) {
  JsonWriter w;
  w.reserve(layout.sizeHint);  // (the string grows once, not by doublings)
  writeView(w, g, viewer, layout);
  layout.sizeHint = std::max(layout.sizeHint, w.str().size() + 64);
  return w.take();
}

void writeMove(JsonWriter& w, const Game& g, const Move& m, int viewer) {
  const Def& d = g.def();
  w.beginOrderedObject();
  switch (m.kind) {
    case Move::Pass: w.field("action", "pass"); break;
    case Move::Answer: {
      w.field("accept", m.accept);
      w.key("decision").idValue("d", "", m.decision);
      if (!m.targets.empty()) writeTargets(w, g, m.targets, viewer);
      break;
    }
    case Move::Take: {
      const Action& a = d.actions[m.action];
      w.field("action", a.name);
      if (m.mode >= 0) w.field("mode", m.mode);
      if (m.source >= 0) writeEntityId(w.key("source"), g, m.source, viewer);
      if (a.targetSpec(m.mode)) writeTargets(w, g, m.targets, viewer);
      if (m.hasX) w.field("x", m.x);
      break;
    }
  }
  w.endObject();
}

std::string moveText(const Game& g, const Move& m, int viewer) {
  return textOf([&](JsonWriter& w) { writeMove(w, g, m, viewer); });
}

bool parseMove(const Game& g, const json& j, Move& out, std::string& error, int viewer) {
  const Def& d = g.def();
  out = Move{};
  error.clear();
  if (!j.is_object()) { error = "a move is a JSON object"; return false; }
  static const char* const keys[] = {"action", "source", "targets", "mode", "x", "decision", "accept"};
  unsigned present = 0;  // (bit i: keys[i])
  for (auto it = j.begin(); it != j.end(); ++it) {
    auto k = std::find_if(std::begin(keys), std::end(keys), [&](const char* key) { return it.key() == key; });
    if (k == std::end(keys)) {
      error = "unknown key '" + it.key() + "' in the move";
      return false;
    }
    present |= 1u << (k - std::begin(keys));
  }
  // a key of another kind of move is refused, not ignored (a move is one that legalMoves lists)
  auto only = [&](unsigned allowed, const char* what) {
    if (!(present & ~allowed)) return true;
    error = std::string(what) + " takes no '" + keys[__builtin_ctz(present & ~allowed)] + "'";
    return false;
  };
  auto targets = [&]() -> bool {
    if (!j.contains("targets")) return true;
    if (!j["targets"].is_array()) { error = "targets must be a list of ids"; return false; }
    for (auto& t : j["targets"]) {
      if (!t.is_string() && !t.is_number_integer()) { error = "a target is an id (a string)"; return false; }
      std::string id = t.is_string() ? t.get<std::string>() : std::to_string(t.get<long long>());
      Slot s = g.parseTargetFor(id, viewer);
      if (s.k == VK::Null) {  // (kept as a null no candidate is: the check says bad_target in its turn)
        if (error.empty()) error = "unknown target '" + id + "'";
        s.v = -1;
      }
      out.targets.push_back(s);
    }
    return true;
  };
  if (j.contains("decision")) {
    if (!only(0x64, "an answer to a decision")) return false;  // decision, accept, targets
    out.kind = Move::Answer;
    const json& dj = j["decision"];
    std::string id = dj.is_string() ? dj.get<std::string>() : (dj.is_number_integer() ? "d" + std::to_string(dj.get<long long>()) : "");
    if (id.size() < 2 || id[0] != 'd') { error = "decision must be an id like \"d1\""; return false; }
    if (!readInt(id.substr(1), out.decision)) { error = "decision must be an id like \"d1\""; return false; }
    if (j.contains("accept")) {
      if (!j["accept"].is_boolean()) { error = "accept must be true or false"; return false; }
      out.accept = j["accept"].get<bool>();
    }
    return targets();
  }
  if (!j.contains("action") || !j["action"].is_string()) { error = "a move needs \"action\" (a name, or \"pass\") or \"decision\""; return false; }
  std::string name = j["action"].get<std::string>();
  if (name == "pass") {
    out.kind = Move::Pass;
    return only(0x01, "a pass");
  }
  if (!only(0x1f, "an action")) return false;  // action, source, targets, mode, x
  out.kind = Move::Take;
  if (j.contains("source")) {
    if (!j["source"].is_string()) { error = "source must be an entity id"; return false; }
    out.source = g.findEntityFor(j["source"].get<std::string>(), viewer);
    if (out.source < 0) error = "unknown source '" + j["source"].get<std::string>() + "'";
  }
  // the action: a global one by name, or the entity action of that name on the source
  out.action = -1;
  for (size_t i = 0; i < d.actions.size(); i++) {
    const Action& a = d.actions[i];
    if (a.name != name) continue;
    if (a.tmpl >= 0) {
      if (out.source >= 0 && g.state().ents[out.source].tmpl == a.tmpl) { out.action = (int)i; break; }
      if (out.action < 0) out.action = (int)i;
    } else {
      out.action = (int)i;
      if (out.source < 0 || a.source.present()) break;
    }
  }
  if (out.action < 0) error = "unknown action '" + name + "'";  // (checked before the source)
  if (out.action < 0) out.action = (int32_t)d.actions.size();  // (no action: unknown_action in its turn)
  if (j.contains("source") && out.source < 0) out.source = (int32_t)g.state().ents.size();  // (bad_source)
  if (j.contains("mode")) {
    if (!j["mode"].is_number_integer()) { error = "mode must be a whole number"; return false; }
    // (a mode given is one: a negative one is out of range, as 1000 is, never "no mode")
    const long long mode = j["mode"].get<long long>();
    out.mode = (int32_t)(mode < 0 ? 1000 : std::min<long long>(1000, mode));
  }
  if (j.contains("x")) {
    if (!j["x"].is_number_integer()) { error = "x must be a whole number"; return false; }
    out.x = (int32_t)std::max<long long>(-1000000, std::min<long long>(1000000, j["x"].get<long long>()));
    out.hasX = true;
  }
  return targets();
}

const std::string& refusal(const std::string& reason, const std::string& noted, const std::string& checked) {
  return !noted.empty() && reason == parseMoveReason(noted) ? noted : checked;
}

const char* parseMoveReason(const std::string& error) {
  if (error.rfind("unknown action", 0) == 0) return "unknown_action";
  if (error.rfind("unknown source", 0) == 0) return "bad_source";
  if (error.rfind("unknown target", 0) == 0) return "bad_target";
  if (error.rfind("unknown decision", 0) == 0) return "unknown_decision";
  return "malformed_move";
}

void writeEvent(JsonWriter& w, const Game& g, const LogEntry& le, int viewer) {
  const Def& d = g.def();
  const Event& e = le.ev;
  // what the viewer could not identify when it happened shows under the handle it had then
  uint32_t bit = viewer == -2 ? 0 : viewer < 0 ? LogEntry::kSpectator : (viewer < 31 ? 1u << viewer : 0);
  auto who = [&](const Slot& s, uint32_t hidden, int32_t handle) {
    if (hidden & bit) w.value(handle ? g.handleName(handle) : std::string("?"));  // (0: in a hidden place)
    else writeSlot(w, g, s);
  };
  w.beginObject();  // (keys in order)
  if (e.named >= 0) w.field("action", d.syms.names[e.named]);
  if (e.cancelled) w.field("cancelled", true);
  if (le.cause >= 0) writeItemId(w.key("cause"), le.cause);
  if (e.type == Ev::DamageTaken) w.field("damage_value", e.damage);
  if (e.type == Ev::GameOver && e.winner < 0) w.field("draw", true);
  if (e.entity.k != VK::Null) {
    w.key("entity");
    who(e.entity, le.hidEnt, le.hEnt);
  }
  if (e.from.k != VK::Null) {
    w.key("from");
    writeSlot(w, g, e.from);
  }
  if (e.item >= 0) writeItemId(w.key("item"), e.item);
  const bool failed = e.type == Ev::GameError && le.error;
  if (failed) w.field("message", le.error->what());
  if (e.phase >= 0) w.field("phase", d.phases[e.phase].name);
  if (e.player >= 0) w.field("player", d.playerIds[e.player]);
  if (failed) w.field("reason", le.error->reason);
  if (le.revealed & bit) w.field("revealed", g.handleName(le.hPrev));
  if (e.source.k != VK::Null) {
    w.key("source");
    who(e.source, le.hidSrc, le.hSrc);
  }
  if (e.type == Ev::TurnStart) w.field("turn", e.turn);
  if (e.type == Ev::Named) w.field("type", le.before ? "BeforeAction" : "AfterAction");
  else w.field("type", evName(e.type));
  if (e.type != Ev::Named && le.before) w.field("when", "before");
  if (e.type == Ev::GameOver && e.winner >= 0) w.field("winner", d.playerIds[e.winner]);
  if (e.zone.k != VK::Null) {
    w.key("zone");
    writeSlot(w, g, e.zone);
  }
  w.endObject();
}

std::string eventText(const Game& g, const LogEntry& e, int viewer) {
  return textOf([&](JsonWriter& w) { writeEvent(w, g, e, viewer); });
}

void writeTrace(JsonWriter& w, const Game& g, const Game::TraceStep& t) {
  const Def& d = g.def();
  static const char* kinds[] = {"mutation", "for_each", "event", "reactions", "take", "execute", "discard", "draw",
                                "create", "chain", "priority"};
  auto listName = [&]() -> std::string {
    switch (t.lk) {
      case LK::Setup: return "setup";
      case LK::OnEnter: return "phase " + d.phases[t.li].name + " on_enter";
      case LK::Cost: return "action " + d.actions[t.li].name + " cost";
      case LK::Action: return "action " + d.actions[t.li].name;
      case LK::Mode: return "action " + d.actions[t.li].name + " mode " + std::to_string(t.lj);
      case LK::Reaction: return "reaction " + (d.reactions[t.li].name.empty() ? std::string("(unnamed)") : d.reactions[t.li].name);
      case LK::Triggered: return "triggered " + d.triggered[t.li].name;
      case LK::Extra: return "do";
      default: return "";
    }
  };
  w.beginObject();  // (keys in order)
  w.field("depth", t.depth);
  switch (t.kind) {
    case FK::Muts: case FK::ForEach:
      w.field("index", t.index);
      w.field("list", listName());
      break;
    case FK::Event: case FK::React:
      w.key("event");
      writeEvent(w, g, LogEntry{t.ev, false, -1});  // (not logged: no "when")
      if (t.kind == FK::Event) w.field("stage", t.stage == 0 ? "before" : t.stage == 1 ? "apply" : t.stage == 2 ? "after" : "done");
      break;
    case FK::Take: case FK::Exec:
      if (t.item >= 0) writeItemId(w.key("item"), t.item);
      w.field("stage", t.stage);
      break;
    default: break;
  }
  w.field("step", kinds[(int)t.kind]);
  w.endObject();
}

std::string traceText(const Game& g, const Game::TraceStep& t) {
  return textOf([&](JsonWriter& w) { writeTrace(w, g, t); });
}

// ---- snapshots: the state field by field ----

namespace {
// Written as JSON arrays (tuples) of numbers, booleans, strings and tuples.
void put(JsonWriter& w, bool v) { w.value(v); }
template <class T, std::enable_if_t<std::is_integral<T>::value && !std::is_same<T, bool>::value, int> = 0>
void put(JsonWriter& w, T v) { w.value(v); }
template <class T, std::enable_if_t<std::is_enum<T>::value, int> = 0>
void put(JsonWriter& w, T v) { w.value((int)v); }
void put(JsonWriter& w, const std::string& v) { w.value(v); }
void put(JsonWriter& w, const Slot& s);
void put(JsonWriter& w, const Event& e);
void put(JsonWriter& w, const Item& it);
void put(JsonWriter& w, const FrameCtx& k);
void put(JsonWriter& w, const Frame& f);
void put(JsonWriter& w, const Zone& z) {
  w.beginArray();
  for (int32_t e : z) w.value(e);
  w.endArray();
}
template <class A, class B>
void put(JsonWriter& w, const std::pair<A, B>& p);
template <class T>
void put(JsonWriter& w, const std::vector<T>& v) {
  w.beginArray();
  for (const T& x : v) put(w, x);
  w.endArray();
}
template <class... T>
void tuple(JsonWriter& w, const T&... v) {
  w.beginArray();
  (put(w, v), ...);
  w.endArray();
}
template <class A, class B>
void put(JsonWriter& w, const std::pair<A, B>& p) { tuple(w, p.first, p.second); }
void put(JsonWriter& w, const Slot& s) { tuple(w, s.k, s.v); }
void put(JsonWriter& w, const Event& e) {
  tuple(w, e.type, e.named, e.player, e.entity, e.zone, e.from, e.source, e.damage, e.phase, e.item, e.winner, e.cancelled, e.turn);
}
void put(JsonWriter& w, const Item& it) {
  tuple(w, it.id, it.kind, it.def, it.player, it.source, it.self, it.mode, it.x, it.hasX, it.cancelled, it.targets, it.props, it.event);
}
void put(JsonWriter& w, const FrameCtx& k) {
  tuple(w, k.player, k.self, k.selected, k.mode, k.x, k.item, k.evFrame, k.evInItem, k.itemFrame, k.targets);
}
void put(JsonWriter& w, const Frame& f) {
  tuple(w, f.kind, f.stage, f.halves, f.before, f.lk, f.li, f.lj, f.next, f.pos, f.a, f.b, f.c, f.k, f.idx, f.e, f.part, f.ctx, f.ev,
        f.item, f.values);
}

Slot slotFrom(const json& j) { return Slot{j.at(1).get<int32_t>(), (VK)j.at(0).get<int>()}; }
Event eventFrom(const json& j) {
  Event e;
  e.type = (Ev)j.at(0).get<int>();
  e.named = j.at(1); e.player = j.at(2);
  e.entity = slotFrom(j.at(3)); e.zone = slotFrom(j.at(4)); e.from = slotFrom(j.at(5)); e.source = slotFrom(j.at(6));
  e.damage = j.at(7); e.phase = j.at(8); e.item = j.at(9); e.winner = j.at(10); e.cancelled = j.at(11);
  e.turn = j.size() > 12 ? j.at(12).get<int32_t>() : 0;
  return e;
}
Item itemFrom(const json& j) {
  Item it;
  it.id = j.at(0); it.kind = (ItemKind)j.at(1).get<int>(); it.def = j.at(2); it.player = j.at(3); it.source = j.at(4);
  it.self = j.at(5); it.mode = j.at(6); it.x = j.at(7); it.hasX = j.at(8); it.cancelled = j.at(9);
  for (auto& s : j.at(10)) it.targets.push_back(slotFrom(s));
  for (auto& kv : j.at(11)) it.props.push_back({kv.at(0).get<int32_t>(), slotFrom(kv.at(1))});
  it.event = eventFrom(j.at(12));
  return it;
}
Frame frameFrom(const json& j) {
  Frame f;
  f.kind = (FK)j.at(0).get<int>(); f.stage = j.at(1).get<uint8_t>(); f.halves = j.at(2).get<uint8_t>(); f.before = j.at(3);
  f.lk = (LK)j.at(4).get<int>(); f.li = j.at(5); f.lj = j.at(6); f.next = j.at(7); f.pos = j.at(8);
  f.a = j.at(9); f.b = j.at(10); f.c = j.at(11); f.k = j.at(12); f.idx = j.at(13); f.e = j.at(14);
  f.part = j.at(15).get<uint8_t>();
  const json& c = j.at(16);
  FrameCtx& k = f.ctx;
  k.player = c.at(0); k.self = c.at(1); k.selected = c.at(2); k.mode = c.at(3); k.x = c.at(4); k.item = slotFrom(c.at(5));
  k.evFrame = c.at(6); k.evInItem = c.at(7); k.itemFrame = c.at(8);
  for (auto& t : c.at(9)) k.targets.push_back(slotFrom(t));
  f.ev = eventFrom(j.at(17));
  f.item = itemFrom(j.at(18));
  for (auto& v : j.at(19)) f.values.push_back(slotFrom(v));
  return f;
}

// Everything a frame indexes must exist, so that a restored stack resumes safely.
bool frameValid(const Def& d, const State& s, size_t i, const Frame& f, size_t extraLists) {
  auto in = [](int32_t v, int32_t lo, size_t n) { return v >= lo && v < (int32_t)n; };
  int np = d.numPlayers();
  if ((int)f.kind > (int)FK::Priority || (int)f.lk > (int)LK::Extra) return false;
  const FrameCtx& k = f.ctx;
  if (!in(k.player, -1, (size_t)np) || !in(k.self, -1, s.ents.size()) || !in(k.selected, -1, s.ents.size())) return false;
  if (!in(k.evFrame, -1, i + 1) || !in(k.itemFrame, -1, i + 1)) return false;
  if (k.itemFrame >= 0 && s.stack[k.itemFrame].kind != FK::Take && s.stack[k.itemFrame].kind != FK::Exec) return false;
  // the list
  if (f.kind == FK::Muts || f.kind == FK::ForEach) {
    switch (f.lk) {
      case LK::Setup: break;
      case LK::OnEnter: if (!in(f.li, 0, d.phases.size())) return false; break;
      case LK::Cost: case LK::Action: if (!in(f.li, 0, d.actions.size())) return false; break;
      case LK::Mode: if (!in(f.li, 0, d.actions.size()) || !in(f.lj, 0, d.actions[f.li].modes.size())) return false; break;
      case LK::Reaction: if (!in(f.li, 0, d.reactions.size())) return false; break;
      case LK::Triggered: if (!in(f.li, 0, d.triggered.size())) return false; break;
      case LK::Extra: if (!in(f.li, 0, extraLists)) return false; break;
      default: return false;
    }
    if (f.next < 0 || f.pos < 0) return false;
  }
  if (f.kind == FK::ForEach && f.next >= 1000000) return false;
  if (f.kind == FK::React && (!in(f.a, 0, i) || f.part > 2 || f.k < 0 || f.idx < 0 || f.e < 0)) return false;
  if (f.kind == FK::Event && f.ev.type == Ev::OnZoneEnter &&
      (f.ev.entity.k != VK::Ent || !in(f.ev.entity.v, np, s.ents.size()) || f.ev.zone.k != VK::Zone ||
       !in(f.ev.zone.v, 0, s.zones.size())))
    return false;
  if (f.kind == FK::Event && f.ev.type == Ev::DamageTaken &&
      (f.ev.entity.k != VK::Ent || !in(f.ev.entity.v, 0, s.ents.size()) || !in(f.a, 0, d.propNames.size())))
    return false;
  if (f.kind == FK::Event && f.ev.type == Ev::PhaseExecute && !in(f.ev.phase, 0, d.phases.size())) return false;
  if (f.kind == FK::Take || f.kind == FK::Exec) {
    const Item& it = f.item;
    int n = it.kind == ItemKind::Action ? (int)d.actions.size() : it.kind == ItemKind::Reaction ? (int)d.reactions.size() : (int)d.triggered.size();
    if (!in(it.def, 0, (size_t)n) || !in(it.player, 0, (size_t)np) || !in(it.source, -1, s.ents.size())) return false;
    if (it.kind == ItemKind::Action && !in(it.mode, -1, d.actions[it.def].modes.size())) return false;
  }
  if (f.kind == FK::Take && !in(f.a, 0, (size_t)np)) return false;
  if ((f.kind == FK::Exec || f.kind == FK::Chain) && !in(f.a, -1, (size_t)np)) return false;
  if (f.kind == FK::Discard) {
    if (f.values.size() % 3 != 0) return false;
    for (size_t v = 0; v < f.values.size(); v += 3)
      if (!in(f.values[v].v, 0, (size_t)np) || !in(f.values[v + 1].v, 0, s.zones.size()) || !in(f.values[v + 2].v, 0, s.zones.size()))
        return false;
  }
  if (f.kind == FK::Draw && (!in(f.a, 0, (size_t)np) || !in(f.b, 0, s.zones.size()) || !in(f.c, 0, s.zones.size()))) return false;
  if (f.kind == FK::Create && (!in(f.a, 0, d.templates.size()) || !in(f.b, 0, s.zones.size()) || !in(f.c, 0, (size_t)np))) return false;
  if (f.kind == FK::Priority && !in(f.a, 0, (size_t)np)) return false;
  return true;
}
}  // namespace

void writeSnapshot(JsonWriter& w, const Game& g) {
  const State& s = g.state();
  w.beginObject();  // (keys in order)
  w.key("customIds");
  put(w, s.customIds);
  w.key("decisions").beginArray();
  for (auto& d : s.decisions) tuple(w, d.id, d.kind, d.player, d.def, d.self, d.optional, d.event, d.options, d.count, d.dest, d.evFrame);
  w.endArray();
  w.key("entities").beginArray();
  for (auto& e : s.ents)  // (the last two: who did not see it destroyed, Entity::goneHidden)
    tuple(w, e.tmpl, e.idTmpl, e.serial, e.owner, e.controller, e.zone, e.host, e.alive, e.handle, e.prevHandle,
          (int)e.goneHidden, (int)e.goneFaceDown);
  w.endArray();
  w.key("flow");
  tuple(w, s.turn, s.phase, s.active, s.priority, s.passes, s.nextItemId, s.nextDecisionId, s.result, s.phaseStarted, s.endTurn,
        s.started);
  w.field("format", "rulestack-snapshot-1");
  w.field("game", g.def().name);
  w.key("handles");
  tuple(w, s.nextHandle, hex16(s.salt));
  w.key("props");
  put(w, s.props);
  w.key("queue");
  put(w, s.queue);
  if (!s.recent.empty()) {  // (the last items to leave the queue, which $event.action still reads)
    w.key("recent");
    tuple(w, s.recentAt, s.recent);
  }
  w.field("rng", hex16(s.rng.s));
  w.key("serials");
  put(w, s.serials);
  w.key("stack").beginArray();
  for (auto& f : s.stack) put(w, f);
  w.endArray();
  w.key("zones");
  put(w, s.zones);
  w.endObject();
}

std::string snapshotText(const Game& g) {
  return textOf([&](JsonWriter& w) { writeSnapshot(w, g); });
}

namespace {
// A snapshot holds whole numbers of at most 32 bits only (the RNG and the salt are hex text):
// anything else is refused before a field is narrowed to int.
bool only32BitIntegers(const json& j) {
  if (j.is_number_float()) return false;
  if (j.is_number_unsigned()) return j.get<uint64_t>() <= (uint64_t)INT32_MAX;
  if (j.is_number_integer()) return j.get<int64_t>() >= INT32_MIN && j.get<int64_t>() <= INT32_MAX;
  if (j.is_array() || j.is_object())
    for (auto& v : j)
      if (!only32BitIntegers(v)) return false;
  return true;
}
}  // namespace

namespace {
// "inconsistent snapshot: <what>", then " <i>" when i is not -1: one out-of-line call per check
// with a literal, not a std::string temporary (and its cleanup) at each of restoreSnapshot's checks.
bool inconsistent(std::string& error, const char* what, long i) {
  error = std::string("inconsistent snapshot: ") + what;
  if (i != -1) error += " " + std::to_string(i);
  return false;
}
}  // namespace

bool restoreSnapshot(Game& g, const json& j, std::string& error) {
  const Def& d = g.def();
  if (!only32BitIntegers(j)) {
    error = "inconsistent snapshot: a number that is not a 32-bit whole number";
    return false;
  }
  try {
    if (!j.is_object() || j.value("format", "") != "rulestack-snapshot-1") {
      error = "not a rulestack snapshot (format rulestack-snapshot-1)";
      return false;
    }
    if (j.value("game", "") != d.name) {
      error = "the snapshot is of game '" + j.value("game", "") + "', not '" + d.name + "'";
      return false;
    }
    State s;
    for (auto& e : j.at("entities")) {
      // numbers where numbers are, a boolean for `alive` (a true is not a zone 1)
      for (size_t k = 0; k < e.size(); k++)
        if (k == 7 ? !e[k].is_boolean() : !e[k].is_number_integer()) {
          error = "inconsistent snapshot: entity field " + std::to_string(k) + " is not a " + (k == 7 ? "boolean" : "whole number");
          return false;
        }
      Entity en;
      en.tmpl = e.at(0); en.idTmpl = e.at(1); en.serial = e.at(2); en.owner = e.at(3); en.controller = e.at(4);
      en.zone = e.at(5); en.host = e.at(6); en.alive = e.at(7);
      if (e.size() > 9) { en.handle = e.at(8); en.prevHandle = e.at(9); }
      if (e.size() > 11) {
        const int gh = e.at(10), gf = e.at(11);
        if (gh < 0 || gh >= (1 << d.numPlayers()) || gf < 0 || gf >= (1 << d.numPlayers()) || (en.alive && (gh | gf)))
          return inconsistent(error, "out of sight of entity", (long)s.ents.size());
        en.goneHidden = (uint8_t)gh;
        en.goneFaceDown = (uint8_t)gf;
      }
      s.ents.push_back(en);
    }
    for (auto& p : j.at("props")) s.props.push_back(slotFrom(p));
    const auto zones = j.at("zones").get<std::vector<std::vector<int32_t>>>();
    s.zones = std::vector<Zone>(zones.size());
    for (size_t z = 0; z < zones.size(); z++) s.zones[z].assign(zones[z]);
    s.serials = j.at("serials").get<std::vector<int32_t>>();
    for (auto& it : j.at("queue")) s.queue.push_back(itemFrom(it));
    if (j.contains("recent")) {  // (snapshots from before it: none kept)
      const json& r = j.at("recent");
      s.recentAt = r.at(0).get<uint32_t>();
      for (auto& it : r.at(1)) {
        if (s.recent.size() > kRecentItems) break;  // (refused below)
        s.recent.push_back(itemFrom(it));
      }
    }
    for (auto& dj : j.at("decisions")) {
      Decision dc;
      dc.id = dj.at(0); dc.kind = (DecisionKind)dj.at(1).get<int>(); dc.player = dj.at(2); dc.def = dj.at(3);
      dc.self = dj.at(4); dc.optional = dj.at(5); dc.event = eventFrom(dj.at(6));
      dc.options = dj.at(7).get<std::vector<int32_t>>(); dc.count = dj.at(8); dc.dest = dj.at(9);
      dc.evFrame = dj.size() > 10 ? dj.at(10).get<int32_t>() : -1;
      s.decisions.push_back(dc);
    }
    if (j.contains("stack"))
      for (auto& fj : j.at("stack")) {
        if (s.stack.size() > 400) break;  // (refused below)
        s.stack.push(FK::Muts) = frameFrom(fj);
      }
    for (auto& c : j.at("customIds")) s.customIds.push_back({c.at(0).get<int32_t>(), c.at(1).get<std::string>()});
    const json& f = j.at("flow");
    s.turn = f.at(0); s.phase = f.at(1); s.active = f.at(2); s.priority = f.at(3); s.passes = f.at(4);
    s.nextItemId = f.at(5); s.nextDecisionId = f.at(6); s.result = f.at(7); s.phaseStarted = f.at(8);
    s.endTurn = f.at(9); s.started = f.at(10);
    if (!parseHex16(j.at("rng").get<std::string>(), s.rng.s)) {
      error = "malformed snapshot: rng is not a hex number";
      return false;
    }
    if (j.contains("handles")) {  // (snapshots from before handles: none)
      s.nextHandle = j.at("handles").at(0);
      if (!parseHex16(j.at("handles").at(1).get<std::string>(), s.salt)) {
        error = "malformed snapshot: the handles' salt is not a hex number";
        return false;
      }
    }
    // consistency: sizes and index ranges, so a tampered snapshot cannot crash the engine
    size_t np = d.propNames.size();
    auto bad = [&](const char* what, long i = -1) { return inconsistent(error, what, i); };
    if (s.ents.size() < (size_t)d.numPlayers() || s.ents.size() > kMaxEntities) return bad("entity count");
    if (s.props.size() != s.ents.size() * np) return bad("property count");
    if (s.zones.size() != (size_t)d.numZoneInstances) return bad("zone count");
    if (s.serials.size() != d.templates.size()) return bad("template count");
    for (size_t i = 0; i < s.ents.size(); i++) {
      const Entity& e = s.ents[i];
      bool player = i < (size_t)d.numPlayers();
      if (!player && (e.tmpl < 0 || e.tmpl >= (int)d.templates.size() || e.idTmpl < 0 || e.idTmpl >= (int)d.templates.size()))
        return bad("template of entity", (long)i);
      if (e.owner < 0 || e.owner >= d.numPlayers() || e.controller < 0 || e.controller >= d.numPlayers()) return bad("owner");
      if (e.zone < -1 || e.zone >= d.numZoneInstances || e.host < -1 || e.host >= (int)s.ents.size()) return bad("zone or host");
      if (e.serial < 0 && ((size_t)(-1 - e.serial) >= s.customIds.size() || s.customIds[-1 - e.serial].first != (int32_t)i))
        return bad("custom id of entity", (long)i);
      if (e.handle < 0 || e.handle >= s.nextHandle || e.prevHandle < 0 || e.prevHandle >= s.nextHandle) return bad("handle of entity", (long)i);
      // "<Template>#n": n from 1 to the template's counter (the next Create makes n + 1)
      if (!player && e.serial >= 0 && (e.serial < 1 || e.serial > s.serials[e.idTmpl])) return bad("serial of entity", (long)i);
    }
    {  // each "<Template>#n" names one entity (a fuzz finding: two Counter#3, a listed move refused)
      std::vector<std::pair<int32_t, int32_t>> ids;
      for (size_t i = (size_t)d.numPlayers(); i < s.ents.size(); i++)
        if (s.ents[i].serial > 0) ids.push_back({s.ents[i].idTmpl, s.ents[i].serial});
      stableSort(ids, std::less<>());
      if (std::adjacent_find(ids.begin(), ids.end()) != ids.end()) return bad("two entities with one id");
    }
    // every value a slot holds points at something that exists
    auto slotOk = [&](const Slot& v) {
      switch (v.k) {
        case VK::Null: case VK::Int: case VK::Bool: case VK::Item: return true;
        case VK::Str: return v.v >= 0 && v.v < (int32_t)d.syms.names.size();
        case VK::Ent: return v.v >= 0 && v.v < (int32_t)s.ents.size();
        case VK::Zone: return v.v >= 0 && v.v < (int32_t)s.zones.size();
        default: return false;
      }
    };
    auto eventOk = [&](const Event& e) {
      return (int)e.type < (int)Ev::Count && slotOk(e.entity) && slotOk(e.zone) && slotOk(e.from) && slotOk(e.source) &&
             e.player >= -1 && e.player < d.numPlayers() && e.winner >= -1 && e.winner < d.numPlayers() &&
             e.phase >= -1 && e.phase < (int)d.phases.size() && e.named >= -1 && e.named < (int)d.syms.names.size() &&
             (e.zone.k == VK::Null || e.zone.k == VK::Zone) && (e.from.k == VK::Null || e.from.k == VK::Zone);
    };
    auto itemOk = [&](const Item& it) {
      if ((int)it.kind > (int)ItemKind::Triggered) return false;
      int n = it.kind == ItemKind::Action ? (int)d.actions.size() : it.kind == ItemKind::Reaction ? (int)d.reactions.size() : (int)d.triggered.size();
      if (it.def < 0 || it.def >= n || it.player < 0 || it.player >= d.numPlayers()) return false;
      // a source or self is an entity, never a player (-1: none)
      auto entityOrNone = [&](int32_t e) { return e == -1 || (e >= d.numPlayers() && e < (int32_t)s.ents.size()); };
      if (!entityOrNone(it.source) || !entityOrNone(it.self)) return false;
      if (it.kind == ItemKind::Action && (it.mode < -1 || it.mode >= (int)d.actions[it.def].modes.size())) return false;
      for (const Slot& t : it.targets)
        if (!slotOk(t)) return false;
      for (auto& kv : it.props)
        if (!slotOk(kv.second)) return false;
      return eventOk(it.event);
    };
    for (const Slot& v : s.props)
      if (!slotOk(v)) return bad("property value");
    if (s.result < -2 || s.result >= d.numPlayers()) return bad("result");
    if (s.nextHandle < 1 || s.nextHandle > (1 << 30)) return bad("handle counter");
    if (s.turn < 0 || s.nextItemId < 1 || s.nextItemId > (1 << 30) || s.nextDecisionId < 1 || s.nextDecisionId > (1 << 30))
      return bad("counters");
    std::vector<std::string> customNames;
    for (auto& c : s.customIds) {
      if (c.first < d.numPlayers() || c.first >= (int32_t)s.ents.size()) return bad("custom id");
      customNames.push_back(c.second);
    }
    stableSort(customNames, std::less<>());  // each id names one entity
    if (std::adjacent_find(customNames.begin(), customNames.end()) != customNames.end()) return bad("a custom id given twice");
    // each entity in at most one zone, and in the zone it says
    std::vector<int32_t> where(s.ents.size(), -1);
    for (int32_t z = 0; z < (int32_t)s.zones.size(); z++)
      for (int32_t e : s.zones[z]) {
        if (e < d.numPlayers() || e >= (int32_t)s.ents.size()) return bad("zone content");
        if (where[e] >= 0) return bad("an entity in two places");
        where[e] = z;
      }
    for (size_t i = (size_t)d.numPlayers(); i < s.ents.size(); i++)
      if (s.ents[i].zone != where[i] || (!s.ents[i].alive && s.ents[i].zone >= 0)) return bad("zone of entity", (long)i);
    if (s.active < 0 || s.active >= d.numPlayers() || s.priority < -1 || s.priority >= d.numPlayers()) return bad("players");
    if (s.phase < -1 || s.phase > (int)d.phases.size()) return bad("phase");
    if (s.queue.size() > kMaxQueue) return bad("queue size");
    for (auto& it : s.queue)
      if (!itemOk(it)) return bad("queue item");
    // the ring of items that left: full, or filled up to where its next one goes
    if (s.recent.size() > kRecentItems || s.recentAt >= kRecentItems ||
        (s.recent.size() < kRecentItems && s.recentAt != s.recent.size()))
      return bad("recent items");
    for (auto& it : s.recent)
      if (!itemOk(it)) return bad("recent item");
    for (auto& dc : s.decisions) {
      if (dc.player < 0 || dc.player >= d.numPlayers() || (int)dc.kind > (int)DecisionKind::Discard) return bad("decision");
      if (!(dc.self == -1 || (dc.self >= d.numPlayers() && dc.self < (int32_t)s.ents.size())) || !eventOk(dc.event) || dc.count < 0)
        return bad("decision");
      if (dc.kind == DecisionKind::Discard && (dc.dest < 0 || dc.dest >= (int32_t)s.zones.size())) return bad("decision");
      for (int32_t o : dc.options)
        if (o < d.numPlayers() || o >= (int32_t)s.ents.size()) return bad("decision");
      if (dc.kind == DecisionKind::Trigger && (dc.def < 0 || dc.def >= (int)d.triggered.size())) return bad("decision");
      if (dc.kind == DecisionKind::Reaction && (dc.def < 0 || dc.def >= (int)d.reactions.size())) return bad("decision");
      if (dc.evFrame < -1 || dc.evFrame >= (int32_t)s.stack.size()) return bad("decision");
    }
    if (s.stack.size() > 400) return bad("resolution stack");
    for (size_t i = 0; i < s.stack.size(); i++) {
      const Frame& f = s.stack[i];
      bool ok = frameValid(d, s, i, f, g.extraLists()) && eventOk(f.ev) && slotOk(f.ctx.item);
      for (const Slot& t : f.ctx.targets) ok = ok && slotOk(t);
      for (const Slot& v : f.values) ok = ok && slotOk(v);
      if ((f.kind == FK::Take || f.kind == FK::Exec) && f.item.id >= 0) ok = ok && itemOk(f.item);
      if (!ok) return bad("resolution frame", (long)i);
    }
    g.mutableState() = std::move(s);
    return true;
  } catch (const std::bad_alloc&) {
    throw;
  } catch (const std::exception& e) {
    error = std::string("malformed snapshot: ") + e.what();
    return false;
  }
}

}  // namespace rulestack
