// The parts of the rules: mutations, target specs, triggers, actions (their costs, modes and
// reactions), triggered actions and effects.
#include "loader_impl.h"

namespace rulestack {
namespace loader {

namespace {

// (plain arrays, not vectors of strings: no code runs to make them when the module starts)
const char* const kOps[] = {"=", "+", "-", "*", "/", "SetProperty", "MoveZone", "Destroy", "Cancel",
                            "RequireDiscard", "Promote", "DrawCard", "Create", "Shuffle", "Damage",
                            "Attach", "EndTurn", "Win", "Lose", "Draw", "Give"};
const Op kOpCodes[] = {Op::Set, Op::Add, Op::Sub, Op::Mul, Op::Div, Op::Set, Op::MoveZone, Op::Destroy, Op::Cancel,
                       Op::RequireDiscard, Op::Promote, Op::DrawCard, Op::Create, Op::Shuffle, Op::Damage,
                       Op::Attach, Op::EndTurn, Op::Win, Op::Lose, Op::Draw, Op::Give};
// (as the messages list them)
const char kOpList[] = "= + - * / SetProperty MoveZone Destroy Cancel RequireDiscard Promote DrawCard Create Shuffle "
                       "Damage Attach EndTurn Win Lose Draw Give";
const char* const kEvents[] = {"ActionPlayed", "ActionExecuted", "ActionCancelled", "OnZoneEnter",
                               "DamageTaken", "PhaseExecute", "TurnStart", "DrawFailed", "GameOver"};
// Which of `names` is `s`: its index, or -1.
template <size_t N>
int indexIn(const char* const (&names)[N], const std::string& s) {
  for (size_t i = 0; i < N; i++)
    if (s == names[i]) return (int)i;
  return -1;
}
template <size_t N>
std::vector<std::string> namesOf(const char* const (&names)[N]) { return {names, names + N}; }

}  // namespace

// Why an id given to a created entity would name something else too (a move's target is read
// by its id: it would find one of the two), or "" when it is free.
std::string Loader::idClash(const std::string& id, IdKind kind) const {
  if (id.empty()) return "is empty";
  if (id[0] == '?') return "starts with '?', as the handles of hidden entities do";
  if (id[0] == '$' || id[0] == '(') return "starts with $ or (, as an expression does";
  if (id.size() > 1 && id[0] == 'q' && id.find_first_not_of("0123456789", 1) == std::string::npos)
    return "is a queue item's id (q1, q2, ...)";
  if (kind != IdKind::Player)
    for (const std::string& p : d.playerIds)
      if (id == p) return "is a player's id";
  for (const ZoneDef& z : d.zones) {
    if (kind == IdKind::Zone) break;
    if (!z.perPlayer && id == z.name) return "is a zone's id";
    if (z.perPlayer && id.size() > z.name.size() && id.compare(0, z.name.size(), z.name) == 0 && id[z.name.size()] == ':')
      for (const std::string& p : d.playerIds)
        if (id.compare(z.name.size() + 1, std::string::npos, p) == 0) return "is a zone's id";
  }
  const size_t hash = id.rfind('#');
  if (hash != std::string::npos && hash + 1 < id.size() && id.find_first_not_of("0123456789", hash + 1) == std::string::npos)
    for (const Template& t : d.templates)
      if (id.compare(0, hash, t.id) == 0 && hash == t.id.size())
        return "has the form of the ids " + t.id + "'s entities are numbered with (" + t.id + "#1, " + t.id + "#2, ...)";
  return "";
}

void Loader::mutation(const json& j, const std::string& path, Mutation& m) {
  m.path = path;
  if (!j.is_object()) { error(path, "expected a mutation object, found " + typeName(j)); return; }
  if (!j.contains("operation")) {
    error(path, std::string("missing required key 'operation' (one of: ") + kOpList + ")");
    return;
  }
  std::string opName;
  if (!str(j["operation"], path + "/operation", opName)) return;
  int oi = indexIn(kOps, opName);
  if (oi < 0) {
    error(path + "/operation", "unknown operation '" + opName + "'" + didYouMean(opName, namesOf(kOps)) + " (one of: " + kOpList + ")");
    return;
  }
  m.op = kOpCodes[oi];
  if (m.op == Op::Attach) d.usesAttach = true;
  if (!object(j, path, "mutation:" + opName)) return;
  auto get = [&](const char* k, Expr& e, bool cond = false) {
    if (j.contains(k)) e = value(j[k], path + "/" + k, cond);
  };
  // a literal where the engine needs a place or a count: a mistake seen at load, not at run time
  if (j.contains("destination") && (j["destination"].is_number() || j["destination"].is_boolean() || j["destination"].is_null()))
    error(path + "/destination", "a destination is a zone (an expression such as $zone.@Hand), found " + typeName(j["destination"]));
  if (m.op == Op::Create && j.contains("count") && j["count"].is_number_integer() &&
      (j["count"].is_number_unsigned() ? j["count"].get<unsigned long long>() > 1000 : j["count"].get<long long>() < 0 || j["count"].get<long long>() > 1000))
    error(path + "/count", "Create makes from 0 to 1000 entities at once, found " + j["count"].dump());
  get("target", m.target);
  get("value", m.value);
  get("destination", m.destination);
  get("count", m.count);
  get("from", m.from);
  get("owner", m.owner);
  get("host", m.host);
  get("condition", m.condition, true);
  want(m.condition, path + "/condition", Want::Condition);
  get("for_each", m.forEach);
  if (m.forEach.present()) scopes.push_back({path + "/", N::Item, m.forEach.root, true});
  if (j.contains("id") && str(j["id"], path + "/id", m.id)) {
    std::string clash = idClash(m.id, IdKind::Entity);
    if (!clash.empty()) error(path + "/id", "the id '" + m.id + "' " + clash + ": an entity's id must name it alone");
  }
  if (j.contains("template")) m.tmpl = templateName(j["template"], path + "/template");
  if (j.contains("position")) {
    std::string p;
    if (str(j["position"], path + "/position", p)) {
      if (p == "bottom") m.bottom = true;
      else if (p != "top") error(path + "/position", "expected 'top' or 'bottom', found '" + p + "'");
    }
  }
  if (m.destination.present()) expects.push_back({m.destination, path + "/destination", Want::Zone});
  if (m.count.present()) expects.push_back({m.count, path + "/count", Want::Number});
  bool arith = m.op == Op::Set || m.op == Op::Add || m.op == Op::Sub || m.op == Op::Mul || m.op == Op::Div;
  if (((arith && m.op != Op::Set) || m.op == Op::Damage) && m.value.present()) expects.push_back({m.value, path + "/value", Want::Number});
  // the zones DrawCard and RequireDiscard take by default must exist (every run would fail)
  const bool draw = m.op == Op::DrawCard, discard = m.op == Op::RequireDiscard;
  if ((draw || discard) && !m.from.present() && (draw ? d.deckZone : d.handZone) < 0)
    error(path, draw ? "DrawCard without 'from' needs a zone named Deck" : "RequireDiscard without 'from' needs a zone named Hand");
  else if ((draw || discard) && !m.destination.present() && (draw ? d.handZone : d.discardZone) < 0)
    error(path, draw ? "DrawCard without 'destination' needs a zone named Hand"
                     : "RequireDiscard without 'destination' needs settings.discard_zone");
  if (arith || m.op == Op::Damage) {
    if (j.contains("property")) m.prop = mutationProp(j["property"], path + "/property");
    else if (arith && m.target.present() && d.nodes.nodes[m.target.root].op == N::EventField)
      m.eventField = d.nodes.nodes[m.target.root].imm;
    else if (arith && j.contains("target"))
      error(path, "missing required key 'property' (which property of the target to change)");
    else if (m.op == Op::Damage) {
      int sym = d.syms.find("health");
      m.prop = d.prop(sym);
      if (m.prop < 0) error(path, "Damage without 'property' changes 'health', which no entity declares");
    }
    if (m.prop >= 0 && m.op != Op::Set && j.contains("property")) numberProps.push_back({path + "/property", m.prop});
    if (m.eventField >= 0 && m.eventField != (int)EvField::DamageValue)
      error(path + "/target", "only $event.damage_value can be changed by arithmetic");
    if (m.eventField < 0 && m.prop >= 0 && m.target.present()) expects.push_back({m.target, path + "/target", Want::Changeable});
  }
  if (m.op == Op::Cancel && m.target.present()) expects.push_back({m.target, path + "/target", Want::Cancellable});
  if (m.op == Op::Give) want(m.owner, path + "/owner", Want::Players);
  // the other operations' targets: a kind they never act on would do nothing, silently
  if (m.target.present()) {
    switch (m.op) {
      case Op::Win: case Op::Lose: case Op::DrawCard: case Op::RequireDiscard:
        expects.push_back({m.target, path + "/target", Want::Players});
        break;
      case Op::MoveZone: case Op::Destroy: case Op::Promote: case Op::Attach: case Op::Give:
        expects.push_back({m.target, path + "/target", Want::Entities});
        break;
      case Op::Shuffle: expects.push_back({m.target, path + "/target", Want::Zones}); break;
      default: break;
    }
  }
}

void Loader::mutations(const json& j, const std::string& path, std::vector<Mutation>& out) {
  if (!list(j, path)) return;
  out.resize(j.size());
  for (size_t i = 0; i < j.size(); i++) mutation(j[i], path + "/" + std::to_string(i), out[i]);
}

void Loader::targetSpec(const json& j, const std::string& path, TargetSpec& t) {
  t.present = true;
  if (j.is_object()) {
    if (!object(j, path, "target")) return;
    t.expandZones = true;
    t.from = value(j["from"], path + "/from");
    expects.push_back({t.from, path + "/from", Want::Choices});
    scope(path, t.from, true);
    if (j.contains("filter")) t.filter = want(value(j["filter"], path + "/filter", true), path + "/filter", Want::Condition);
    if (j.contains("count")) {
      if (integer(j["count"], path + "/count", t.min, 1, 16)) t.max = t.min;
    }
    if (j.contains("min")) integer(j["min"], path + "/min", t.min, 0, 16);
    if (j.contains("max")) integer(j["max"], path + "/max", t.max, 1, 16);
    if (t.min > t.max) error(path, "min is greater than max");
    return;
  }
  if (!j.is_string()) { error(path, "expected a selector expression or {from, filter, count}, found " + typeName(j)); return; }
  t.from = value(j, path, true);
  expects.push_back({t.from, path, Want::Choices});
  scope(path, t.from, false);
}

// An expression of a key that takes some kind, checked once everything is declared (kinds()).
Expr Loader::want(Expr e, const std::string& path, Want w) {
  if (e.present()) expects.push_back({e, path, w});
  return e;
}

// Targets chosen elsewhere (a mode, an answer) that an action's cost, properties and mutations read.
void Loader::actionListsRead(const std::string& actionPath, int from, bool expand) {
  for (const char* own : {"/cost/", "/properties/", "/mutations/"}) scopes.push_back({actionPath + own, N::Target, from, expand});
}

// A requires_target at `path` (…/requires_target): $target in its holder's expressions,
// $candidate in its filter.
void Loader::scope(const std::string& path, const Expr& from, bool expand) {
  if (!from.present()) return;
  scopes.push_back({path.substr(0, path.size() - std::string("requires_target").size()), N::Target, from.root, expand});
  scopes.push_back({path + "/filter", N::Candidate, from.root, true});
}

bool Loader::trigger(const json& j, const std::string& path, bool& before, Ev& ev, int& named) {
  std::string s;
  if (!str(j, path, s)) return false;
  std::string t = s;
  if (!t.empty() && t[0] == '$') t = t.substr(1);
  bool b;
  if (t.rfind("Before.", 0) == 0) { b = true; t = t.substr(7); }
  else if (t.rfind("After.", 0) == 0) { b = false; t = t.substr(6); }
  else {
    error(path, "a trigger starts with $Before. or $After. (e.g. $Before.$DamageTaken, $After.@MovePiece), found '" + s + "'");
    return false;
  }
  before = b;
  if (!t.empty() && t[0] == '@') {
    std::string name = t.substr(1);
    if (!actionNames.count(name)) {
      std::vector<std::string> names(actionNames.begin(), actionNames.end());
      error(path, "unknown action '" + name + "' in trigger" + didYouMean(name, names));
      return false;
    }
    ev = Ev::Named;
    named = d.syms.intern(name);
    return true;
  }
  if (!t.empty() && t[0] == '$') t = t.substr(1);
  int it = indexIn(kEvents, t);
  if (it < 0) {
    error(path, "unknown event '" + t + "'" + didYouMean(t, namesOf(kEvents)) + " (events: ActionPlayed, ActionExecuted, "
                "ActionCancelled, OnZoneEnter, DamageTaken, PhaseExecute, TurnStart, DrawFailed, or @ActionName)");
    return false;
  }
  ev = (Ev)it;
  // halves that never happen: a trigger on them would load and never fire
  if (ev == Ev::GameOver || (b && (ev == Ev::ActionExecuted || ev == Ev::ActionCancelled))) {
    error(path, "this half of " + t + " never happens: no trigger on it");
    return false;
  }
  return true;
}

void Loader::reaction(const json& j, const std::string& path, int tmpl, int action) {
  if (!object(j, path, "reaction")) return;
  Reaction r;
  r.tmpl = tmpl;
  r.action = action;
  if (j.contains("name")) str(j["name"], path + "/name", r.name);
  else if (action >= 0) r.name = d.actions[action].name;
  trigger(j["trigger"], path + "/trigger", r.before, r.event, r.namedAction);
  if (j.contains("condition")) r.condition = want(value(j["condition"], path + "/condition", true), path + "/condition", Want::Condition);
  if (j.contains("requires_target")) {
    targetSpec(j["requires_target"], path + "/requires_target", r.target);
    if (action >= 0)  // (answering runs the action's cost and mutations with the answer's targets)
      actionListsRead(path.substr(0, path.rfind("/reactions/")), r.target.from.root, r.target.expandZones);
  } else if (action >= 0) r.target = d.actions[action].target;  // answering takes the action: its targets too
  if (j.contains("mutations")) mutations(j["mutations"], path + "/mutations", r.mutations);
  if (j.contains("queue")) boolean(j["queue"], path + "/queue", r.queue);
  r.optional = action >= 0;  // a reaction inside an action is its controller's choice
  if (j.contains("optional")) boolean(j["optional"], path + "/optional", r.optional);
  if (r.queue && r.before) error(path + "/queue", "a $Before reaction cannot go on the queue: it must act before the event");
  else if (r.queue && action >= 0) error(path + "/queue", "an answer takes its action at once: it cannot go on the queue");
  r.nameSym = d.syms.intern(r.name);
  int idx = (int)d.reactions.size();
  d.reactions.push_back(std::move(r));
  if (tmpl >= 0) d.templates[tmpl].reactions.push_back(idx);
}

void Loader::action(const json& j, const std::string& path, int tmpl) {
  if (!object(j, path, "action"))
    return;
  Action a;
  a.tmpl = tmpl;
  size_t firstNode = d.nodes.nodes.size();
  str(j["name"], path + "/name", a.name);
  a.nameSym = d.syms.intern(a.name);
  if (j.contains("source")) {
    if (tmpl >= 0) error(path + "/source", "an entity action's source is the entity itself: remove 'source'");
    else a.source = value(j["source"], path + "/source", true);
  }
  if (j.contains("requires_target")) targetSpec(j["requires_target"], path + "/requires_target", a.target);
  if (j.contains("condition")) {
    a.condition = want(value(j["condition"], path + "/condition", true), path + "/condition", Want::Condition);
    if (a.condition.present()) a.fromZone = requiredZone(a.condition.root);
  }
  if (j.contains("cost")) mutations(j["cost"], path + "/cost", a.cost);
  if (j.contains("x")) {
    const json& x = j["x"];
    if (object(x, path + "/x", "x")) {
      a.hasX = true;
      a.xMin = x.contains("min") ? value(x["min"], path + "/x/min") : constExpr(d.nodes, 1, 0);
      a.xMax = value(x["max"], path + "/x/max");
    }
  }
  if (j.contains("modes")) {
    const json& ms = j["modes"];
    if (list(ms, path + "/modes")) {
      if (ms.empty()) error(path + "/modes", "a 'pick one' list needs at least one mode");
      for (size_t i = 0; i < ms.size(); i++) {
        std::string mp = path + "/modes/" + std::to_string(i);
        Mode mo;
        if (!object(ms[i], mp, "mode")) continue;
        if (ms[i].contains("name")) str(ms[i]["name"], mp + "/name", mo.name);
        if (ms[i].contains("requires_target")) {
          if (a.target.present) error(mp + "/requires_target", "the action already has requires_target; give targets either to the action or to its modes");
          else {
            targetSpec(ms[i]["requires_target"], mp + "/requires_target", mo.target);
            actionListsRead(path, -1, false);  // (the action's own lists read the mode's)
          }
        }
        mutations(ms[i]["mutations"], mp + "/mutations", mo.mutations);
        a.modes.push_back(std::move(mo));
      }
    }
  }
  if (j.contains("play")) boolean(j["play"], path + "/play", a.play);
  if (j.contains("queue")) boolean(j["queue"], path + "/queue", a.queue);
  if (j.contains("properties")) {
    const json& p = j["properties"];
    if (!p.is_object()) error(path + "/properties", "expected an object of name: expression, found " + typeName(p));
    else
      for (auto it = p.begin(); it != p.end(); ++it)
        a.props.push_back({d.syms.intern(it.key()), value(it.value(), path + "/properties/" + jsonPointerEscape(it.key()))});
  }
  if (j.contains("mutations")) mutations(j["mutations"], path + "/mutations", a.mutations);
  if (tmpl < 0 && !a.source.present()) {
    // no `source`, but the action reads $entity.selected (spec 002's PlayCard): any
    // entity the player controls may be the source
    for (size_t n = firstNode; n < d.nodes.nodes.size(); n++)
      if (d.nodes.nodes[n].op == N::ESelected) { a.anySource = true; break; }
  }
  if (a.play && tmpl < 0 && !a.source.present() && !a.anySource)
    error(path + "/play", "a played action needs a card: give it a 'source' (or make it an entity action)");
  if (tmpl < 0 && !a.source.present() && !a.anySource) selfless.push_back(path + "/");
  if (!j.contains("reactions")) eventless.push_back(path + "/");
  int idx = (int)d.actions.size();
  d.actions.push_back(std::move(a));
  if (tmpl >= 0) d.templates[tmpl].actions.push_back(idx);
  if (j.contains("reactions")) {
    const json& rs = j["reactions"];
    if (list(rs, path + "/reactions")) {
      // an answer chooses whether to take the action, and its targets: no mode, no X
      const Action& taken = d.actions[idx];
      if (!rs.empty() && (taken.hasX || !taken.modes.empty() || taken.source.present() || taken.anySource))
        error(path + "/reactions", "a decision picks no source, mode or x: this action cannot answer");
      for (size_t i = 0; i < rs.size(); i++) reaction(rs[i], path + "/reactions/" + std::to_string(i), tmpl, idx);
    }
  }
}

void Loader::triggered(const json& j, const std::string& path, int tmpl) {
  if (!object(j, path, "triggered_action"))
    return;
  Triggered t;
  t.tmpl = tmpl;
  str(j["name"], path + "/name", t.name);
  trigger(j["trigger"], path + "/trigger", t.before, t.event, t.namedAction);
  if (j.contains("condition")) t.condition = want(value(j["condition"], path + "/condition", true), path + "/condition", Want::Condition);
  if (j.contains("optional")) boolean(j["optional"], path + "/optional", t.optional);
  if (j.contains("queue")) boolean(j["queue"], path + "/queue", t.queue);
  if (j.contains("player")) t.player = value(j["player"], path + "/player", true);
  if (j.contains("requires_target")) targetSpec(j["requires_target"], path + "/requires_target", t.target);
  if (j.contains("mutations")) mutations(j["mutations"], path + "/mutations", t.mutations);
  t.nameSym = d.syms.intern(t.name);
  int idx = (int)d.triggered.size();
  d.triggered.push_back(std::move(t));
  if (tmpl >= 0) d.templates[tmpl].triggered.push_back(idx);
}

void Loader::effect(const json& j, const std::string& path, int tmpl) {
  if (!object(j, path, "effect")) return;
  Effect e;
  e.tmpl = tmpl;
  e.appliesTo = value(j["applies_to"], path + "/applies_to", true);
  if (j.contains("filter")) e.filter = want(value(j["filter"], path + "/filter", true), path + "/filter", Want::Condition);
  if (j.contains("filter"))  // (add and set are read with the filtered entity)
    for (const char* k : {"/filter", "/add", "/set"}) scopes.push_back({path + k, N::Candidate, e.appliesTo.root, true});
  eventless.push_back(path + "/");
  if (j.contains("while")) e.when = value(j["while"], path + "/while", true);
  e.prop = knownProp(j["property"], path + "/property");
  if (j.contains("add") == j.contains("set")) error(path, "an effect needs exactly one of 'add' or 'set'");
  else if (j.contains("add")) e.value = value(j["add"], path + "/add");
  else { e.set = true; e.value = value(j["set"], path + "/set"); }
  int idx = (int)d.effects.size();
  d.effects.push_back(std::move(e));
  d.templates[tmpl].effects.push_back(idx);
  d.hasEffects = true;
  if (e.prop >= 0) {
    if ((size_t)e.prop >= d.effectOnProp.size()) d.effectOnProp.resize(e.prop + 1, 0);
    d.effectOnProp[e.prop] = 1;
  }
}

}  // namespace loader
}  // namespace rulestack
