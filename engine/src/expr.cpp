// The expression parser: a recursive-descent parser over expr_lex.h's tokens that emits
// nodes directly.
#include "rulestack/expr.h"

#include <algorithm>
#include <cstdlib>

#include "expr_lex.h"
#include "json.h"  // stableSort
#include "names.h"

namespace rulestack {
namespace {

using lexing::Tok;

constexpr int kMaxDepth = 64;
constexpr size_t kMaxLength = 4096;

// Reads the tokens (expr_lex.h) and emits each node as it goes, children before parents.
struct Parser : lexing::Lexer {
  Nodes& out;
  const CompileEnv& env;
  int depth = 0;

  Parser(const std::string& s, Nodes& o, const CompileEnv& e) : Lexer(s), out(o), env(e) {}

  bool isOp(const char* s) const { return tok.k == Tok::Op && tok.s == s; }
  bool isWord(const char* s) const { return tok.k == Tok::Ident && tok.s == s; }

  // col: where the node is in the text (an operator's own column; by default the token's)
  int emit(N op, int a = -1, int b = -1, int imm = 0, int col = -1) {
    out.nodes.push_back(Node{op, a, b, imm});
    out.cols.push_back(col >= 0 ? col : tok.col);
    return (int)out.nodes.size() - 1;
  }
  int constant(uint8_t kind, int v) {
    out.consts.push_back(ConstVal{kind, v});
    return emit(N::Const, -1, -1, (int)out.consts.size() - 1);
  }

  void expect(const char* s) {
    if (!isOp(s)) fail(tok.col, std::string("expected '") + s + "'" + found());
    else next();
  }
  std::string found() const {
    if (tok.k == Tok::End) return " but the expression ended";
    return " but found '" + tok.s + "'";
  }

  int parseExpr() {
    if (++depth > kMaxDepth) { fail(tok.col, "expression nested too deeply"); return constant(0, 0); }
    int r = parseOr();
    depth--;
    return r;
  }
  int parseOr() {
    int l = parseAnd();
    while (isWord("or") || isOp("||")) { int c = tok.col; next(); l = emit(N::Or, l, parseAnd(), 0, c); }
    return l;
  }
  int parseAnd() {
    int l = parseNot();
    while (isWord("and") || isOp("&&")) { int c = tok.col; next(); l = emit(N::And, l, parseNot(), 0, c); }
    return l;
  }
  int parseNot() {
    if (isWord("not") || isOp("!")) {
      int c = tok.col;
      next();
      if (++depth > kMaxDepth) { fail(tok.col, "expression nested too deeply"); return constant(0, 0); }
      int r = emit(N::Not, parseNot(), -1, 0, c);
      depth--;
      return r;
    }
    return parseCmp();
  }
  int parseCmp() {
    int l = parseSum();
    static const std::pair<const char*, N> ops[] = {
        {"==", N::Eq}, {"!=", N::Ne}, {"<=", N::Le}, {">=", N::Ge}, {"<", N::Lt}, {">", N::Gt}};
    for (auto& o : ops)
      if (isOp(o.first)) { int c = tok.col; next(); return emit(o.second, l, parseSum(), 0, c); }
    return l;
  }
  int parseSum() {
    int l = parseProduct();
    while (isOp("+") || isOp("-")) {
      N op = tok.s == "+" ? N::Add : N::Sub;
      int c = tok.col;
      next();
      l = emit(op, l, parseProduct(), 0, c);
    }
    return l;
  }
  int parseProduct() {
    int l = parseUnary();
    while (isOp("*") || isOp("/") || isOp("%")) {
      N op = tok.s == "*" ? N::Mul : tok.s == "/" ? N::Div : N::Mod;
      int c = tok.col;
      next();
      l = emit(op, l, parseUnary(), 0, c);
    }
    return l;
  }
  int parseUnary() {
    if (isOp("-")) {
      int c = tok.col;
      next();
      if (++depth > kMaxDepth) { fail(tok.col, "expression nested too deeply"); return constant(0, 0); }
      int r = emit(N::Neg, parseUnary(), -1, 0, c);
      depth--;
      return r;
    }
    return parsePostfix(parsePrimary());
  }

  int zoneDef(const std::string& name, int col) {
    int z = env.zoneByName->find(name);
    if (z < 0) {
      fail(col, "unknown zone '" + name + "'" + nearestZone(name));
      return 0;
    }
    return z;
  }
  std::string nearestZone(const std::string& name) const;

