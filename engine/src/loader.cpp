// The definition loader's entry points (loader.h) and the definition's sections, read in
// order: each section may name what an earlier one declared. loader_impl.h says where the
// loader's other steps are.
#include "loader_impl.h"

#include <algorithm>

namespace rulestack {
namespace loader {

void Loader::load(const json& j) {
  // the top level goes on without a required key (each is read only when present), so
  // every other error is reported too
  bool isObject = j.is_object();
  object(j, "", "root");
  if (!isObject) return;
  str(j.value("name", json("")), "/name", d.name);
  builtins();
  if (j.contains("players")) players(j["players"]);
  zones(j);
  // templates: names and properties first, so every later reference resolves
  const json* ents = nullptr;
  if (j.contains("entities") && list(j["entities"], "/entities")) ents = &j["entities"];
  if (ents) templates(*ents);
  namesApart(j);
  collectActionNames(j, ents);
  if (j.contains("settings")) settings(j["settings"]);
  if (d.discardZone < 0) d.discardZone = d.cancelZone;
  d.syms.intern("player");
  parts(j, ents);
  if (j.contains("setup")) mutations(j["setup"], "/setup", d.setup);
  if (j.contains("flow")) flow(j["flow"]);
  if (j.contains("end_conditions") && list(j["end_conditions"], "/end_conditions")) endConditions(j["end_conditions"]);
  propertyMembers();
  unknownMembers();
  if (errs.empty()) kinds();  // (on a definition that is otherwise sound: one error at a time)
  analyse();
}

// Player ids and zone names that a move could not tell from another id (a zone named as a
// player, a player named q1): a move naming one would be refused though listed.
void Loader::namesApart(const json& j) {
  auto apart = [&](const std::string& path, const std::string& name, IdKind kind) {
    const std::string clash = name.empty() ? "" : idClash(name, kind);
    if (!clash.empty()) error(path, "'" + name + "' " + clash + ": a move could not tell them apart");
  };
  // (default ids clash only with a zone's name: said there; a shared zone's name likewise)
  if (j.contains("players") && j["players"].is_object() && j["players"].contains("ids"))
    for (size_t i = 0; i < d.playerIds.size(); i++)
      if (!zoneByName.count(d.playerIds[i])) apart("/players/ids/" + std::to_string(i), d.playerIds[i], IdKind::Player);
  for (size_t i = 0; i < d.zones.size(); i++)  // (a per-player zone's ids are Name:player: only its start)
    if (!d.zones[i].perPlayer || d.zones[i].name[0] == '?' || d.zones[i].name[0] == '$' || d.zones[i].name[0] == '(') apart("/zones/" + std::to_string(i) + "/name", d.zones[i].name, IdKind::Zone);
}

// The names every expression may use as members, interned first (symbol 0 is the empty string).
void Loader::builtins() {
  d.syms.intern("");  // symbol 0: the empty string
  auto& b = d.b;
  b = Builtins{d.syms.intern("id"), d.syms.intern("type"), d.syms.intern("template"), d.syms.intern("tags"),
               d.syms.intern("zone"), d.syms.intern("owner"), d.syms.intern("controller"), d.syms.intern("host"),
               d.syms.intern("index"), d.syms.intern("name"), d.syms.intern("size"), d.syms.intern("entities"),
               d.syms.intern("top"), d.syms.intern("source"), d.syms.intern("player"), d.syms.intern("targets"),
               d.syms.intern("target"), d.syms.intern("mode"), d.syms.intern("x"), d.syms.intern("cancelled"),
               d.syms.intern("entity"), d.syms.intern("health")};
}

void Loader::players(const json& p) {
  if (!object(p, "/players", "players")) return;
  if (p.contains("ids")) {
    if (list(p["ids"], "/players/ids")) {
      for (size_t i = 0; i < p["ids"].size(); i++) {
        std::string id;
        if (str(p["ids"][i], "/players/ids/" + std::to_string(i), id)) {
          if (std::find(d.playerIds.begin(), d.playerIds.end(), id) != d.playerIds.end())
            error("/players/ids/" + std::to_string(i), "duplicate player id '" + id + "'");
          d.playerIds.push_back(id);
        }
      }
    }
    if (p.contains("count") && p["count"].is_number_integer() && (size_t)p["count"].get<long long>() != d.playerIds.size())
      error("/players/count", "count does not match the number of ids");
  } else if (p.contains("count")) {
    int n = 0;
    if (integer(p["count"], "/players/count", n, 1, 8))
      for (int i = 0; i < n; i++) d.playerIds.push_back(std::to_string(i));
  } else {
    error("/players", "missing required key 'count' (or 'ids')");
  }
  if (d.playerIds.size() > 8) error("/players/ids", "at most 8 players");
  if (d.playerIds.empty() && p.contains("ids")) error("/players/ids", "at least one player");
  if (p.contains("properties")) properties(p["properties"], "/players/properties", d.playerProps);
  if (p.contains("per_turn")) properties(p["per_turn"], "/players/per_turn", d.perTurn);
  for (auto& t : d.perTurn)  // (per_turn's value is set at the start too: the other is never seen)
    for (auto& kv : d.playerProps)
      if (kv.first == t.first)
        error("/players/per_turn/" + jsonPointerEscape(d.propNames[t.first]),
              "'" + d.propNames[t.first] + "' is in properties too: per_turn sets it at the start and every turn; give it once");
}

// The declared zones, then the engine's own Queue, and where each zone's instances start.
void Loader::zones(const json& j) {
  if (j.contains("zones") && list(j["zones"], "/zones")) {
    const json& zs = j["zones"];
    for (size_t i = 0; i < zs.size(); i++) {
      std::string zp = "/zones/" + std::to_string(i);
      if (!object(zs[i], zp, "zone")) continue;
      ZoneDef z;
      if (!str(zs[i]["name"], zp + "/name", z.name)) continue;
      if (z.name == "Queue") { error(zp + "/name", "'Queue' is the engine's own zone; choose another name"); continue; }
      if (z.name.empty() || z.name.find(':') != std::string::npos) { error(zp + "/name", "a zone name must be non-empty and contain no ':'"); continue; }
      if (zoneByName.count(z.name)) { error(zp + "/name", "duplicate zone '" + z.name + "'"); continue; }
      if (zs[i].contains("per_player")) boolean(zs[i]["per_player"], zp + "/per_player", z.perPlayer);
      if (zs[i].contains("ordered")) boolean(zs[i]["ordered"], zp + "/ordered", z.ordered);
      if (zs[i].contains("visibility")) {
        std::string v;
        if (str(zs[i]["visibility"], zp + "/visibility", v)) {
          if (v == "everyone") z.vis = Vis::Everyone;
          else if (v == "owner") z.vis = Vis::Owner;
          else if (v == "nobody") z.vis = Vis::Nobody;
          else error(zp + "/visibility", "expected everyone, owner or nobody, found '" + v + "'" + didYouMean(v, {"everyone", "owner", "nobody"}));
        }
      }
      if (z.vis == Vis::Owner && !z.perPlayer) error(zp + "/visibility", "visibility 'owner' needs per_player: true (a shared zone has no owner)");
      z.active = z.actions = z.vis != Vis::Nobody;
      if (zs[i].contains("active")) boolean(zs[i]["active"], zp + "/active", z.active);
      if (zs[i].contains("actions")) boolean(zs[i]["actions"], zp + "/actions", z.actions);
      z.nameSym = d.syms.intern(z.name);
      zoneByName.set(z.name, (int)d.zones.size());
      d.zones.push_back(std::move(z));
    }
  }
  {
    ZoneDef q;
    q.name = "Queue";
    q.nameSym = d.syms.intern("Queue");
    q.active = false;
    q.actions = false;
    zoneByName.set("Queue", (int)d.zones.size());
    d.zones.push_back(q);
  }
  int np = std::max<int>(1, (int)d.playerIds.size());
  int inst = 0;
  for (size_t zi = 0; zi < d.zones.size(); zi++) {
    ZoneDef& z = d.zones[zi];
    z.base = inst;
    inst += z.perPlayer ? np : 1;
    d.zoneDefOfInstance.resize(inst, (int32_t)zi);
  }
  d.numZoneInstances = inst;
  d.queueZone = d.zones.back().base;
  d.deckZone = zoneByName.find("Deck");
  d.handZone = zoneByName.find("Hand");
}

void Loader::templates(const json& ents) {
  for (size_t i = 0; i < ents.size(); i++) {
    const json& e = ents[i];
    std::string ep = "/entities/" + std::to_string(i);
    if (!object(e, ep, "entity"))
      continue;
    Template t;
    if (!str(e["id"], ep + "/id", t.id)) continue;
    t.idSym = d.syms.intern(t.id);
    if (t.id.empty() || t.id.find('#') != std::string::npos || t.id.find(':') != std::string::npos) {
      error(ep + "/id", "an entity id must be non-empty and contain no '#' or ':'");
      continue;
    }
    if (tmplByName.count(t.id)) { error(ep + "/id", "duplicate entity id '" + t.id + "'"); continue; }
    std::string type = "entity";
    if (e.contains("type")) str(e["type"], ep + "/type", type);
    t.typeSym = d.syms.intern(type);
    if (e.contains("tags") && list(e["tags"], ep + "/tags"))
      for (size_t k = 0; k < e["tags"].size(); k++) {
        std::string tag;
        if (str(e["tags"][k], ep + "/tags/" + std::to_string(k), tag)) t.tags.push_back(d.syms.intern(tag));
      }
    if (e.contains("face_down")) boolean(e["face_down"], ep + "/face_down", t.faceDown);
    if (e.contains("properties")) properties(e["properties"], ep + "/properties", t.props);
    tmplByName.set(t.id, (int)d.templates.size());
    d.templates.push_back(std::move(t));
  }
}

// Every action's name, before any action is read (for valid_actions and @Name triggers).
void Loader::collectActionNames(const json& j, const json* ents) {
  auto collectNames = [&](const json& as, const std::string& path) {
    if (!as.is_array()) return;
    for (size_t i = 0; i < as.size(); i++)
      if (as[i].is_object() && as[i].contains("name") && as[i]["name"].is_string()) {
        std::string n = as[i]["name"].get<std::string>();
        if (n == "pass") error(path + "/" + std::to_string(i) + "/name", "'pass' is the engine's own move; choose another name");
        actionNames.insert(n);
      }
  };
  if (j.contains("actions")) {
    collectNames(j["actions"], "/actions");
    std::set<std::string> seen;
    const json& as = j["actions"];
    if (as.is_array())
      for (size_t i = 0; i < as.size(); i++)
        if (as[i].is_object() && as[i].contains("name") && as[i]["name"].is_string() &&
            !seen.insert(as[i]["name"].get<std::string>()).second)
          error("/actions/" + std::to_string(i) + "/name", "duplicate action '" + as[i]["name"].get<std::string>() + "'");
  }
  if (ents)
    for (size_t i = 0; i < ents->size(); i++)
      if ((*ents)[i].is_object() && (*ents)[i].contains("actions"))
        collectNames((*ents)[i]["actions"], "/entities/" + std::to_string(i) + "/actions");
}

void Loader::settings(const json& s) {
  if (!object(s, "/settings", "settings")) return;
  if (s.contains("resolution")) {
    std::string r;
    if (str(s["resolution"], "/settings/resolution", r)) {
      if (r == "chain") d.chain = true;
      else if (r != "item") error("/settings/resolution", "expected 'item' or 'chain', found '" + r + "'");
    }
  }
  if (s.contains("auto_pass")) boolean(s["auto_pass"], "/settings/auto_pass", d.autoPass);
  if (s.contains("cancel_zone")) d.cancelZone = zoneName(s["cancel_zone"], "/settings/cancel_zone", true);
  if (s.contains("discard_zone")) d.discardZone = zoneName(s["discard_zone"], "/settings/discard_zone", true);
  if (s.contains("max_events")) integer(s["max_events"], "/settings/max_events", d.maxEvents, 10, 1000000);
}

// The global actions, then each template's actions, reactions, triggered actions and effects,
// then the global triggered actions and reactions.
void Loader::parts(const json& j, const json* ents) {
  if (j.contains("actions") && list(j["actions"], "/actions"))
    for (size_t i = 0; i < j["actions"].size(); i++) action(j["actions"][i], "/actions/" + std::to_string(i), -1);
  if (ents) {
    for (size_t i = 0; i < ents->size(); i++) {
      const json& e = (*ents)[i];
      if (!e.is_object() || !e.contains("id") || !e["id"].is_string()) continue;
      int t = tmplByName.find(e["id"].get<std::string>());
      if (t < 0) continue;
      std::string ep = "/entities/" + std::to_string(i);
      if (e.contains("actions") && list(e["actions"], ep + "/actions"))
        for (size_t k = 0; k < e["actions"].size(); k++) action(e["actions"][k], ep + "/actions/" + std::to_string(k), t);
      if (e.contains("reactions") && list(e["reactions"], ep + "/reactions"))
        for (size_t k = 0; k < e["reactions"].size(); k++) reaction(e["reactions"][k], ep + "/reactions/" + std::to_string(k), t, -1);
      if (e.contains("triggered_actions") && list(e["triggered_actions"], ep + "/triggered_actions"))
        for (size_t k = 0; k < e["triggered_actions"].size(); k++)
          triggered(e["triggered_actions"][k], ep + "/triggered_actions/" + std::to_string(k), t);
      if (e.contains("effects") && list(e["effects"], ep + "/effects"))
        for (size_t k = 0; k < e["effects"].size(); k++) effect(e["effects"][k], ep + "/effects/" + std::to_string(k), t);
    }
  }
  if (j.contains("triggered_actions") && list(j["triggered_actions"], "/triggered_actions"))
    for (size_t i = 0; i < j["triggered_actions"].size(); i++)
      triggered(j["triggered_actions"][i], "/triggered_actions/" + std::to_string(i), -1);
  // the game's own reactions: no entity holds them; they act for the event's player
  if (j.contains("reactions") && list(j["reactions"], "/reactions"))
    for (size_t i = 0; i < j["reactions"].size(); i++) reaction(j["reactions"][i], "/reactions/" + std::to_string(i), -1, -1);
}

void Loader::endConditions(const json& es) {
  for (size_t i = 0; i < es.size(); i++) {
    const json& e = es[i];
    std::string ep = "/end_conditions/" + std::to_string(i);
    if (!object(e, ep, "end_condition")) continue;
    EndCondition c;
    c.when = want(value(e["when"], ep + "/when", true), ep + "/when", Want::Condition);
    if (e.contains("winner") == e.contains("draw")) error(ep, "an end condition needs exactly one of 'winner' or 'draw'");
    if (e.contains("winner")) c.winner = want(value(e["winner"], ep + "/winner", true), ep + "/winner", Want::Players);
    if (e.contains("draw") && boolean(e["draw"], ep + "/draw", c.draw) && !c.draw)
      error(ep + "/draw", "draw: false ends nothing (write draw: true, or a winner)");
    d.ends.push_back(c);
  }
}

void Loader::flow(const json& f) {
  if (!object(f, "/flow", "flow")) return;
  auto playerIndex = [&](const json& v, const std::string& path) -> int {
    std::string id;
    if (v.is_number_integer()) id = std::to_string(v.get<long long>());
    else if (!str(v, path, id)) return -1;
    auto it = std::find(d.playerIds.begin(), d.playerIds.end(), id);
    if (it == d.playerIds.end()) { error(path, "unknown player '" + id + "'" + didYouMean(id, d.playerIds)); return -1; }
    return (int)(it - d.playerIds.begin());
  };
  if (f.contains("turn_order") && list(f["turn_order"], "/flow/turn_order")) {
    for (size_t i = 0; i < f["turn_order"].size(); i++) {
      int p = playerIndex(f["turn_order"][i], "/flow/turn_order/" + std::to_string(i));
      if (p >= 0) d.turnOrder.push_back(p);
    }
    std::vector<int> sorted = d.turnOrder;
    stableSort(sorted, std::less<>());
    if (std::unique(sorted.begin(), sorted.end()) != sorted.end() || sorted.size() != d.playerIds.size())
      error("/flow/turn_order", "turn_order must list every player exactly once");
  } else {
    for (int i = 0; i < d.numPlayers(); i++) d.turnOrder.push_back(i);
  }
  d.nextInTurn.assign(d.numPlayers(), d.turnOrder.empty() ? 0 : d.turnOrder.front());
  for (size_t i = 0; i + 1 < d.turnOrder.size(); i++) d.nextInTurn[d.turnOrder[i]] = d.turnOrder[i + 1];
  if (f.contains("first_player")) {
    int p = playerIndex(f["first_player"], "/flow/first_player");
    if (p >= 0) d.firstPlayer = p;
  } else if (!d.turnOrder.empty()) {
    d.firstPlayer = d.turnOrder[0];
  }
  if (!list(f["phases"], "/flow/phases")) return;
  const json& ps = f["phases"];
  if (ps.empty()) error("/flow/phases", "the flow needs at least one phase");
  bool anyActions = false, emptyActions = false;
  std::set<std::string> names;
  for (size_t i = 0; i < ps.size(); i++) {
    std::string pp = "/flow/phases/" + std::to_string(i);
    if (!object(ps[i], pp, "phase")) continue;
    Phase ph;
    str(ps[i]["name"], pp + "/name", ph.name);
    if (!names.insert(ph.name).second) error(pp + "/name", "duplicate phase '" + ph.name + "'");
    ph.nameSym = d.syms.intern(ph.name);
    if (ps[i].contains("pass")) boolean(ps[i]["pass"], pp + "/pass", ph.canPass);
    if (ps[i].contains("on_enter")) mutations(ps[i]["on_enter"], pp + "/on_enter", ph.onEnter);
    if (ps[i].contains("mutations")) {
      if (ps[i].contains("on_enter")) error(pp + "/mutations", "give on_enter or mutations, not both");
      else mutations(ps[i]["mutations"], pp + "/mutations", ph.onEnter);
    }
    if (ps[i].contains("valid_actions") && list(ps[i]["valid_actions"], pp + "/valid_actions")) {
      const json& va = ps[i]["valid_actions"];
      for (size_t k = 0; k < va.size(); k++) {
        std::string n;
        std::string vp = pp + "/valid_actions/" + std::to_string(k);
        if (!str(va[k], vp, n)) continue;
        bool found = false;
        for (size_t a = 0; a < d.actions.size(); a++)
          if (d.actions[a].name == n) { ph.actions.push_back((int)a); found = true; }
        if (!found) {
          std::vector<std::string> all(actionNames.begin(), actionNames.end());
          error(vp, "unknown action '" + n + "'" + didYouMean(n, all));
        }
      }
      ph.hasActions = true;
      anyActions = anyActions || !va.empty();
      emptyActions = emptyActions || va.empty();
    }
    d.phases.push_back(std::move(ph));
  }
  if (!anyActions && !ps.empty())
    error("/flow/phases", emptyActions ? "no phase's valid_actions lists an action (an empty list lists none): the game would never ask a player for a move"
                                       : "no phase has valid_actions: the game would never ask a player for a move");
}

}  // namespace loader

using loader::json;
using loader::Loader;

std::string jsonPointerEscape(const std::string& key) {
  std::string out;
  for (char c : key) {
    if (c == '~') out += "~0";
    else if (c == '/') out += "~1";
    else out += c;
  }
  return out;
}

bool nestedDeeper(const std::string& text, int maxDepth) {
  int depth = 0;
  bool inStr = false, esc = false;
  for (char c : text) {
    if (inStr) {
      if (esc) esc = false;
      else if (c == '\\') esc = true;
      else if (c == '"') inStr = false;
      continue;
    }
    if (c == '"') inStr = true;
    else if (c == '{' || c == '[') {
      if (++depth > maxDepth) return true;
    } else if (c == '}' || c == ']') {
      depth--;
    }
  }
  return false;
}

std::shared_ptr<Def> loadDefinition(const json& j, std::vector<DefError>& errors) {
  auto d = std::make_shared<Def>();
  Loader l(*d, errors);
  l.load(j);
  if (!errors.empty()) return nullptr;
  return d;
}

namespace {
// A loader over an already-loaded definition (names known), for scenario steps.
struct Reloader : Loader {
  Reloader(Def& d, std::vector<DefError>& e) : Loader(d, e) {
    for (size_t i = 0; i < d.zones.size(); i++) zoneByName.set(d.zones[i].name, (int)i);
    for (size_t i = 0; i < d.templates.size(); i++) tmplByName.set(d.templates[i].id, (int)i);
    for (auto& a : d.actions) actionNames.insert(a.name);
  }
};
}  // namespace

bool compileMutations(Def& def, const json& j, const std::string& path, std::vector<Mutation>& out,
                      std::vector<DefError>& errors) {
  size_t before = errors.size();
  Reloader l(def, errors);
  l.mutations(j, path, out);
  return errors.size() == before;
}

bool compileCondition(Def& def, const json& j, const std::string& path, Expr& out, std::vector<DefError>& errors) {
  size_t before = errors.size();
  Reloader l(def, errors);
  out = l.value(j, path, true);
  return errors.size() == before && out.present();
}

}  // namespace rulestack
