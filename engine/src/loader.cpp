// The definition loader: validates every key and compiles every expression, collecting
// all errors (with JSON pointers) instead of stopping at the first.
#include "loader.h"
#include "types.h"

#include <algorithm>
#include <set>

#include "keys.h"
#include "names.h"

namespace rulestack {

using json = Json;

namespace {

constexpr size_t kMaxText = 8u << 20;
constexpr int kMaxDepth = 200;
constexpr size_t kMaxList = 10000;

// A value string is an expression when it starts with '$', '(' or a function call
// (`min(`, `max(`, `abs(`, `count(`, `sum(`); any other string is a literal.
bool looksLikeExpression(const std::string& s) {
  if (s.empty()) return false;
  if (s[0] == '$' || s[0] == '(') return true;
  for (const char* f : {"min(", "max(", "abs(", "count(", "sum("})
    if (s.rfind(f, 0) == 0) return true;
  return false;
}

std::string typeName(const json& j) {
  switch (j.type()) {
    case json::value_t::null: return "null";
    case json::value_t::object: return "an object";
    case json::value_t::array: return "a list";
    case json::value_t::string: return "a string";
    case json::value_t::boolean: return "a boolean";
    case json::value_t::number_float: return "a decimal number";
    default: return "a number";
  }
}

// (plain arrays, not vectors of strings: no code runs to make them when the module starts)
const char* const kOps[] = {"=", "+", "-", "*", "/", "SetProperty", "MoveZone", "Destroy", "Cancel",
                            "RequireDiscard", "Promote", "DrawCard", "Create", "Shuffle", "Damage",
                            "Attach", "EndTurn", "Win", "Lose", "Draw"};
const Op kOpCodes[] = {Op::Set, Op::Add, Op::Sub, Op::Mul, Op::Div, Op::Set, Op::MoveZone, Op::Destroy, Op::Cancel,
                       Op::RequireDiscard, Op::Promote, Op::DrawCard, Op::Create, Op::Shuffle, Op::Damage,
                       Op::Attach, Op::EndTurn, Op::Win, Op::Lose, Op::Draw};
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

struct Loader {
  Def& d;
  std::vector<DefError>& errs;
  NameIndex zoneByName;
  NameIndex tmplByName;
  std::set<std::string> actionNames;
  std::vector<std::string> propList;  // for suggestions
  // Where each compiled expression's nodes are (a load error found later names its place).
  struct Site { int first, end; std::string path; };
  std::vector<Site> sites;
  // Keys whose expression must be of some kind (types.h), checked once everything is declared.
  struct Expect { Expr e; std::string path; Want want; };
  std::vector<Expect> expects;
  // Where $target (and $targets), $candidate and $item get their values — a requires_target,
  // its filter, a for_each — for the expressions under `prefix` (the longest prefix wins).
  struct Scope { std::string prefix; N ref; int from; bool expand; };
  std::vector<Scope> scopes;
  // The properties arithmetic (and Damage) changes: each must hold a number.
  std::vector<std::pair<std::string, int>> numberProps;
  // Where $entity.self has no entity: setup, the flow, end conditions, and top-level actions
  // without a source (those that read $entity.selected take any source, so they are not
  // among them). Top-level triggered actions and reactions have none either, but spec 002
  // prints EnPassant at the top level reading it: they are left to the warnings to come.
  std::vector<std::string> selfless = {"/setup/", "/flow/", "/end_conditions/"};
  std::vector<std::string> selflessWarned = {"/triggered_actions/", "/reactions/"};

  Loader(Def& def, std::vector<DefError>& e) : d(def), errs(e) {}

  void error(const std::string& path, const std::string& msg) { errs.push_back({path, msg}); }
  void warn(const std::string& path, const std::string& msg) { d.warnings.push_back({path, msg}); }

