// Expressions: parsed and compiled once at load into a flat node array; evaluated by a
// switch over node codes (no virtual calls, no strings, no allocation at run time).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace rulestack {

// Names to numbers, for the names a definition declares (names.cpp): open addressing over
// the entries in the order they came (a std::unordered_map brings about 2 KB of wasm).
class NameIndex {
 public:
  int find(const std::string& s) const;  // -1: absent
  bool count(const std::string& s) const { return find(s) >= 0; }
  void set(const std::string& s, int value);  // adds s, or gives it a new value
  const std::vector<std::pair<std::string, int>>& entries() const { return entries_; }

 private:
  size_t slot(const std::string& s) const;  // where s is, or the free slot it would take
  std::vector<std::pair<std::string, int>> entries_;
  std::vector<int32_t> slots_;  // an entry's index + 1 (0: free); a power of two, at most half full
};

// Interned names: every identifier and string literal becomes an int once, at load.
struct Symbols {
  NameIndex ids;
  std::vector<std::string> names;
  int intern(const std::string& s) {
    int id = ids.find(s);
    if (id >= 0) return id;
    id = (int)names.size();
    ids.set(s, id);
    names.push_back(s);
    return id;
  }
  int find(const std::string& s) const { return ids.find(s); }
};

enum class N : uint8_t {
  Const,                   // imm: index into Nodes::consts
  PCurrent, PActive, POpponent, PPriority, PAll, PIndex,  // PIndex: a = index expr
  ESelf, ESelected, EOfType /*imm type sym*/, EAll,
  Target, Targets, Candidate, Item, X, Mode, Turn, PhaseName,
  ZoneNamed,               // imm: zone def; the context player's instance
  ZoneOf,                  // a: player expr, imm: zone def
  Event,                   // the event as a whole (for Cancel)
  EventField,              // imm: field code (EvField)
  QueueSize, QueueTop, QueueItems,
  Member,                  // a: object, imm: member symbol
  Prop,                    // a: object, imm: property index, b: member symbol (set at load for declared properties)
  Index,                   // a[b]
  Contains, Where, Size,   // a.contains(b), a.where(b), a.size
  Add, Sub, Mul, Div, Mod, Neg,
  Eq, Ne, Lt, Le, Gt, Ge, And, Or, Not,
  Min, Max, Abs, Count, Sum /* a list, imm prop symbol */,
  // fused forms of common shapes, made at load (same results, fewer nodes):
  SelfProp,                // $entity.self/selected.<prop>: a 0 self / 1 selected, imm prop
  PlayerProp,              // $player.current/active/opponent.<prop>: a 0/1/2; $players[k].<prop>: a 3+k; imm prop
  SelfInZone,              // $entity.self/selected.zone == $zone.@Z: a 0/1, imm zone def
  SamePlayer,              // two players compared (== when imm 0, != when 1): a, b as PlayerProp's a
  EqConst, NeConst, LtConst, LeConst, GtConst, GeConst,  // a <op> imm (an integer literal)
  // A part of an action's condition that reads nothing of the move and loops (over entities,
  // a list...): a the part, imm its slot (Def::numHoisted). Evaluated once per enumeration,
  // not once per source (Def::hoistInvariants, Game::evalCold).
  Hoisted
};

enum class EvField : uint8_t { Action, Player, Entity, Zone, From, DamageValue, Source, Phase, Winner, Turn, Count };

struct Node {
  N op;
  int32_t a = -1, b = -1;
  int32_t imm = 0;
};

struct Value;

struct Expr;

struct Nodes {
  std::vector<Node> nodes;
  std::vector<struct ConstVal> consts;
  std::vector<int32_t> cols;  // each node's column in its expression's text (load-time errors only)
  // e is one player or entity ($player.current, $entity.self, ...): never a list
  bool singleValued(const Expr& e) const;
};

struct ConstVal { uint8_t kind; int32_t v; };  // kind: 0 null, 1 int, 2 bool, 3 str
inline int32_t constInt(const ConstVal& cv) { return cv.kind == 1 ? cv.v : cv.kind == 2 ? (cv.v != 0) : 0; }  // as a number

// A compiled expression: the index of its root node (-1: absent).
struct Expr {
  int root = -1;
  bool present() const { return root >= 0; }
};

inline bool Nodes::singleValued(const Expr& e) const {
  switch (nodes[e.root].op) {
    case N::PCurrent: case N::PActive: case N::POpponent: case N::ESelf: case N::ESelected: return true;
    default: return false;
  }
}

// What the compiler needs to know about the game being loaded.
struct CompileEnv {
  Symbols* syms;
  // zone name -> zone def index, or -1
  const NameIndex* zoneByName;
};

struct CompileError {
  int column;  // 1-based
  std::string message;
};

// Compiles expression text. On error returns false and fills err.
bool compileExpr(const std::string& text, Nodes& out, const CompileEnv& env, Expr& result,
                 CompileError& err);
// A literal (number/bool/string) as an expression.
Expr constExpr(Nodes& out, uint8_t kind, int32_t v);

}  // namespace rulestack
