// Reading a definition's keys: that an object has only the keys its place allows (keys.h),
// strings, booleans, whole numbers in a range, values (a literal or an expression), property
// defaults, and the names of properties, zones and templates. Each error says what it found.
#include "loader_impl.h"

#include <algorithm>

#include "keys.h"

namespace rulestack {
namespace loader {

namespace {

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

}  // namespace

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

// Checks that j is an object with only the allowed keys (and the required ones).
bool Loader::object(const json& j, const std::string& path, const std::vector<std::string>& allowed, const std::vector<std::string>& required) {
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

bool Loader::object(const json& j, const std::string& path, const std::string& context) {
  const KeySet& k = keysOf(context);
  return object(j, path, k.allowed, k.required);
}

bool Loader::list(const json& j, const std::string& path) {
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

bool Loader::str(const json& j, const std::string& path, std::string& out) {
  if (!j.is_string()) {
    error(path, "expected a string, found " + typeName(j));
    return false;
  }
  out = j.get<std::string>();
  return true;
}

bool Loader::boolean(const json& j, const std::string& path, bool& out) {
  if (!j.is_boolean()) {
    error(path, "expected true or false, found " + typeName(j));
    return false;
  }
  out = j.get<bool>();
  return true;
}

bool Loader::integer(const json& j, const std::string& path, int& out, long long lo, long long hi) {
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
Expr Loader::value(const json& j, const std::string& path, bool cond) {
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

int Loader::propIndex(const std::string& name) {
  int sym = d.syms.intern(name);
  if ((int)d.propOfSym.size() <= sym) d.propOfSym.resize(sym + 1, -1);
  if (d.propOfSym[sym] < 0) {
    d.propOfSym[sym] = (int)d.propNames.size();
    d.propNames.push_back(name);
    d.numProps = d.propNames.size();
  }
  return d.propOfSym[sym];
}

bool Loader::slotLiteral(const json& j, const std::string& path, Slot& out) {
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

void Loader::properties(const json& j, const std::string& path, std::vector<std::pair<int, Slot>>& out) {
  if (!j.is_object()) { error(path, "expected an object of property: default value, found " + typeName(j)); return; }
  for (auto it = j.begin(); it != j.end(); ++it) {
    // (id, owner, controller and zone stay the built-ins: a property of that name is never read)
    for (const char* b : {"type", "template", "tags", "host", "index"})
      if (it.key() == b)
        warn(path + "/" + jsonPointerEscape(it.key()), "property '" + it.key() + "' hides the built-in member '" + it.key() +
                 "' of every entity: ." + it.key() + " reads this property, null where a template does not declare it (rename it)");
    Slot s;
    if (slotLiteral(it.value(), path + "/" + jsonPointerEscape(it.key()), s)) out.push_back({propIndex(it.key()), s});
  }
}

// A property a mutation sets: declared by a template or the players, or else declared
// here (default null), as spec 002's IronArmor reads an `is_equipped` nobody declares.
int Loader::mutationProp(const json& j, const std::string& path) {
  std::string name;
  if (!str(j, path, name)) return -1;
  if (name.empty()) { error(path, "a property name cannot be empty"); return -1; }
  return propIndex(name);
}

int Loader::knownProp(const json& j, const std::string& path) {
  std::string name;
  if (!str(j, path, name)) return -1;
  int sym = d.syms.find(name);
  int p = d.prop(sym);
  if (p < 0) error(path, "unknown property '" + name + "'" + didYouMean(name, d.propNames) +
                             ": declare it in players.properties or an entity's properties");
  return p;
}

// The index of the name j gives among those `index` holds; else an error with the nearest.
int Loader::declared(const json& j, const std::string& path, const NameIndex& index, const char* what) {
  std::string name;
  if (!str(j, path, name)) return -1;
  int i = index.find(name);
  if (i < 0) {
    std::vector<std::string> names;
    for (auto& kv : index.entries()) names.push_back(kv.first);
    error(path, std::string("unknown ") + what + " '" + name + "'" + didYouMean(name, names));
  }
  return i;
}

int Loader::zoneName(const json& j, const std::string& path, bool perPlayerOnly) {
  int z = declared(j, path, zoneByName, "zone");
  if (z >= 0 && perPlayerOnly && !d.zones[z].perPlayer) {
    error(path, "zone '" + d.zones[z].name + "' must be per_player (each card goes to its owner's)");
    return -1;
  }
  return z;
}

int Loader::templateName(const json& j, const std::string& path) { return declared(j, path, tmplByName, "entity template"); }

}  // namespace loader
}  // namespace rulestack