  // What can never work for the kinds of its values (types.h): an operation on operands of the
  // wrong kind, then a key given the wrong kind; at most one error per expression.
  void kinds() {
    Typer t(d);
    std::set<std::string> reported, compiled;  // (compiled: the keys whose value was expression text)
    for (const Site& site : sites) compiled.insert(site.path);
    // shortest prefix first, so that the innermost scope binds last (json.h's one stable sort)
    std::vector<uint32_t> order = stableOrder(scopes.size(), [](const void* c, size_t a, size_t b) {
      const auto& v = *static_cast<const std::vector<Scope>*>(c);
      return v[a].prefix.size() < v[b].prefix.size();
    }, &scopes);
    for (uint32_t i : order) {
      const Scope& sc = scopes[i];
      // one value of the `from`: a zone is itself the choice, or (expand) its entities
      Kind f = t.of(sc.from);
      Kind k = f == Kind::Zone ? (sc.expand ? Kind::Ent : Kind::Zone) : f == Kind::List ? t.elemOf(sc.from)
               : f == Kind::Ent || f == Kind::Item ? f : Kind::Unknown;
      for (const Site& site : sites)
        if (site.path.rfind(sc.prefix, 0) == 0) t.bind(site.first, site.end, sc.ref, k);
    }
    t.bindWheres();
    auto colOf = [&](int n) { return n >= 0 && n < (int)d.nodes.cols.size() ? d.nodes.cols[n] : 1; };
    for (const Site& site : sites) {
      auto bad = operandMismatch(t, d, site.first, site.end);
      if (bad.first < 0) continue;
      error(site.path, "expression error at column " + std::to_string(colOf(bad.first)) + ": " + bad.second);
      reported.insert(site.path);
    }
    for (const Expect& x : expects) {
      if (!x.e.present() || reported.count(x.path)) continue;
      const Node& root = d.nodes.nodes[x.e.root];
      Kind k = t.of(x.e.root);
      std::string expected = mismatch(x.want, k);
      if (x.want == Want::Condition && k == Kind::Int)
        warn(x.path, "this condition is an integer: it holds when the integer is not 0 (write '!= 0' to say so)");
      if (expected.empty()) continue;
      std::string found = kindName(k);
      if (root.op == N::Const && k == Kind::Str) {
        const std::string& text = d.syms.names[d.nodes.consts[root.imm].v];
        found = "the text '" + text + "'";
        if (text.find('$') != std::string::npos)
          found += " (text, not an expression: an expression starts with $, ( or a function such as min(; write $x + 1, not 1 + $x)";
      }
      error(x.path, std::string(compiled.count(x.path) ? "expression error at column 1: " : "") + "expected " + expected + ", found " + found);
    }
    for (const auto& [path, p] : numberProps) {
      Kind k = t.prop(p);
      if (mismatch(Want::Number, k).empty()) continue;
      error(path, "arithmetic changes a number, but property '" + d.propNames[p] + "' holds " + kindName(k) +
                      " (its declared defaults)");
    }
  }

  // A member that is neither built in nor a property or action property anyone declares
  // reads null for ever ($entity.self.controller.opponent): a typo or a missing declaration.
  void unknownMembers() {  // (and $entity.self where there is none)
    std::set<int> known;
    const int* b = &d.b.id;
    for (size_t k = 0; k < sizeof(Builtins) / sizeof(int); k++) known.insert(b[k]);
    for (const Action& a : d.actions)
      for (auto& kv : a.props) known.insert(kv.first);
    std::vector<std::string> names = d.propNames;
    for (int k : known) names.push_back(d.syms.names[k]);
    // properties with a declared default (the others only a mutation declares: null until set)
    std::vector<char> hasDefault(d.propNames.size(), 0), warned(d.propNames.size(), 0);
    for (auto& kv : d.playerProps) hasDefault[kv.first] = 1;
    for (auto& kv : d.perTurn) hasDefault[kv.first] = 1;
    for (const Template& t : d.templates)
      for (auto& kv : t.props) hasDefault[kv.first] = 1;
    for (const Site& site : sites) {
      auto under = [&](const std::vector<std::string>& prefixes) {
        return std::any_of(prefixes.begin(), prefixes.end(), [&](const std::string& p) { return site.path.rfind(p, 0) == 0; });
      };
      const bool noSelf = under(selfless), noSelfWarned = !noSelf && under(selflessWarned);
      for (int n = site.first; n < site.end; n++) {
        const Node& nd = d.nodes.nodes[n];
        const std::string at = std::to_string(d.nodes.cols[n]);
        if (nd.op == N::ESelf && (noSelf || noSelfWarned)) {
          std::string msg = std::string(noSelf ? "expression error at column " : "at column ") + at +
                            ": $entity.self is always null here (only an entity's own actions, reactions, triggered "
                            "actions and effects have one; a top-level action gets one from its 'source')";
          if (noSelf) error(site.path, msg);
          else warn(site.path, msg);
          continue;
        }
        if (nd.op == N::Prop && nd.imm >= 0 && nd.imm < (int)hasDefault.size() && !hasDefault[nd.imm] && !warned[nd.imm]) {
          warned[nd.imm] = 1;
          warn(site.path, "at column " + at + ": property '" + d.propNames[nd.imm] +
                              "' has no declared default: it reads null until a mutation sets it (declare it in a "
                              "template's or the players' properties)");
        }
        if (nd.op != N::Member || known.count(nd.imm)) continue;
        const std::string& name = d.syms.names[nd.imm];
        error(site.path, "expression error at column " + at + ": unknown member '" + name +
                             "' (no built-in member, property or action property has this name)" + didYouMean(name, names));
      }
    }
  }

  CompileEnv env() { return CompileEnv{&d.syms, &zoneByName}; }

