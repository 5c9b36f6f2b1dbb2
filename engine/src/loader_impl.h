// The definition loader: one state (what has been declared so far, and what is left to check
// once everything is) and its steps, declared here and defined by concern:
//   loader.cpp           the entry points (loader.h) and the definition's sections, in the
//                        order they are read: each may name what an earlier one declared
//   loader_read.cpp      reading keys: an object's keys, strings, numbers, values, names
//   loader_rules.cpp     the parts of the rules: mutations, targets, triggers, actions,
//                        reactions, triggered actions, effects
//   loader_checks.cpp    the checks over every expression once all is declared: kinds, members
//   loader_analysis.cpp  what the engine derives from a sound definition to run it fast
// Every step collects its errors (with JSON pointers) and goes on: a definition's errors are
// reported all at once. Private to the loader's files.
#pragma once
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "loader.h"
#include "names.h"
#include "types.h"

namespace rulestack {
namespace loader {

using json = Json;

// How an error names a JSON value's kind: "a list", "a string"...
std::string typeName(const json& j);

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
  // Where no event is ever answered: $event reads null there for ever.
  std::vector<std::string> eventless = {"/setup/", "/end_conditions/"};

  Loader(Def& def, std::vector<DefError>& e) : d(def), errs(e) {}

  void error(const std::string& path, const std::string& msg) { errs.push_back({path, msg}); }
  void warn(const std::string& path, const std::string& msg) { d.warnings.push_back({path, msg}); }
  CompileEnv env() { return CompileEnv{&d.syms, &zoneByName}; }

  // ---- the definition's sections (loader.cpp)
  void load(const json& j);
  void builtins();
  void players(const json& p);
  void zones(const json& j);
  void templates(const json& ents);
  void collectActionNames(const json& j, const json* ents);
  void settings(const json& s);
  void parts(const json& j, const json* ents);
  void flow(const json& f);
  void endConditions(const json& es);

  // ---- reading keys (loader_read.cpp)
  bool object(const json& j, const std::string& path, const std::vector<std::string>& allowed,
              const std::vector<std::string>& required = {});
  bool object(const json& j, const std::string& path, const std::string& context);
  bool list(const json& j, const std::string& path);
  bool str(const json& j, const std::string& path, std::string& out);
  bool boolean(const json& j, const std::string& path, bool& out);
  bool integer(const json& j, const std::string& path, int& out, long long lo, long long hi);
  Expr value(const json& j, const std::string& path, bool cond = false);
  int propIndex(const std::string& name);
  bool slotLiteral(const json& j, const std::string& path, Slot& out);
  void properties(const json& j, const std::string& path, std::vector<std::pair<int, Slot>>& out);
  int mutationProp(const json& j, const std::string& path);
  int knownProp(const json& j, const std::string& path);
  int declared(const json& j, const std::string& path, const NameIndex& index, const char* what);
  int zoneName(const json& j, const std::string& path, bool perPlayerOnly);
  int templateName(const json& j, const std::string& path);

  // ---- the parts of the rules (loader_rules.cpp)
  // What else an id would name (a move names its targets by id), or "": an entity's given id,
  // a player's, a zone's name
  enum class IdKind { Entity, Player, Zone };
  std::string idClash(const std::string& id, IdKind kind) const;
  void namesApart(const json& j);
  void mutation(const json& j, const std::string& path, Mutation& m);
  void mutations(const json& j, const std::string& path, std::vector<Mutation>& out);
  void targetSpec(const json& j, const std::string& path, TargetSpec& t);
  Expr want(Expr e, const std::string& path, Want w);
  void scope(const std::string& path, const Expr& from, bool expand);
  void actionListsRead(const std::string& actionPath, int from, bool expand);
  bool trigger(const json& j, const std::string& path, bool& before, Ev& ev, int& named);
  void reaction(const json& j, const std::string& path, int tmpl, int action);
  void action(const json& j, const std::string& path, int tmpl);
  void triggered(const json& j, const std::string& path, int tmpl);
  void effect(const json& j, const std::string& path, int tmpl);

  // ---- the checks once everything is declared (loader_checks.cpp)
  void kinds();
  void unknownMembers();

  // ---- what the engine derives (loader_analysis.cpp)
  void propertyMembers();
  void analyse();
  int requiredZone(int n);
  int sourceZoneTest(int n);
  bool selfSafe(int n, bool safe);
  void conjuncts(int n, std::vector<int>& out);
  Expr andOf(const std::vector<int>& parts, size_t from, size_t to);
  void splitCondition(Action& a);
  bool readsCurrentPlayer(int n);
  uint64_t propReads(int p) const;
  void endReads(int n, uint64_t& reads);
  void fuse();
};

}  // namespace loader
}  // namespace rulestack