  int parsePostfix(int l) {
    for (;;) {
      if (failed) return l;
      if (isOp(".")) {
        next();
        int col = tok.col;
        if (tok.k != Tok::Ident) { fail(col, "expected a member name after '.'" + found()); return l; }
        std::string m = tok.s;
        next();
        if (m[0] == '@') { fail(col, "'" + m + "' names a zone: write .zone." + m); return l; }
        if (m == "zone" && isOp(".")) {
          // player.zone.@Name
          size_t save = pos; Tok saveTok = tok;
          next();
          if (tok.k == Tok::Ident && tok.s[0] == '@') {
            int zcol = tok.col;
            std::string zn = tok.s.substr(1);
            next();
            l = emit(N::ZoneOf, l, -1, zoneDef(zn, zcol), col);
            continue;
          }
          pos = save; tok = saveTok;
        }
        if (isOp("(")) {
          next();
          if (m == "contains") {
            int arg = parseExpr(); expect(")");
            l = emit(N::Contains, l, arg, 0, col);
          } else if (m == "where") {
            int arg = parseExpr(); expect(")");
            l = emit(N::Where, l, arg, 0, col);
          } else {
            fail(col, "unknown method '" + m + "' (methods: contains, where)");
            return l;
          }
          continue;
        }
        if (m == "size" || m == "count") { l = emit(N::Size, l, -1, 0, col); continue; }
        l = emit(N::Member, l, -1, env.syms->intern(m), col);
      } else if (isOp("[")) {
        int c = tok.col;
        next();
        int idx = parseExpr();
        expect("]");
        // $players[i]: the i-th player directly, without building the list
        if (out.nodes[l].op == N::PAll && out.nodes[l].imm == 1) { out.nodes[l] = Node{N::PIndex, idx, -1, 0}; continue; }
        l = emit(N::Index, l, idx, 0, c);
      } else {
        return l;
      }
    }
  }

  int parseRef() {
    int col = tok.col;
    std::string r = tok.s;
    next();
    auto member = [&](std::string& m, int& mcol) -> bool {
      if (!isOp(".")) return false;
      next();
      mcol = tok.col;
      if (tok.k != Tok::Ident) { fail(mcol, "expected a name after '" + r + ".'" + found()); return false; }
      m = tok.s;
      next();
      return true;
    };
    std::string m;
    int mcol = col;
    if (r == "$player") {
      if (!member(m, mcol)) { if (!failed) fail(col, "$player needs a member: current, active, opponent, priority or all"); return constant(0, 0); }
      if (m == "current") return emit(N::PCurrent, -1, -1, 0, col);
      if (m == "active") return emit(N::PActive, -1, -1, 0, col);
      if (m == "opponent") return emit(N::POpponent, -1, -1, 0, col);
      if (m == "priority") return emit(N::PPriority, -1, -1, 0, col);
      if (m == "all") return emit(N::PAll, -1, -1, 0, col);
      fail(mcol, "unknown $player member '" + m + "' (current, active, opponent, priority, all)");
      return constant(0, 0);
    }
    if (r == "$players") return emit(N::PAll, -1, -1, 1, col);  // imm 1: declaration order
    if (r == "$entity") {
      if (!member(m, mcol)) { if (!failed) fail(col, "$entity needs a member: self, selected, all or a type"); return constant(0, 0); }
      if (m == "self") return emit(N::ESelf, -1, -1, 0, col);
      if (m == "selected") return emit(N::ESelected, -1, -1, 0, col);
      if (m == "all") return emit(N::EAll, -1, -1, 0, col);
      return emit(N::EOfType, -1, -1, env.syms->intern(m), col);
    }
    if (r == "$target") return emit(N::Target, -1, -1, 0, col);
    if (r == "$targets") return emit(N::Targets, -1, -1, 0, col);
    if (r == "$candidate") return emit(N::Candidate, -1, -1, 0, col);
    if (r == "$item") return emit(N::Item, -1, -1, 0, col);
    if (r == "$x") return emit(N::X, -1, -1, 0, col);
    if (r == "$mode") return emit(N::Mode, -1, -1, 0, col);
    if (r == "$turn") return emit(N::Turn, -1, -1, 0, col);
    if (r == "$phase") return emit(N::PhaseName, -1, -1, 0, col);
    if (r == "$zone") {
      if (!isOp(".")) { fail(col, "$zone needs a zone name: $zone.@Name"); return constant(0, 0); }
      next();
      if (tok.k != Tok::Ident || tok.s[0] != '@') { fail(tok.col, "expected @ZoneName after '$zone.'" + found()); return constant(0, 0); }
      int zcol = tok.col;
      std::string zn = tok.s.substr(1);
      next();
      return emit(N::ZoneNamed, -1, -1, zoneDef(zn, zcol));
    }
    if (r == "$queue") {
      if (!member(m, mcol)) { if (!failed) fail(col, "$queue needs a member: size, top or items"); return constant(0, 0); }
      if (m == "size") return emit(N::QueueSize, -1, -1, 0, col);
      if (m == "top") return emit(N::QueueTop, -1, -1, 0, col);
      if (m == "items") return emit(N::QueueItems, -1, -1, 0, col);
      fail(mcol, "unknown $queue member '" + m + "' (size, top, items)");
      return constant(0, 0);
    }
    if (r == "$event") {
      if (!isOp(".")) return emit(N::Event, -1, -1, 0, col);
      member(m, mcol);
      if (m.size() > 1 && m[0] == '$') m = m.substr(1);
      static const std::pair<const char*, EvField> fields[] = {
          {"action", EvField::Action}, {"player", EvField::Player}, {"entity", EvField::Entity},
          {"zone", EvField::Zone}, {"from", EvField::From}, {"damage_value", EvField::DamageValue},
          {"source", EvField::Source}, {"phase", EvField::Phase}, {"winner", EvField::Winner},
          {"turn", EvField::Turn}};
      for (auto& f : fields)
        if (m == f.first) return emit(N::EventField, -1, -1, (int)f.second, col);
      fail(mcol, "unknown event field '" + m +
                     "' (action, player, entity, zone, from, damage_value, source, phase, winner, turn)");
      return constant(0, 0);
    }
    fail(col, "unknown reference '" + r +
                  "' (known: $player, $players, $entity, $target, $targets, $candidate, $zone, $event, "
                  "$queue, $x, $mode, $turn, $phase, $item)");
    return constant(0, 0);
  }