  // Checks that j is an object with only the allowed keys (and the required ones).
  bool object(const json& j, const std::string& path, const std::vector<std::string>& allowed,
              const std::vector<std::string>& required = {}) {
    if (!j.is_object()) {
      error(path, "expected an object, found " + typeName(j));
      return false;
    }
    for (auto it = j.begin(); it != j.end(); ++it) {
      if (std::find(allowed.begin(), allowed.end(), it.key()) == allowed.end())
        error(path + "/" + jsonPointerEscape(it.key()),
              "unknown key '" + it.key() + "'" + didYouMean(it.key(), allowed));
    }
    bool complete = true;  // the caller reads required keys: without one it must stop here
    for (auto& r : required)
      if (!j.contains(r)) {
        error(path, "missing required key '" + r + "'");
        complete = false;
      }
    return complete;
  }

  bool object(const json& j, const std::string& path, const std::string& context) {
    const KeySet& k = keysOf(context);
    return object(j, path, k.allowed, k.required);
  }

  bool list(const json& j, const std::string& path) {
    if (!j.is_array()) {
      error(path, "expected a list, found " + typeName(j));
      return false;
    }
    if (j.size() > kMaxList) {
      error(path, "list longer than " + std::to_string(kMaxList) + " items");
      return false;
    }
    return true;
  }

  bool str(const json& j, const std::string& path, std::string& out) {
    if (!j.is_string()) {
      error(path, "expected a string, found " + typeName(j));
      return false;
    }
    out = j.get<std::string>();
    return true;
  }

  bool boolean(const json& j, const std::string& path, bool& out) {
    if (!j.is_boolean()) {
      error(path, "expected true or false, found " + typeName(j));
      return false;
    }
    out = j.get<bool>();
    return true;
  }

  bool integer(const json& j, const std::string& path, int& out, long long lo, long long hi) {
    if (!j.is_number_integer()) {
      error(path, "expected a whole number, found " + typeName(j));
      return false;
    }
    long long v = j.get<long long>();
    if (v < lo || v > hi) {
      error(path, "expected a number from " + std::to_string(lo) + " to " + std::to_string(hi) + ", found " + std::to_string(v));
      return false;
    }
    out = (int)v;
    return true;
  }

  // A value: literal or expression (a string starting with '$'); `cond` = always an expression.
  Expr value(const json& j, const std::string& path, bool cond = false) {
    if (j.is_number_integer()) {
      long long v = j.get<long long>();
      if (v < INT32_MIN || v > INT32_MAX) { error(path, "number out of the 32-bit range"); return {}; }
      return constExpr(d.nodes, 1, (int32_t)v);
    }
    if (j.is_boolean()) return constExpr(d.nodes, 2, j.get<bool>() ? 1 : 0);
    if (j.is_null()) return constExpr(d.nodes, 0, 0);
    if (j.is_string()) {
      std::string s = j.get<std::string>();
      if (!cond && !looksLikeExpression(s)) return constExpr(d.nodes, 3, d.syms.intern(s));
      Expr e;
      CompileError ce;
      int first = (int)d.nodes.nodes.size();
      if (!compileExpr(s, d.nodes, env(), e, ce)) {
        error(path, "expression error at column " + std::to_string(ce.column) + ": " + ce.message);
        return {};
      }
      sites.push_back({first, (int)d.nodes.nodes.size(), path});
      return e;
    }
    error(path, "expected a value or an expression, found " + typeName(j));
    return {};
  }

  int propIndex(const std::string& name) {
    int sym = d.syms.intern(name);
    if ((int)d.propOfSym.size() <= sym) d.propOfSym.resize(sym + 1, -1);
    if (d.propOfSym[sym] < 0) {
      d.propOfSym[sym] = (int)d.propNames.size();
      d.propNames.push_back(name);
    }
    return d.propOfSym[sym];
  }

  bool slotLiteral(const json& j, const std::string& path, Slot& out) {
    if (j.is_number_integer()) {
      long long v = j.get<long long>();
      if (j.is_number_unsigned() && j.get<unsigned long long>() > (unsigned long long)INT32_MAX) v = (long long)INT32_MAX + 1;
      if (v < INT32_MIN || v > INT32_MAX) {
        error(path, "a property default is a 32-bit whole number (-2147483648 to 2147483647), found " + j.dump());
        return false;
      }
      out = Slot{(int32_t)v, VK::Int};
      return true;
    }
    if (j.is_boolean()) { out = Slot{j.get<bool>() ? 1 : 0, VK::Bool}; return true; }
    if (j.is_null()) { out = Slot{}; return true; }
    if (j.is_string()) { out = Slot{d.syms.intern(j.get<std::string>()), VK::Str}; return true; }
    error(path, "a property default must be a whole number, a boolean, a string or null, found " + typeName(j));
    return false;
  }

