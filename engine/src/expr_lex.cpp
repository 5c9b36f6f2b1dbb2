// Reading an expression's text into tokens (expr_lex.h).
#include "expr_lex.h"

#include <cctype>
#include <cstdint>

namespace rulestack {
namespace lexing {

void Lexer::next() {
  while (pos < src.size() && std::isspace((unsigned char)src[pos])) pos++;
  tok = Tok{};
  tok.col = (int)pos + 1;
  if (pos >= src.size()) return;
  char c = src[pos];
  if (std::isdigit((unsigned char)c)) {
    size_t st = pos;
    while (pos < src.size() && std::isdigit((unsigned char)src[pos])) pos++;
    tok.k = Tok::Num;
    tok.s = src.substr(st, pos - st);
    // whole numbers only: say so, rather than read 1.5 as a member of 1 or 1e3 as 1 and a name
    bool fraction = pos + 1 < src.size() && src[pos] == '.' && std::isdigit((unsigned char)src[pos + 1]);
    bool exponent = pos + 1 < src.size() && (src[pos] == 'e' || src[pos] == 'E') &&
                    (std::isdigit((unsigned char)src[pos + 1]) || src[pos + 1] == '+' || src[pos + 1] == '-');
    if (fraction || exponent) {
      size_t end = pos + 1 + (src[pos + 1] == '+' || src[pos + 1] == '-');
      while (end < src.size() && std::isdigit((unsigned char)src[end])) end++;
      std::string text = "'" + src.substr(st, end - st) + "'";
      fail(tok.col, fraction ? "numbers are whole numbers: " + text + " has a fraction part"
                             : "numbers are written out in digits: " + text + " has an exponent");
      tok.num = 0;
    } else {
      int64_t v = 0;
      for (size_t i = 0; i < tok.s.size() && v <= INT32_MAX; i++) v = v * 10 + (tok.s[i] - '0');
      if (v > INT32_MAX) fail(tok.col, "number too large (at most 2147483647)");
      tok.num = v > INT32_MAX ? 0 : v;
    }
    return;
  }
  if (c == '\'' || c == '"') {
    size_t st = ++pos;
    while (pos < src.size() && src[pos] != c) pos++;
    if (pos >= src.size()) { fail(tok.col, "unterminated string"); tok.k = Tok::End; return; }
    tok.k = Tok::Str;
    tok.s = src.substr(st, pos - st);
    pos++;
    return;
  }
  if (c == '$' || c == '@' || std::isalpha((unsigned char)c) || c == '_') {
    size_t st = pos;
    pos++;
    while (pos < src.size() && (std::isalnum((unsigned char)src[pos]) || src[pos] == '_')) pos++;
    tok.k = c == '$' ? Tok::Ref : Tok::Ident;
    tok.s = src.substr(st, pos - st);
    return;
  }
  static const char* two[] = {"==", "!=", "<=", ">=", "&&", "||"};
  for (const char* t : two) {
    if (src.compare(pos, 2, t) == 0) { tok.k = Tok::Op; tok.s = t; pos += 2; return; }
  }
  if (std::string("+-*/%<>().,[]!").find(c) != std::string::npos) {
    tok.k = Tok::Op; tok.s = std::string(1, c); pos++; return;
  }
  // the whole character, not its first byte: a message is always valid UTF-8
  size_t len = 1;
  while (pos + len < src.size() && len < 4 && ((unsigned char)src[pos + len] & 0xC0) == 0x80) len++;
  if ((unsigned char)c < 0x80) len = 1;
  fail(tok.col, "unexpected character '" + src.substr(pos, len) + "'" + (c == '=' ? " (compare with ==)" : ""));
  tok.k = Tok::End;
}

}  // namespace lexing
}  // namespace rulestack