  int parsePrimary() {
    if (failed) return constant(0, 0);
    switch (tok.k) {
      case Tok::Num: { int v = (int)tok.num; next(); return constant(1, v); }
      case Tok::Str: { int s = env.syms->intern(tok.s); next(); return constant(3, s); }
      case Tok::Ref: return parseRef();
      case Tok::Ident: {
        int col = tok.col;
        std::string w = tok.s;
        next();
        if (w == "true") return constant(2, 1);
        if (w == "false") return constant(2, 0);
        if (w == "null") return constant(0, 0);
        if (isOp("(")) {
          next();
          std::vector<int> args;
          if (!isOp(")")) {
            args.push_back(parseExpr());
            while (isOp(",")) { next(); args.push_back(parseExpr()); }
          }
          expect(")");
          auto arity = [&](size_t n) {
            if (args.size() != n) fail(col, w + "() takes " + std::to_string(n) + " argument" + (n == 1 ? "" : "s") + ", got " + std::to_string(args.size()));
            while (args.size() < n) args.push_back(constant(0, 0));
          };
          if (w == "min") { arity(2); return emit(N::Min, args[0], args[1]); }
          if (w == "max") { arity(2); return emit(N::Max, args[0], args[1]); }
          if (w == "abs") { arity(1); return emit(N::Abs, args[0]); }
          if (w == "count") { arity(1); return emit(N::Count, args[0]); }
          if (w == "sum") {
            arity(2);
            const Node& p = out.nodes[args[1]];
            if (p.op != N::Const || out.consts[p.imm].kind != 3) {
              fail(col, "sum() takes a property name as a string: sum(list, 'attack')");
              return constant(0, 0);
            }
            return emit(N::Sum, args[0], -1, out.consts[p.imm].v);
          }
          fail(col, "unknown function '" + w + "' (min, max, abs, count, sum)");
          return constant(0, 0);
        }
        fail(col, "unexpected name '" + w + "': references start with '$', strings are quoted");
        return constant(0, 0);
      }
      case Tok::Op:
        if (isOp("(")) {
          next();
          int e = parseExpr();
          expect(")");
          return e;
        }
        fail(tok.col, "unexpected '" + tok.s + "'");
        return constant(0, 0);
      case Tok::End:
        fail(tok.col, "the expression ended where a value was expected");
        return constant(0, 0);
    }
    return constant(0, 0);
  }
};

std::string Parser::nearestZone(const std::string& name) const {
  std::vector<std::string> names;
  for (auto& kv : env.zoneByName->entries()) names.push_back(kv.first);
  stableSort(names, std::less<>());
  return didYouMean(name, names);
}

}  // namespace

bool compileExpr(const std::string& text, Nodes& out, const CompileEnv& env, Expr& result,
                 CompileError& err) {
  if (text.size() > kMaxLength) {
    err = {1, "expression longer than " + std::to_string(kMaxLength) + " characters"};
    return false;
  }
  size_t mark = out.nodes.size(), cmark = out.consts.size();
  Parser p(text, out, env);
  p.next();
  int root = p.parseExpr();
  if (!p.failed && p.tok.k != Tok::End) p.fail(p.tok.col, "unexpected '" + p.tok.s + "' after the end of the expression");
  if (p.failed) {
    out.nodes.resize(mark);
    out.cols.resize(mark);
    out.consts.resize(cmark);
    err = p.err;
    return false;
  }
  result.root = root;
  return true;
}

Expr constExpr(Nodes& out, uint8_t kind, int32_t v) {
  out.consts.push_back(ConstVal{kind, v});
  out.nodes.push_back(Node{N::Const, -1, -1, (int)out.consts.size() - 1});
  out.cols.push_back(1);
  return Expr{(int)out.nodes.size() - 1};
}

}  // namespace rulestack