  void properties(const json& j, const std::string& path, std::vector<std::pair<int, Slot>>& out) {
    if (!j.is_object()) { error(path, "expected an object of property: default value, found " + typeName(j)); return; }
    for (auto it = j.begin(); it != j.end(); ++it) {
      Slot s;
      if (slotLiteral(it.value(), path + "/" + jsonPointerEscape(it.key()), s)) out.push_back({propIndex(it.key()), s});
    }
  }

  // A property a mutation sets: declared by a template or the players, or else declared
  // here (default null), as spec 002's IronArmor reads an `is_equipped` nobody declares.
  int mutationProp(const json& j, const std::string& path) {
    std::string name;
    if (!str(j, path, name)) return -1;
    if (name.empty()) { error(path, "a property name cannot be empty"); return -1; }
    return propIndex(name);
  }

  int knownProp(const json& j, const std::string& path) {
    std::string name;
    if (!str(j, path, name)) return -1;
    int sym = d.syms.find(name);
    int p = d.prop(sym);
    if (p < 0) error(path, "unknown property '" + name + "'" + didYouMean(name, d.propNames) +
                               ": declare it in players.properties or an entity's properties");
    return p;
  }

  int zoneName(const json& j, const std::string& path, bool perPlayerOnly) {
    std::string name;
    if (!str(j, path, name)) return -1;
    int z = zoneByName.find(name);
    if (z < 0) {
      std::vector<std::string> names;
      for (auto& zd : d.zones) names.push_back(zd.name);
      error(path, "unknown zone '" + name + "'" + didYouMean(name, names));
      return -1;
    }
    if (perPlayerOnly && !d.zones[z].perPlayer) {
      error(path, "zone '" + name + "' must be per_player (each card goes to its owner's)");
      return -1;
    }
    return z;
  }

  int templateName(const json& j, const std::string& path) {
    std::string name;
    if (!str(j, path, name)) return -1;
    int t = tmplByName.find(name);
    if (t < 0) {
      std::vector<std::string> names;
      for (auto& td : d.templates) names.push_back(td.id);
      error(path, "unknown entity template '" + name + "'" + didYouMean(name, names));
      return -1;
    }
    return t;
  }

  // ---- mutations ----
  void mutation(const json& j, const std::string& path, Mutation& m) {
    m.path = path;
    if (!j.is_object()) { error(path, "expected a mutation object, found " + typeName(j)); return; }
    if (!j.contains("operation")) {
      error(path, "missing required key 'operation' (one of: = + - * / SetProperty MoveZone Destroy Cancel "
                  "RequireDiscard Promote DrawCard Create Shuffle Damage Attach EndTurn Win Lose Draw)");
      return;
    }
    std::string opName;
    if (!str(j["operation"], path + "/operation", opName)) return;
    int oi = indexIn(kOps, opName);
    if (oi < 0) {
      error(path + "/operation", "unknown operation '" + opName + "'" + didYouMean(opName, namesOf(kOps)) +
                                     " (one of: = + - * / SetProperty MoveZone Destroy Cancel RequireDiscard "
                                     "Promote DrawCard Create Shuffle Damage Attach EndTurn Win Lose Draw)");
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
    if (j.contains("id")) str(j["id"], path + "/id", m.id);
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
    if (arith && m.op != Op::Set && m.value.present()) expects.push_back({m.value, path + "/value", Want::Number});
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
  }

  void mutations(const json& j, const std::string& path, std::vector<Mutation>& out) {
    if (!list(j, path)) return;
    out.resize(j.size());
    for (size_t i = 0; i < j.size(); i++) mutation(j[i], path + "/" + std::to_string(i), out[i]);
  }

  void targetSpec(const json& j, const std::string& path, TargetSpec& t) {
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
  Expr want(Expr e, const std::string& path, Want w) {
    if (e.present()) expects.push_back({e, path, w});
    return e;
  }

  // A requires_target at `path` (…/requires_target): $target in its holder's expressions,
  // $candidate in its filter.
  void scope(const std::string& path, const Expr& from, bool expand) {
    if (!from.present()) return;
    scopes.push_back({path.substr(0, path.size() - std::string("requires_target").size()), N::Target, from.root, expand});
    scopes.push_back({path + "/filter", N::Candidate, from.root, true});
  }

  bool trigger(const json& j, const std::string& path, bool& before, Ev& ev, int& named) {
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
                  "ActionCancelled, OnZoneEnter, DamageTaken, PhaseExecute, TurnStart, DrawFailed, GameOver, or @ActionName)");
      return false;
    }
    ev = (Ev)it;
    return true;
  }

