// The checks over every expression once everything is declared: the kinds of operands and of
// keys (types.h), and members and entity types nobody declares.
#include "loader_impl.h"

#include <algorithm>

namespace rulestack {
namespace loader {

// What can never work for the kinds of its values (types.h): an operation on operands of the
// wrong kind, then a key given the wrong kind; at most one error per expression.
void Loader::kinds() {
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
    const bool noEvent = std::any_of(eventless.begin(), eventless.end(), [&](const std::string& p) { return site.path.rfind(p, 0) == 0; });
    for (int n = site.first; n < site.end && bad.first < 0; n++) {
      N op = d.nodes.nodes[n].op;
      const bool target = op == N::Target || op == N::Targets;
      if ((op == N::Item || op == N::Candidate || target) && !t.bound(n))
        bad = {n, op == N::Item ? "$item is only given in a mutation with for_each (the current element)"
                  : target      ? "$target is only given where targets are chosen (an action, mode, reaction or "
                                  "triggered action with requires_target)"
                                : "$candidate is only given in a filter or .where(...) (the value tested)"};
      else if (target && (site.path + "/").rfind("/requires_target/") != std::string::npos)
        bad = {n, "$target is not chosen yet in a requires_target (test each value with $candidate)"};
      else if ((op == N::Event || op == N::EventField) && noEvent)
        bad = {n, "$event is always null here: only reactions, triggered actions, on_enter and answering actions have one"};
    }
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
// reads null for ever ($entity.self.controller.opponent), and $entity.<type> of a type no
// template has is empty for ever: a typo or a missing declaration. (And $entity.self where
// there is none.)
void Loader::unknownMembers() {
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
  std::set<int> types;  // (and the types of entity no template has: $entity.<type>)
  std::vector<std::string> typeNames;
  for (const Template& t : d.templates)
    if (types.insert(t.typeSym).second) typeNames.push_back(d.syms.names[t.typeSym]);
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
      if (nd.op == N::EOfType && !types.count(nd.imm)) {
        const std::string& type = d.syms.names[nd.imm];
        error(site.path, "expression error at column " + at + ": no entity template has type '" + type + "'" +
                             didYouMean(type, typeNames) + " ($entity.<type> lists the entities of a declared type)");
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

}  // namespace loader
}  // namespace rulestack
