// The expression language's tokens, read one at a time: whole numbers, strings, names, $references
// and operators, each with its column (an error says where). Private to expr.cpp.
#pragma once
#include <string>

#include "rulestack/expr.h"

namespace rulestack {
namespace lexing {

struct Tok {
  enum K { End, Num, Str, Ident, Ref, Op } k = End;
  std::string s;
  long long num = 0;
  int col = 1;
};

// The text's tokens: next() reads the one after `tok`. The first error (of the text or of the
// parser reading it) is the one kept: it ends the expression.
struct Lexer {
  const std::string& src;
  size_t pos = 0;
  Tok tok;
  bool failed = false;
  CompileError err;

  explicit Lexer(const std::string& s) : src(s) {}
  void fail(int col, const std::string& msg) {
    if (!failed) { failed = true; err = {col, msg}; }
  }
  void next();
};

}  // namespace lexing
}  // namespace rulestack