  void reaction(const json& j, const std::string& path, int tmpl, int action) {
    if (!object(j, path, "reaction")) return;
    Reaction r;
    r.tmpl = tmpl;
    r.action = action;
    if (j.contains("name")) str(j["name"], path + "/name", r.name);
    else if (action >= 0) r.name = d.actions[action].name;
    trigger(j["trigger"], path + "/trigger", r.before, r.event, r.namedAction);
    if (j.contains("condition")) r.condition = want(value(j["condition"], path + "/condition", true), path + "/condition", Want::Condition);
    if (j.contains("requires_target")) targetSpec(j["requires_target"], path + "/requires_target", r.target);
    if (j.contains("mutations")) mutations(j["mutations"], path + "/mutations", r.mutations);
    if (j.contains("queue")) boolean(j["queue"], path + "/queue", r.queue);
    r.optional = action >= 0;  // a reaction inside an action is its controller's choice
    if (j.contains("optional")) boolean(j["optional"], path + "/optional", r.optional);
    if (r.queue && r.before) error(path + "/queue", "a $Before reaction cannot go on the queue: it must act before the event");
    r.nameSym = d.syms.intern(r.name);
    int idx = (int)d.reactions.size();
    d.reactions.push_back(std::move(r));
    if (tmpl >= 0) d.templates[tmpl].reactions.push_back(idx);
  }

  // A condition whose top-level `and` chain says `$entity.self.zone == $zone.@Z` (or
  // $entity.selected): legal-move enumeration then looks only at the entities in Z.
  int requiredZone(int n) {
    const Node& nd = d.nodes.nodes[n];
    if (nd.op == N::And) {
      int z = requiredZone(nd.a);
      return z >= 0 ? z : requiredZone(nd.b);
    }
    return sourceZoneTest(n);
  }

  // The zone Z when n is `$entity.self.zone == $zone.@Z` (or $entity.selected), else -1.
  int sourceZoneTest(int n) {
    const Node& nd = d.nodes.nodes[n];
    if (nd.op != N::Eq) return -1;
    auto isSourceZone = [&](int k) {
      const Node& m = d.nodes.nodes[k];
      if (m.op != N::Member || m.imm != d.b.zone) return false;
      N o = d.nodes.nodes[m.a].op;
      return o == N::ESelf || o == N::ESelected;
    };
    auto named = [&](int k) { return d.nodes.nodes[k].op == N::ZoneNamed ? d.nodes.nodes[k].imm : -1; };
    if (isSourceZone(nd.a) && named(nd.b) >= 0) return named(nd.b);
    if (isSourceZone(nd.b) && named(nd.a) >= 0) return named(nd.a);
    return -1;
  }

  // Whether expression n reads $entity.self/selected only as .zone, .type, .template, .tags,
  // .controller or a property (`safe`: n is the object of such a member access).
  bool selfSafe(int n, bool safe) {
    if (n < 0) return true;
    const Node& nd = d.nodes.nodes[n];
    if (nd.op == N::ESelf || nd.op == N::ESelected) return safe;
    if (nd.op == N::Member) {
      int s = nd.imm;
      bool member = s == d.b.zone || s == d.b.type || s == d.b.tmpl || s == d.b.tags || s == d.b.controller;
      return selfSafe(nd.a, member);
    }
    if (nd.op == N::Prop) return selfSafe(nd.a, true);
    if (nd.op == N::Sum) return selfSafe(nd.a, false);
    return selfSafe(nd.a, false) && selfSafe(nd.b, false);
  }

  void action(const json& j, const std::string& path, int tmpl) {
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
            else targetSpec(ms[i]["requires_target"], mp + "/requires_target", mo.target);
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
    int idx = (int)d.actions.size();
    d.actions.push_back(std::move(a));
    if (tmpl >= 0) d.templates[tmpl].actions.push_back(idx);
    if (j.contains("reactions")) {
      const json& rs = j["reactions"];
      if (list(rs, path + "/reactions"))
        for (size_t i = 0; i < rs.size(); i++) reaction(rs[i], path + "/reactions/" + std::to_string(i), tmpl, idx);
    }
  }

