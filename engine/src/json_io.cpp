#include "json_io.h"

#include "names.h"

#include <algorithm>

namespace rulestack {

using nlohmann::json;

namespace {

json valueJson(const Game& g, Value v, int viewer) {
  const Def& d = g.def();
  switch (v.k()) {
    case VK::Null: return nullptr;
    case VK::Int: return v.v();
    case VK::Bool: return v.v() != 0;
    case VK::Str: return d.syms.names[v.v()];
    case VK::Ent: return g.entityIdFor(v.v(), viewer);
    case VK::Zone: return g.zoneId(v.v());
    case VK::Item: return "q" + std::to_string(v.v());
    default: return nullptr;
  }
}

// What a viewer sees of an entity in a zone they see: a face-down one they may not identify
// shows its face-down template (public) under its handle.
json entityJson(const Game& g, int32_t e, int viewer) {
  const Def& d = g.def();
  const State& s = g.state();
  const Entity& en = s.ents[e];
  const Template& t = d.templates[en.tmpl];
  json j = {{"id", g.entityIdFor(e, viewer)}, {"template", t.id}, {"type", d.syms.names[t.typeSym]},
            {"owner", d.playerIds[en.owner]}, {"controller", d.playerIds[en.controller]}};
  if (!t.tags.empty()) {
    json tags = json::array();
    for (int tg : t.tags) tags.push_back(d.syms.names[tg]);
    j["tags"] = tags;
  }
  if (t.faceDown) j["face_down"] = true;
  if (en.host >= 0) j["host"] = g.entityIdFor(en.host, viewer);
  json props = json::object();
  for (auto& kv : t.props) props[d.propNames[kv.first]] = valueJson(g, g.propValue(e, kv.first), viewer);
  j["properties"] = props;
  return j;
}

json itemJson(const Game& g, const Item& it, int viewer) {
  const Def& d = g.def();
  std::string name;
  std::string kind = "action";
  switch (it.kind) {
    case ItemKind::Action: name = d.actions[it.def].name; break;
    case ItemKind::Reaction: name = d.reactions[it.def].name; kind = "reaction"; break;
    case ItemKind::Triggered: name = d.triggered[it.def].name; kind = "triggered"; break;
  }
  json targets = json::array();
  for (auto& t : it.targets) targets.push_back(g.slotIdFor(t, viewer));
  json j = {{"id", "q" + std::to_string(it.id)}, {"kind", kind}, {"action", name}, {"player", d.playerIds[it.player]},
            {"source", it.source >= 0 ? json(g.entityIdFor(it.source, viewer)) : json(nullptr)}, {"targets", targets},
            {"mode", it.mode >= 0 ? json(it.mode) : json(nullptr)}, {"x", it.hasX ? json(it.x) : json(nullptr)}};
  return j;
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

json slotJson(const Game& g, const Slot& s, int viewer = -2) {
  return s.k == VK::Null ? json(nullptr) : json(g.slotIdFor(s, viewer));
}

}  // namespace

json viewJson(const Game& g, int viewer) {
  const Def& d = g.def();
  const State& s = g.state();
  json v;
  v["game"] = d.name;
  v["turn"] = s.turn;
  v["phase"] = (s.phase >= 0 && s.phase < (int)d.phases.size()) ? json(d.phases[s.phase].name) : json(nullptr);
  v["active"] = d.playerIds[s.active];
  v["priority"] = s.priority >= 0 ? json(d.playerIds[s.priority]) : json(nullptr);
  json toAct = json::array();
  for (int p : g.toAct()) toAct.push_back(d.playerIds[p]);
  v["toAct"] = toAct;
  json players = json::array();
  for (int p = 0; p < d.numPlayers(); p++) {
    json props = json::object();
    for (auto& kv : d.playerProps) props[d.propNames[kv.first]] = valueJson(g, g.propValue(p, kv.first), viewer);
    for (auto& kv : d.perTurn) props[d.propNames[kv.first]] = valueJson(g, g.propValue(p, kv.first), viewer);
    players.push_back({{"id", d.playerIds[p]}, {"properties", props}});
  }
  v["players"] = players;
  json zones = json::object();
  for (int32_t z = 0; z < (int32_t)s.zones.size(); z++) {
    const ZoneDef& zd = d.zones[g.zoneDefOf(z)];
    int32_t owner = g.zoneOwner(z);
    json zj;
    zj["owner"] = owner >= 0 ? json(d.playerIds[owner]) : json(nullptr);
    zj["count"] = s.zones[z].size();
    if (g.seesZone(z, viewer)) {
      json ents = json::array();
      for (int32_t e : s.zones[z]) ents.push_back(entityJson(g, e, viewer));
      zj["entities"] = ents;
    }
    zones[g.zoneId(z)] = zj;
  }
  v["zones"] = zones;
  json queue = json::array();
  for (auto it = s.queue.rbegin(); it != s.queue.rend(); ++it) queue.push_back(itemJson(g, *it, viewer));
  v["queue"] = queue;
  json decisions = json::array();
  for (auto& dec : s.decisions) {
    json dj = {{"id", "d" + std::to_string(dec.id)}, {"player", d.playerIds[dec.player]}, {"optional", dec.optional}};
    // a reaction of a card the viewer may not identify does not name it (its name would)
    bool named = viewer == dec.player || dec.self < 0 || g.identifies(viewer, dec.self);
    switch (dec.kind) {
      case DecisionKind::Trigger: dj["kind"] = "trigger"; if (named) dj["name"] = d.triggered[dec.def].name; break;
      case DecisionKind::Reaction: dj["kind"] = "reaction"; if (named) dj["name"] = d.reactions[dec.def].name; break;
      case DecisionKind::Discard: dj["kind"] = "discard"; dj["count"] = dec.count; break;
    }
    // what the decider may choose is their business only
    if (viewer == -2 || viewer == dec.player) {
      std::vector<Move> moves;
      g.legalMoves(dec.player, moves);
      json opts = json::array();
      for (auto& m : moves)
        if (m.kind == Move::Answer && m.decision == dec.id && m.accept) {
          json t = json::array();
          for (auto& s2 : m.targets) t.push_back(g.slotIdFor(s2, viewer));
          opts.push_back(t);
        }
      dj["choices"] = opts;
    }
    decisions.push_back(dj);
  }
  v["decisions"] = decisions;
  if (!s.over()) v["result"] = nullptr;
  else if (s.result < 0) v["result"] = {{"draw", true}};
  else v["result"] = {{"winner", d.playerIds[s.result]}};
  return v;
}

json moveJson(const Game& g, const Move& m, int viewer) {
  const Def& d = g.def();
  json j;
  switch (m.kind) {
    case Move::Pass: j["action"] = "pass"; break;
    case Move::Answer: {
      j["decision"] = "d" + std::to_string(m.decision);
      j["accept"] = m.accept;
      if (!m.targets.empty()) {
        json t = json::array();
        for (auto& s : m.targets) t.push_back(g.slotIdFor(s, viewer));
        j["targets"] = t;
      }
      break;
    }
    case Move::Take: {
      const Action& a = d.actions[m.action];
      j["action"] = a.name;
      if (m.source >= 0) j["source"] = g.entityIdFor(m.source, viewer);
      if (a.target.present || (m.mode >= 0 && a.modes[m.mode].target.present)) {
        json t = json::array();
        for (auto& s : m.targets) t.push_back(g.slotIdFor(s, viewer));
        j["targets"] = t;
      }
      if (m.mode >= 0) j["mode"] = m.mode;
      if (m.hasX) j["x"] = m.x;
      break;
    }
  }
  return j;
}

bool parseMove(const Game& g, const json& j, Move& out, std::string& error, int viewer) {
  const Def& d = g.def();
  out = Move{};
  if (!j.is_object()) { error = "a move is a JSON object"; return false; }
  for (auto it = j.begin(); it != j.end(); ++it) {
    static const char* keys[] = {"action", "source", "targets", "mode", "x", "decision", "accept"};
    if (std::find_if(std::begin(keys), std::end(keys), [&](const char* k) { return it.key() == k; }) == std::end(keys)) {
      error = "unknown key '" + it.key() + "' in the move";
      return false;
    }
  }
  auto targets = [&]() -> bool {
    if (!j.contains("targets")) return true;
    if (!j["targets"].is_array()) { error = "targets must be a list of ids"; return false; }
    for (auto& t : j["targets"]) {
      if (!t.is_string() && !t.is_number_integer()) { error = "a target is an id (a string)"; return false; }
      std::string id = t.is_string() ? t.get<std::string>() : std::to_string(t.get<long long>());
      Slot s = g.parseTargetFor(id, viewer);
      if (s.k == VK::Null) { error = "unknown target '" + id + "'"; return false; }
      out.targets.push_back(s);
    }
    return true;
  };
  if (j.contains("decision")) {
    out.kind = Move::Answer;
    const json& dj = j["decision"];
    std::string id = dj.is_string() ? dj.get<std::string>() : (dj.is_number_integer() ? "d" + std::to_string(dj.get<long long>()) : "");
    if (id.size() < 2 || id[0] != 'd') { error = "decision must be an id like \"d1\""; return false; }
    try { out.decision = std::stoi(id.substr(1)); } catch (...) { error = "decision must be an id like \"d1\""; return false; }
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
    return true;
  }
  out.kind = Move::Take;
  if (j.contains("source")) {
    if (!j["source"].is_string()) { error = "source must be an entity id"; return false; }
    out.source = g.findEntityFor(j["source"].get<std::string>(), viewer);
    if (out.source < 0) { error = "unknown source '" + j["source"].get<std::string>() + "'"; return false; }
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
  if (out.action < 0) { error = "unknown action '" + name + "'"; return false; }
  if (j.contains("mode")) {
    if (!j["mode"].is_number_integer()) { error = "mode must be a whole number"; return false; }
    out.mode = (int32_t)std::max<long long>(-1, std::min<long long>(1000, j["mode"].get<long long>()));
  }
  if (j.contains("x")) {
    if (!j["x"].is_number_integer()) { error = "x must be a whole number"; return false; }
    out.x = (int32_t)std::max<long long>(-1000000, std::min<long long>(1000000, j["x"].get<long long>()));
    out.hasX = true;
  }
  return targets();
}

const char* parseMoveReason(const std::string& error) {
  if (error.rfind("unknown action", 0) == 0) return "unknown_action";
  if (error.rfind("unknown source", 0) == 0) return "bad_source";
  if (error.rfind("unknown target", 0) == 0) return "bad_target";
  if (error.rfind("unknown decision", 0) == 0) return "unknown_decision";
  return "malformed_move";
}

json eventJson(const Game& g, const LogEntry& le, int viewer) {
  const Def& d = g.def();
  const Event& e = le.ev;
  json j;
  // what the viewer could not identify when it happened shows under the handle it had then
  uint32_t bit = viewer == -2 ? 0 : viewer < 0 ? LogEntry::kSpectator : (viewer < 31 ? 1u << viewer : 0);
  auto who = [&](const Slot& s, uint32_t hidden, int32_t handle) {
    return (hidden & bit) ? json(g.handleName(handle)) : slotJson(g, s);
  };
  j["type"] = evName(e.type);
  if (e.type == Ev::Named) j["type"] = le.before ? "BeforeAction" : "AfterAction";
  else if (le.before) j["when"] = "before";
  if (e.named >= 0) j["action"] = d.syms.names[e.named];
  if (e.player >= 0) j["player"] = d.playerIds[e.player];
  if (e.entity.k != VK::Null) j["entity"] = who(e.entity, le.hidEnt, le.hEnt);
  if (le.revealed & bit) j["revealed"] = g.handleName(le.hPrev);
  if (e.zone.k != VK::Null) j["zone"] = slotJson(g, e.zone);
  if (e.from.k != VK::Null) j["from"] = slotJson(g, e.from);
  if (e.source.k != VK::Null) j["source"] = who(e.source, le.hidSrc, le.hSrc);
  if (e.type == Ev::DamageTaken) j["damage_value"] = e.damage;
  if (e.phase >= 0) j["phase"] = d.phases[e.phase].name;
  if (e.item >= 0) j["item"] = "q" + std::to_string(e.item);
  if (e.type == Ev::GameOver) {
    if (e.winner >= 0) j["winner"] = d.playerIds[e.winner];
    else j["draw"] = true;
  }
  if (e.type == Ev::TurnStart) j["turn"] = e.turn;
  if (e.type == Ev::GameError && le.error) {
    j["reason"] = le.error->reason;
    j["message"] = le.error->what();
  }
  if (e.cancelled) j["cancelled"] = true;
  if (le.cause >= 0) j["cause"] = "q" + std::to_string(le.cause);
  return j;
}

json traceJson(const Game& g, const Game::TraceStep& t) {
  const Def& d = g.def();
  static const char* kinds[] = {"mutation", "for_each", "event", "reactions", "take", "execute", "discard", "draw",
                                "create", "chain", "priority"};
  json j = {{"step", kinds[(int)t.kind]}, {"depth", t.depth}};
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
  switch (t.kind) {
    case FK::Muts: case FK::ForEach:
      j["list"] = listName();
      j["index"] = t.index;
      break;
    case FK::Event: case FK::React: {
      json e = eventJson(g, LogEntry{t.ev, false, -1});
      e.erase("when");
      j["event"] = e;
      if (t.kind == FK::Event) j["stage"] = t.stage == 0 ? "before" : t.stage == 1 ? "apply" : t.stage == 2 ? "after" : "done";
      break;
    }
    case FK::Take: case FK::Exec:
      if (t.item >= 0) j["item"] = "q" + std::to_string(t.item);
      j["stage"] = t.stage;
      break;
    default: break;
  }
  return j;
}

// ---- snapshots: the state field by field ----

namespace {
json slotRaw(const Slot& s) { return json::array({(int)s.k, s.v}); }
Slot slotFrom(const json& j) { return Slot{j.at(1).get<int32_t>(), (VK)j.at(0).get<int>()}; }
json eventRaw(const Event& e) {
  return json::array({(int)e.type, e.named, e.player, slotRaw(e.entity), slotRaw(e.zone), slotRaw(e.from), slotRaw(e.source),
                      e.damage, e.phase, e.item, e.winner, e.cancelled, e.turn});
}
Event eventFrom(const json& j) {
  Event e;
  e.type = (Ev)j.at(0).get<int>();
  e.named = j.at(1); e.player = j.at(2);
  e.entity = slotFrom(j.at(3)); e.zone = slotFrom(j.at(4)); e.from = slotFrom(j.at(5)); e.source = slotFrom(j.at(6));
  e.damage = j.at(7); e.phase = j.at(8); e.item = j.at(9); e.winner = j.at(10); e.cancelled = j.at(11);
  e.turn = j.size() > 12 ? j.at(12).get<int32_t>() : 0;
  return e;
}
json itemRaw(const Item& it) {
  json t = json::array();
  for (auto& s : it.targets) t.push_back(slotRaw(s));
  json p = json::array();
  for (auto& kv : it.props) p.push_back(json::array({kv.first, slotRaw(kv.second)}));
  return json::array({it.id, (int)it.kind, it.def, it.player, it.source, it.self, it.mode, it.x, it.hasX, it.cancelled, t, p,
                      eventRaw(it.event)});
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
json frameRaw(const Frame& f) {
  const FrameCtx& k = f.ctx;
  json t = json::array();
  for (auto& s : k.targets) t.push_back(slotRaw(s));
  json v = json::array();
  for (auto& s : f.values) v.push_back(slotRaw(s));
  return json::array({(int)f.kind, f.stage, f.halves, f.before, (int)f.lk, f.li, f.lj, f.next, f.pos, f.a, f.b, f.c, f.k, f.idx,
                      f.e, f.part,
                      json::array({k.player, k.self, k.selected, k.mode, k.x, slotRaw(k.item), k.evFrame, k.evInItem,
                                   k.itemFrame, t}),
                      eventRaw(f.ev), itemRaw(f.item), v});
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

json snapshotJson(const Game& g) {
  const State& s = g.state();
  json ents = json::array();
  for (auto& e : s.ents)
    ents.push_back(json::array({e.tmpl, e.idTmpl, e.serial, e.owner, e.controller, e.zone, e.host, e.alive, e.handle, e.prevHandle}));
  json props = json::array();
  for (auto& p : s.props) props.push_back(slotRaw(p));
  json queue = json::array();
  for (auto& it : s.queue) queue.push_back(itemRaw(it));
  json decs = json::array();
  for (auto& d : s.decisions)
    decs.push_back(json::array({d.id, (int)d.kind, d.player, d.def, d.self, d.optional, eventRaw(d.event), d.options, d.count, d.dest,
                                d.evFrame}));
  json stack = json::array();
  for (auto& f : s.stack) stack.push_back(frameRaw(f));
  json custom = json::array();
  for (auto& c : s.customIds) custom.push_back(json::array({c.first, c.second}));
  std::string rng = hex16(s.rng.s);
  return {{"format", "rulestack-snapshot-1"}, {"game", g.def().name}, {"entities", ents}, {"props", props},
          {"zones", s.zones}, {"serials", s.serials}, {"queue", queue}, {"decisions", decs}, {"stack", stack}, {"customIds", custom},
          {"flow", json::array({s.turn, s.phase, s.active, s.priority, s.passes, s.nextItemId, s.nextDecisionId, s.result,
                                s.phaseStarted, s.endTurn, s.started})},
          {"rng", rng}, {"handles", json::array({s.nextHandle, hex16(s.salt)})}};
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
      s.ents.push_back(en);
    }
    for (auto& p : j.at("props")) s.props.push_back(slotFrom(p));
    s.zones = j.at("zones").get<std::vector<std::vector<int32_t>>>();
    s.serials = j.at("serials").get<std::vector<int32_t>>();
    for (auto& it : j.at("queue")) s.queue.push_back(itemFrom(it));
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
    auto bad = [&](const std::string& m) { error = "inconsistent snapshot: " + m; return false; };
    if (s.ents.size() < (size_t)d.numPlayers() || s.ents.size() > kMaxEntities) return bad("entity count");
    if (s.props.size() != s.ents.size() * np) return bad("property count");
    if (s.zones.size() != (size_t)d.numZoneInstances) return bad("zone count");
    if (s.serials.size() != d.templates.size()) return bad("template count");
    for (size_t i = 0; i < s.ents.size(); i++) {
      const Entity& e = s.ents[i];
      bool player = i < (size_t)d.numPlayers();
      if (!player && (e.tmpl < 0 || e.tmpl >= (int)d.templates.size() || e.idTmpl < 0 || e.idTmpl >= (int)d.templates.size()))
        return bad("template of entity " + std::to_string(i));
      if (e.owner < 0 || e.owner >= d.numPlayers() || e.controller < 0 || e.controller >= d.numPlayers()) return bad("owner");
      if (e.zone < -1 || e.zone >= d.numZoneInstances || e.host < -1 || e.host >= (int)s.ents.size()) return bad("zone or host");
      if (e.serial < 0 && ((size_t)(-1 - e.serial) >= s.customIds.size() || s.customIds[-1 - e.serial].first != (int32_t)i))
        return bad("custom id of entity " + std::to_string(i));
      if (e.handle < 0 || e.handle >= s.nextHandle || e.prevHandle < 0 || e.prevHandle >= s.nextHandle) return bad("handle of entity " + std::to_string(i));
      // "<Template>#n": n from 1 to the template's counter (the next Create makes n + 1)
      if (!player && e.serial >= 0 && (e.serial < 1 || e.serial > s.serials[e.idTmpl])) return bad("serial of entity " + std::to_string(i));
    }
    {  // each "<Template>#n" names one entity (a fuzz finding: two Counter#3, a listed move refused)
      std::vector<std::pair<int32_t, int32_t>> ids;
      for (size_t i = (size_t)d.numPlayers(); i < s.ents.size(); i++)
        if (s.ents[i].serial > 0) ids.push_back({s.ents[i].idTmpl, s.ents[i].serial});
      std::sort(ids.begin(), ids.end());
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
    std::sort(customNames.begin(), customNames.end());  // each id names one entity
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
      if (s.ents[i].zone != where[i] || (!s.ents[i].alive && s.ents[i].zone >= 0)) return bad("zone of entity " + std::to_string(i));
    if (s.active < 0 || s.active >= d.numPlayers() || s.priority < -1 || s.priority >= d.numPlayers()) return bad("players");
    if (s.phase < -1 || s.phase > (int)d.phases.size()) return bad("phase");
    if (s.queue.size() > kMaxQueue) return bad("queue size");
    for (auto& it : s.queue)
      if (!itemOk(it)) return bad("queue item");
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
      if (!ok) return bad("resolution frame " + std::to_string(i));
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