  void triggered(const json& j, const std::string& path, int tmpl) {
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

  void effect(const json& j, const std::string& path, int tmpl) {
    if (!object(j, path, "effect")) return;
    Effect e;
    e.tmpl = tmpl;
    e.appliesTo = value(j["applies_to"], path + "/applies_to", true);
    if (j.contains("filter")) e.filter = want(value(j["filter"], path + "/filter", true), path + "/filter", Want::Condition);
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

  // ---- the whole definition ----
  void load(const json& j) {
    // the top level goes on without a required key (each is read only when present), so
    // every other error is reported too
    bool isObject = j.is_object();
    object(j, "", "root");
    if (!isObject) return;
    str(j.value("name", json("")), "/name", d.name);
    d.syms.intern("");  // symbol 0: the empty string
    auto& b = d.b;
    b = Builtins{d.syms.intern("id"), d.syms.intern("type"), d.syms.intern("template"), d.syms.intern("tags"),
                 d.syms.intern("zone"), d.syms.intern("owner"), d.syms.intern("controller"), d.syms.intern("host"),
                 d.syms.intern("index"), d.syms.intern("name"), d.syms.intern("size"), d.syms.intern("entities"),
                 d.syms.intern("top"), d.syms.intern("source"), d.syms.intern("player"), d.syms.intern("targets"),
                 d.syms.intern("target"), d.syms.intern("mode"), d.syms.intern("x"), d.syms.intern("cancelled"),
                 d.syms.intern("entity"), d.syms.intern("health")};

    // players
    if (j.contains("players")) {
      const json& p = j["players"];
      if (object(p, "/players", "players")) {
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
      }
    }

    // zones
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

    // templates: names and properties first, so every later reference resolves
    const json* ents = nullptr;
    if (j.contains("entities") && list(j["entities"], "/entities")) ents = &j["entities"];
    if (ents) {
      for (size_t i = 0; i < ents->size(); i++) {
        const json& e = (*ents)[i];
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
    // action names (for valid_actions and @Name triggers)
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

    // settings
    if (j.contains("settings")) {
      const json& s = j["settings"];
      if (object(s, "/settings", "settings")) {
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
    }
    if (d.discardZone < 0) d.discardZone = d.cancelZone;
    d.syms.intern("player");

    // global actions, then entity parts
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

    if (j.contains("setup")) mutations(j["setup"], "/setup", d.setup);

    // flow
    if (j.contains("flow")) flow(j["flow"]);

    // end conditions
    if (j.contains("end_conditions") && list(j["end_conditions"], "/end_conditions")) {
      for (size_t i = 0; i < j["end_conditions"].size(); i++) {
        const json& e = j["end_conditions"][i];
        std::string ep = "/end_conditions/" + std::to_string(i);
        if (!object(e, ep, "end_condition")) continue;
        EndCondition c;
        c.when = want(value(e["when"], ep + "/when", true), ep + "/when", Want::Condition);
        if (e.contains("winner") == e.contains("draw")) error(ep, "an end condition needs exactly one of 'winner' or 'draw'");
        if (e.contains("winner")) c.winner = value(e["winner"], ep + "/winner", true);
        if (e.contains("draw")) boolean(e["draw"], ep + "/draw", c.draw);
        d.ends.push_back(c);
      }
    }

    // member access to a declared property reads it directly (not the built-ins id, owner,
    // controller and zone, which win over a property of the same name)
    for (Node& n : d.nodes.nodes) {
      if (n.op != N::Member) continue;
      int p = d.prop(n.imm);
      if (p < 0 || n.imm == d.b.id || n.imm == d.b.owner || n.imm == d.b.controller || n.imm == d.b.zone) continue;
      n = Node{N::Prop, n.a, n.imm, p};
    }
    unknownMembers();
    if (errs.empty()) kinds();  // (on a definition that is otherwise sound: one error at a time)
    // entity actions that read their source only through safe members (after the Prop pass)
    for (Action& a : d.actions) {
      if (a.tmpl < 0) continue;
      bool ok = selfSafe(a.condition.root, false) && selfSafe(a.xMin.root, false) && selfSafe(a.xMax.root, false) &&
                selfSafe(a.target.from.root, false) && selfSafe(a.target.filter.root, false);
      for (const Mutation& m : a.cost)
        ok = ok && selfSafe(m.target.root, false) && selfSafe(m.value.root, false) && selfSafe(m.condition.root, false) &&
             selfSafe(m.forEach.root, false);
      for (const Mode& mo : a.modes) ok = ok && selfSafe(mo.target.from.root, false) && selfSafe(mo.target.filter.root, false);
      a.groupable = ok;
    }
    for (Action& a : d.actions) {
      splitCondition(a);
      a.plain = !a.hasX && a.modes.empty() && !a.target.present;
      a.conditionOnce = !(d.reads(a.condition.root) & Def::kReadsModeOrX);
    }
    // what the end conditions read
    d.endPropMask.assign(d.propNames.size(), 0);
    for (EndCondition& c : d.ends) {
      endReads(c.when.root, c.reads);
      endReads(c.winner.root, c.reads);
      if (!c.reads) c.reads = Def::kEndTurn;          // (a constant: checked when a turn starts)
      c.perPlayer = readsCurrentPlayer(c.when.root) || readsCurrentPlayer(c.winner.root);
      if (c.reads & Def::kEndOther) d.endAny = true;
      std::vector<int> parts;
      if (c.when.present()) conjuncts(c.when.root, parts);  // (absent in a definition with errors)
      const size_t bit = (size_t)(&c - d.ends.data()) * d.turnOrder.size();
      if (parts.size() > 1 && !d.hasEffects && bit + d.turnOrder.size() <= 64) {
        endReads(parts[0], c.guardReads);
        if (c.guardReads) {
          c.guard = Expr{parts[0]};
          c.rest = andOf(parts, 1, parts.size());
          c.guardBit = 1ull << bit;
        }
      }
      for (size_t p = 0; p < d.propNames.size(); p++)
        if (c.reads & Def::endBit((int)p)) d.endPropMask[p] |= Def::endBit((int)p);
    }
    if (d.endAny)
      for (uint64_t& m : d.endPropMask) m |= Def::kEndOther;

    d.hoistInvariants();  // (after the analyses above, which read the plain shapes)
    fuse();

    // trigger indexes
    d.reactionsByKey.assign(2 * (int)Ev::Count, {});
    d.triggeredByKey.assign(2 * (int)Ev::Count, {});
    for (size_t i = 0; i < d.reactions.size(); i++)
      d.reactionsByKey[Def::key(d.reactions[i].before, d.reactions[i].event)].push_back((int)i);
    for (size_t i = 0; i < d.triggered.size(); i++)
      d.triggeredByKey[Def::key(d.triggered[i].before, d.triggered[i].event)].push_back((int)i);
    d.listens.assign(d.reactionsByKey.size(), 0);
    for (size_t k = 0; k < d.listens.size(); k++)
      d.listens[k] = !d.reactionsByKey[k].empty() || !d.triggeredByKey[k].empty();
    d.prepare();
  }

  // A condition's top-level `and` chain, in evaluation order.
  void conjuncts(int n, std::vector<int>& out) {
    const Node& nd = d.nodes.nodes[n];
    if (nd.op == N::And) {
      conjuncts(nd.a, out);
      conjuncts(nd.b, out);
    } else {
      out.push_back(n);
    }
  }

  Expr andOf(const std::vector<int>& parts, size_t from, size_t to) {
    if (from >= to) return Expr{};
    int root = parts[from];
    for (size_t i = from + 1; i < to; i++) {
      d.nodes.nodes.push_back(Node{N::And, root, parts[i]});
      d.nodes.cols.push_back(d.nodes.cols[parts[i]]);
      root = (int)d.nodes.nodes.size() - 1;
    }
    return Expr{root};
  }

  // Action::perAction/perSource, for an action enumerated once per source (an entity action,
  // a global one with `source` or reading $entity.selected). Only the leading conjuncts move:
  // `and` stops at the first false one, so testing them first (once per enumeration) gives
  // every card's result; an expression changes nothing and cannot fail, so it may be tested
  // before any card is found. (Not with X: its bounds are evaluated before the condition.)
  void splitCondition(Action& a) {
    if ((a.tmpl < 0 && !a.source.present() && !a.anySource) || a.hasX || !a.condition.present()) return;
    std::vector<int> parts, free;
    conjuncts(a.condition.root, parts);
    size_t k = 0;
    for (; k < parts.size(); k++) {
      // (an entity action listed from its zone only: the test is true for every card listed)
      if (a.tmpl >= 0 && a.fromZone >= 0 && sourceZoneTest(parts[k]) == a.fromZone) continue;
      if (d.reads(parts[k]) & (Def::kReadsMove | Def::kReadsCandidate)) break;  // (the same for every card)
      free.push_back(parts[k]);
    }
    if (free.empty()) return;
    a.perAction = andOf(free, 0, free.size());
    a.perSource = andOf(parts, k, parts.size());
  }

  // Common node shapes fused into one node (after every static analysis, which reads the
  // plain shapes): evaluation visits about half the nodes for a typical condition.
  void fuse() {
    auto& nodes = d.nodes.nodes;
    auto constInt = [&](int k, int32_t& v) {
      if (k < 0 || nodes[k].op != N::Const) return false;
      const ConstVal& cv = d.nodes.consts[nodes[k].imm];
      if (cv.kind != 1) return false;
      v = cv.v;
      return true;
    };
    auto who = [&](N op) { return op == N::ESelf ? 0 : op == N::ESelected ? 1 : -1; };
    auto playerWho = [&](N op) { return op == N::PCurrent ? 0 : op == N::PActive ? 1 : op == N::POpponent ? 2 : -1; };
    // a player node as PlayerProp's code (0 current, 1 active, 2 opponent, 3 + k $players[k]), or -1
    auto fusedWho = [&](int p) {
      int32_t k;
      if (playerWho(nodes[p].op) >= 0) return playerWho(nodes[p].op);
      if (nodes[p].op == N::PIndex && constInt(nodes[p].a, k) && k >= 0 && k < d.numPlayers()) return 3 + k;
      return -1;
    };
    for (size_t i = 0; i < nodes.size(); i++) {
      Node& n = nodes[i];
      if (n.op != N::Prop) continue;
      if (who(nodes[n.a].op) >= 0) n = Node{N::SelfProp, who(nodes[n.a].op), -1, n.imm};
      else if (fusedWho(n.a) >= 0) n = Node{N::PlayerProp, fusedWho(n.a), -1, n.imm};  // (and $players[k].<prop>)
    }
    for (size_t i = 0; i < nodes.size(); i++) {
      Node& n = nodes[i];
      int32_t k;
      if (n.op == N::Eq) {
        // $entity.self.zone == $zone.@Z (either side)
        for (int side = 0; side < 2; side++) {
          int l = side ? n.b : n.a, r = side ? n.a : n.b;
          const Node& m = nodes[l];
          if (m.op == N::Member && m.imm == d.b.zone && who(nodes[m.a].op) >= 0 && nodes[r].op == N::ZoneNamed) {
            n = Node{N::SelfInZone, who(nodes[m.a].op), -1, nodes[r].imm};
            break;
          }
        }
      }
      if (n.op == N::Eq || n.op == N::Ne) {  // $player.current == $player.active and the like
        int l = fusedWho(n.a), r = fusedWho(n.b);
        if (l >= 0 && r >= 0) n = Node{N::SamePlayer, l, r, n.op == N::Ne};
      }
      static const std::pair<N, N> cmp[] = {{N::Eq, N::EqConst}, {N::Ne, N::NeConst}, {N::Lt, N::LtConst},
                                            {N::Le, N::LeConst}, {N::Gt, N::GtConst}, {N::Ge, N::GeConst}};
      for (auto& c : cmp)
        if (n.op == c.first && constInt(n.b, k)) { n = Node{c.second, n.a, -1, k}; break; }
    }
  }

  bool readsCurrentPlayer(int n) {
    if (n < 0) return false;
    const Node& nd = d.nodes.nodes[n];
    if (nd.op == N::PCurrent || nd.op == N::POpponent || nd.op == N::ZoneNamed) return true;
    return readsCurrentPlayer(nd.a) || (nd.op != N::Prop && readsCurrentPlayer(nd.b));
  }

  // What a read of property p depends on: the property, or, when an effect changes it (a value
  // derived from whatever the effect's expressions read), anything.
  uint64_t propReads(int p) const {
    const bool derived = (size_t)p < d.effectOnProp.size() && d.effectOnProp[p];
    return derived ? Def::kEndOther : Def::endBit(p);
  }

  void endReads(int n, uint64_t& reads) {
    if (n < 0) return;
    const Node& nd = d.nodes.nodes[n];
    switch (nd.op) {
      case N::Const: case N::PCurrent: case N::POpponent: case N::PAll: case N::PIndex:
      case N::X: case N::Mode:
      case N::Add: case N::Sub: case N::Mul: case N::Div: case N::Mod: case N::Neg: case N::Eq: case N::Ne:
      case N::Lt: case N::Le: case N::Gt: case N::Ge: case N::And: case N::Or: case N::Not:
      case N::Min: case N::Max: case N::Abs:
        break;
      case N::Turn: case N::PActive:
        reads |= Def::kEndTurn;
        break;
      case N::Prop:  // b is a symbol, not a node
        reads |= propReads(nd.imm);
        endReads(nd.a, reads);
        return;
      case N::Member: {  // (the order of Game::member: these built-ins first, then a property)
        const Builtins& b = d.b;
        int p = d.prop(nd.imm);
        if (nd.imm == b.owner || nd.imm == b.controller || nd.imm == b.id)
          reads |= Def::kEndEnts;
        else if (p >= 0 && nd.imm != b.zone)
          reads |= propReads(p);
        else if (nd.imm == b.type || nd.imm == b.tmpl || nd.imm == b.tags)
          reads |= Def::kEndEnts;
        else
          reads |= Def::kEndOther;
        break;
      }
      case N::EOfType: case N::EAll:
        reads |= Def::kEndEnts;
        break;
      case N::Sum: {  // b is a symbol, not a node
        int p = d.prop(nd.imm);
        reads |= p >= 0 ? propReads(p) : Def::kEndOther;
        endReads(nd.a, reads);
        return;
      }
      // functions of their operands alone ($candidate: the element a `where` binds)
      case N::Candidate: case N::Where: case N::Size: case N::Count: case N::Contains: case N::Index:
        break;
      default:
        reads |= Def::kEndOther;  // zones, entities, the queue...: re-checked after any change
    }
    endReads(nd.a, reads);
    endReads(nd.b, reads);
  }

  void flow(const json& f) {
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
    bool anyActions = false;
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
      if (ps[i].contains("mutations")) mutations(ps[i]["mutations"], pp + "/mutations", ph.onEnter);
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
        anyActions = true;
      }
      d.phases.push_back(std::move(ph));
    }
    if (!anyActions && !ps.empty())
      error("/flow/phases", "no phase has valid_actions: the game would never ask a player for a move");
  }
};

}  // namespace

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

bool parseJsonText(const std::string& text, json& out, DefError& err) {
  if (text.size() > kMaxText) {
    err = {"", "the definition is larger than 8 MB"};
    return false;
  }
  // nesting guard before parsing: a hostile text must not exhaust the stack
  if (nestedDeeper(text, kMaxDepth)) {
    err = {"", "the definition is nested more than " + std::to_string(kMaxDepth) + " levels deep"};
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
