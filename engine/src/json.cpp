#include "json.h"

#include "decimal.h"
#include "names.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <utility>

namespace rulestack {

namespace {

const Json kNull;

// Björn Höhrmann's UTF-8 decoder (as nlohmann::json's serializer: the same bytes replaced).
constexpr uint8_t kAccept = 0, kReject = 1;
const uint8_t kUtf8[400] = {
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  // 00..1F
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  // 20..3F
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  // 40..5F
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  // 60..7F
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9,  // 80..9F
    7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7,  // A0..BF
    8, 8, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,  // C0..DF
    0xA, 0x3, 0x3, 0x3, 0x3, 0x3, 0x3, 0x3, 0x3, 0x3, 0x3, 0x3, 0x3, 0x4, 0x3, 0x3,                  // E0..EF
    0xB, 0x6, 0x6, 0x6, 0x5, 0x8, 0x8, 0x8, 0x8, 0x8, 0x8, 0x8, 0x8, 0x8, 0x8, 0x8,                  // F0..FF
    0x0, 0x1, 0x2, 0x3, 0x5, 0x8, 0x7, 0x1, 0x1, 0x1, 0x4, 0x6, 0x1, 0x1, 0x1, 0x1,                  // s0..s0
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 0, 1, 0, 1, 1, 1, 1, 1, 1,  // s1..s2
    1, 2, 1, 1, 1, 1, 1, 2, 1, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 1, 1, 1, 1, 1, 1, 1, 1,  // s3..s4
    1, 2, 1, 1, 1, 1, 1, 1, 1, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 3, 1, 3, 1, 1, 1, 1, 1, 1,  // s5..s6
    1, 3, 1, 1, 1, 1, 1, 3, 1, 3, 1, 1, 1, 1, 1, 1, 1, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,  // s7..s8
};
uint8_t decodeUtf8(uint8_t& state, uint32_t& cp, uint8_t byte) {
  uint8_t type = kUtf8[byte];
  cp = state != kAccept ? (byte & 0x3fu) | (cp << 6u) : (0xFFu >> type) & byte;
  state = kUtf8[256u + state * 16u + type];
  return state;
}

void appendUtf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out += (char)cp;
  } else if (cp < 0x800) {
    out += (char)(0xC0 | (cp >> 6));
    out += (char)(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += (char)(0xE0 | (cp >> 12));
    out += (char)(0x80 | ((cp >> 6) & 0x3F));
    out += (char)(0x80 | (cp & 0x3F));
  } else {
    out += (char)(0xF0 | (cp >> 18));
    out += (char)(0x80 | ((cp >> 12) & 0x3F));
    out += (char)(0x80 | ((cp >> 6) & 0x3F));
    out += (char)(0x80 | (cp & 0x3F));
  }
}

// A double as nlohmann::json writes it: the shortest digits that read back the same, as
// d.ddd or 0.000ddd or d.ddde+XX (exponents from -4 to 15 written out), always with a '.'
// or an exponent.
void appendDouble(std::string& out, double v) {
  if (!std::isfinite(v)) {
    out += "null";
    return;
  }
  if (std::signbit(v)) {
    out += '-';
    v = -v;
  }
  if (v == 0) {
    out += "0.0";
    return;
  }
  std::string digits;
  const int n = shortestDecimal(v, digits);  // v = 0.digits * 10^n
  const int k = (int)digits.size();
  if (k <= n && n <= 15) {
    out += digits;
    out.append((size_t)(n - k), '0');
    out += ".0";
  } else if (0 < n && n <= 15) {
    out.append(digits, 0, (size_t)n);
    out += '.';
    out.append(digits, (size_t)n, std::string::npos);
  } else if (-4 < n && n <= 0) {
    out += "0.";
    out.append((size_t)(-n), '0');
    out += digits;
  } else {
    out += digits[0];
    if (k > 1) {
      out += '.';
      out.append(digits, 1, std::string::npos);
    }
    int e = n - 1;
    out += 'e';
    out += e < 0 ? '-' : '+';
    if (e < 0) e = -e;
    if (e < 10) out += '0';
    out += std::to_string(e);
  }
}

// n's decimal digits written backwards, ending at end: where they begin
char* digitsBefore(char* end, uint64_t n) {
  do {
    *--end = (char)('0' + n % 10);
    n /= 10;
  } while (n);
  return end;
}

}  // namespace

namespace {
// The length of s's first run of bytes written as they are.
size_t plainPrefix(std::string_view s) {
  size_t i = 0;
  while (i < s.size() && (uint8_t)s[i] >= 0x20 && (uint8_t)s[i] < 0x80 && s[i] != '"' && s[i] != '\\') i++;
  return i;
}
}  // namespace

bool plainJsonText(std::string_view s) { return plainPrefix(s) == s.size(); }

std::string cat(std::initializer_list<std::string_view> parts) {
  size_t n = 0;
  for (std::string_view p : parts) n += p.size();
  std::string out;
  out.reserve(n);
  for (std::string_view p : parts) out.append(p.data(), p.size());
  return out;
}

void appendJsonString(std::string& out, std::string_view s) {
  // printable ASCII but '"' and '\\' (ids, names, keys: nearly every string) is copied as is,
  // in one append
  const size_t plain = plainPrefix(s);
  out += '"';
  out.append(s.data(), plain);
  if (plain == s.size()) {
    out += '"';
    return;
  }
  uint32_t cp = 0;
  uint8_t state = kAccept;
  size_t lastAccept = out.size();  // out's length after the last whole code point
  size_t undumped = 0;             // bytes of an incomplete code point copied since
  for (size_t i = plain; i < s.size(); ++i) {
    uint8_t byte = (uint8_t)s[i];
    if (state == kAccept && byte >= 0x20 && byte < 0x80 && byte != '"' && byte != '\\') {
      out += (char)byte;  // (the common case)
      lastAccept = out.size();
      continue;
    }
    switch (decodeUtf8(state, cp, byte)) {
      case kAccept: {
        switch (cp) {
          case '\b': out += "\\b"; break;
          case '\t': out += "\\t"; break;
          case '\n': out += "\\n"; break;
          case '\f': out += "\\f"; break;
          case '\r': out += "\\r"; break;
          case '"': out += "\\\""; break;
          case '\\': out += "\\\\"; break;
          default:
            if (cp <= 0x1F) {
              out += "\\u00";
              out += "0123456789abcdef"[cp >> 4];
              out += "0123456789abcdef"[cp & 15];
            } else {
              out += (char)byte;
            }
        }
        lastAccept = out.size();
        undumped = 0;
        break;
      }
      case kReject:
        // the byte may start a code point of its own: read it again (as nlohmann::json does)
        if (undumped > 0) --i;
        out.resize(lastAccept);
        out += "\xEF\xBF\xBD";
        lastAccept = out.size();
        undumped = 0;
        state = kAccept;
        break;
      default:  // inside a multi-byte code point
        out += (char)byte;
        ++undumped;
    }
  }
  if (state != kAccept) {  // the text ends inside a code point
    out.resize(lastAccept);
    out += "\xEF\xBF\xBD";
  }
  out += '"';
}

std::vector<uint32_t> stableOrder(size_t n, bool (*less)(const void* ctx, size_t a, size_t b), const void* ctx) {
  std::vector<uint32_t> a(n), b(n);
  for (size_t i = 0; i < n; i++) a[i] = (uint32_t)i;
  for (size_t width = 1; width < n; width *= 2) {  // bottom-up: merge runs of `width`
    for (size_t lo = 0; lo < n; lo += 2 * width) {
      size_t mid = std::min(lo + width, n), hi = std::min(lo + 2 * width, n), i = lo, j = mid, k = lo;
      while (i < mid && j < hi) b[k++] = less(ctx, a[j], a[i]) ? a[j++] : a[i++];  // (the left one of equals first)
      while (i < mid) b[k++] = a[i++];
      while (j < hi) b[k++] = a[j++];
    }
    a.swap(b);
  }
  return a;
}

// ---------------------------------------------------------------------------- Json

const char* Json::type_name() const {
  switch (t_) {
    case value_t::null: return "null";
    case value_t::object: return "object";
    case value_t::array: return "array";
    case value_t::string: return "string";
    case value_t::boolean: return "boolean";
    case value_t::discarded: return "discarded";
    default: return "number";
  }
}

void Json::typeError(const char* want) const {
  throw exception(std::string("type must be ") + want + ", but is " + type_name());
}

size_t Json::size() const {
  switch (t_) {
    case value_t::null: return 0;
    case value_t::object: case value_t::array: return items_.size();
    default: return 1;
  }
}

const Json* Json::find(std::string_view key) const {
  if (!is_object()) return nullptr;
  auto it = std::lower_bound(keys_.begin(), keys_.end(), key, [](const std::string& a, std::string_view b) { return a < b; });
  if (it == keys_.end() || *it != key) return nullptr;
  return &items_[(size_t)(it - keys_.begin())];
}

const Json& Json::operator[](std::string_view key) const {
  if (!is_object()) throw exception(std::string("cannot use operator[] with a string argument with ") + type_name());
  const Json* v = find(key);
  return v ? *v : kNull;
}

const Json& Json::operator[](size_t i) const {
  if (!is_array()) throw exception(std::string("cannot use operator[] with a numeric argument with ") + type_name());
  return i < items_.size() ? items_[i] : kNull;
}

const Json& Json::at(std::string_view key) const {
  if (!is_object()) throw exception(std::string("cannot use at() with ") + type_name());
  const Json* v = find(key);
  if (!v) throw exception("key '" + std::string(key) + "' not found");
  return *v;
}

const Json& Json::at(size_t i) const {
  if (!is_array()) throw exception(std::string("cannot use at() with ") + type_name());
  if (i >= items_.size()) throw exception("array index " + std::to_string(i) + " is out of range");
  return items_[i];
}

const Json* Json::pointer(std::string_view ptr) const {
  const Json* j = this;
  if (ptr.empty()) return j;
  if (ptr[0] != '/') return nullptr;
  size_t pos = 1;
  for (;;) {
    size_t slash = ptr.find('/', pos);
    std::string_view raw = ptr.substr(pos, slash == std::string_view::npos ? std::string_view::npos : slash - pos);
    std::string token;
    for (size_t i = 0; i < raw.size(); i++) {
      if (raw[i] != '~') { token += raw[i]; continue; }
      if (i + 1 >= raw.size() || (raw[i + 1] != '0' && raw[i + 1] != '1')) return nullptr;
      token += raw[++i] == '0' ? '~' : '/';
    }
    if (j->is_object()) {
      j = j->find(token);
    } else if (j->is_array()) {
      // an index: digits, no leading zero
      if (token.empty() || token.size() > 9 || (token.size() > 1 && token[0] == '0') ||
          token.find_first_not_of("0123456789") != std::string::npos)
        return nullptr;
      size_t i = 0;
      for (char c : token) i = i * 10 + (size_t)(c - '0');
      j = i < j->items_.size() ? &j->items_[i] : nullptr;
    } else {
      return nullptr;
    }
    if (!j) return nullptr;
    if (slash == std::string_view::npos) return j;
    pos = slash + 1;
  }
}

Json Json::value(std::string_view key, const Json& def) const {
  if (!is_object()) throw exception(std::string("cannot use value() with ") + type_name());
  const Json* v = find(key);
  return v ? *v : def;
}

std::string Json::value(std::string_view key, const char* def) const {
  if (!is_object()) throw exception(std::string("cannot use value() with ") + type_name());
  const Json* v = find(key);
  return v ? v->get<std::string>() : std::string(def);
}

bool Json::value(std::string_view key, bool def) const {
  if (!is_object()) throw exception(std::string("cannot use value() with ") + type_name());
  const Json* v = find(key);
  return v ? v->get<bool>() : def;
}

int64_t Json::asSigned() const {
  switch (t_) {
    case value_t::number_integer: return n_.i;
    case value_t::number_unsigned: return (int64_t)n_.u;
    case value_t::number_float: return (int64_t)n_.d;
    case value_t::boolean: return n_.b;
    default: typeError("number");
  }
}

uint64_t Json::asUnsigned() const {
  switch (t_) {
    case value_t::number_integer: return (uint64_t)n_.i;
    case value_t::number_unsigned: return n_.u;
    case value_t::number_float: return (uint64_t)n_.d;
    case value_t::boolean: return n_.b;
    default: typeError("number");
  }
}

void Json::getTo(bool& out) const {
  if (!is_boolean()) typeError("boolean");
  out = n_.b;
}

void Json::getTo(std::string& out) const {
  if (!is_string()) typeError("string");
  out = s_;
}

void Json::getTo(double& out) const {
  switch (t_) {
    case value_t::number_integer: out = (double)n_.i; break;
    case value_t::number_unsigned: out = (double)n_.u; break;
    case value_t::number_float: out = n_.d; break;
    default: typeError("number");
  }
}

void Json::getTo(float& out) const {
  double d;
  getTo(d);
  out = (float)d;
}

bool operator==(const Json& a, const Json& b) {
  using V = Json::value_t;
  if (a.is_number() && b.is_number()) {  // across integer, unsigned and float, as nlohmann::json
    if (a.t_ == b.t_) return a.t_ == V::number_float ? a.n_.d == b.n_.d : a.n_.u == b.n_.u;
    if (a.t_ == V::number_float || b.t_ == V::number_float) return a.get<double>() == b.get<double>();
    const Json& s = a.t_ == V::number_integer ? a : b;  // signed against unsigned
    const Json& u = a.t_ == V::number_integer ? b : a;
    return s.n_.i >= 0 && (uint64_t)s.n_.i == u.n_.u;
  }
  if (a.t_ != b.t_ || a.t_ == V::discarded) return false;
  switch (a.t_) {
    case V::boolean: return a.n_.b == b.n_.b;
    case V::string: return a.s_ == b.s_;
    case V::array: return a.items_ == b.items_;
    case V::object: return a.keys_ == b.keys_ && a.items_ == b.items_;
    default: return true;  // null
  }
}

std::string Json::dump() const {
  JsonWriter w;
  w.value(*this);
  return w.take();
}

// ---------------------------------------------------------------------------- parsing

class JsonParser {
 public:
  JsonParser(const std::string& text) : begin_(text.data()), p_(text.data()), end_(text.data() + text.size()) {}

  Json document() {
    if (end_ - p_ >= 3 && std::memcmp(p_, "\xEF\xBB\xBF", 3) == 0) p_ += 3;  // a BOM
    Json j = value(0);
    skipSpace();
    if (p_ != end_) fail("syntax error: unexpected text after the value");
    return j;
  }

 private:
  static constexpr int kMaxDepth = 1000;  // (the callers refuse more than 200 levels before parsing)

  [[noreturn]] void fail(const std::string& what) {
    int line = 1, column = 0;
    for (const char* q = begin_; q < p_ && q < end_; q++) {
      if (*q == '\n') line++, column = 0;
      else column++;
    }
    throw Json::exception("parse error at line " + std::to_string(line) + ", column " + std::to_string(column + 1) + ": " + what);
  }

  void skipSpace() {
    while (p_ != end_ && (*p_ == ' ' || *p_ == '\t' || *p_ == '\n' || *p_ == '\r')) p_++;
  }

  void literal(const char* word) {
    size_t n = std::strlen(word);
    if ((size_t)(end_ - p_) < n || std::memcmp(p_, word, n) != 0) fail("syntax error: invalid literal");
    p_ += n;
  }

  Json value(int depth) {
    skipSpace();
    if (p_ == end_) fail("syntax error: unexpected end of input; expected a value");
    Json j;
    switch (*p_) {
      case '{': {
        if (depth >= kMaxDepth) fail("nested too deep");
        p_++;
        j.t_ = Json::value_t::object;
        std::vector<std::pair<std::string, Json>> members;
        skipSpace();
        if (p_ != end_ && *p_ == '}') {
          p_++;
          return j;
        }
        for (;;) {
          skipSpace();
          if (p_ == end_ || *p_ != '"') fail("syntax error: expected a string (an object key)");
          std::string k = string();
          skipSpace();
          if (p_ == end_ || *p_ != ':') fail("syntax error: expected ':'");
          p_++;
          members.emplace_back(std::move(k), value(depth + 1));
          skipSpace();
          if (p_ != end_ && *p_ == ',') { p_++; continue; }
          if (p_ != end_ && *p_ == '}') { p_++; break; }
          fail("syntax error: expected ',' or '}'");
        }
        // sorted by key; of equal keys the last one counts (as nlohmann::json)
        using Members = decltype(members);
        std::vector<uint32_t> order = stableOrder(members.size(), [](const void* c, size_t a, size_t b) {
          const Members& m = *(const Members*)c;
          return m[a].first < m[b].first;
        }, &members);
        for (size_t i = 0; i < order.size(); i++) {
          if (i + 1 < order.size() && members[order[i]].first == members[order[i + 1]].first) continue;
          j.keys_.push_back(std::move(members[order[i]].first));
          j.items_.push_back(std::move(members[order[i]].second));
        }
        return j;
      }
      case '[': {
        if (depth >= kMaxDepth) fail("nested too deep");
        p_++;
        j.t_ = Json::value_t::array;
        skipSpace();
        if (p_ != end_ && *p_ == ']') {
          p_++;
          return j;
        }
        for (;;) {
          j.items_.push_back(value(depth + 1));
          skipSpace();
          if (p_ != end_ && *p_ == ',') { p_++; continue; }
          if (p_ != end_ && *p_ == ']') { p_++; break; }
          fail("syntax error: expected ',' or ']'");
        }
        return j;
      }
      case '"':
        j.t_ = Json::value_t::string;
        j.s_ = string();
        return j;
      case 't': literal("true"); return Json(true);
      case 'f': literal("false"); return Json(false);
      case 'n': literal("null"); return j;
      default:
        if (*p_ == '-' || (*p_ >= '0' && *p_ <= '9')) return number();
        fail("syntax error: invalid literal");
    }
  }

  unsigned hex4() {
    if (end_ - p_ < 4) fail("invalid string: '\\u' must be followed by 4 hex digits");
    unsigned v = 0;
    for (int i = 0; i < 4; i++) {
      char c = *p_++;
      v <<= 4;
      if (c >= '0' && c <= '9') v |= (unsigned)(c - '0');
      else if (c >= 'a' && c <= 'f') v |= (unsigned)(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F') v |= (unsigned)(c - 'A' + 10);
      else fail("invalid string: '\\u' must be followed by 4 hex digits");
    }
    return v;
  }

  // A string (p_ at its opening quote): escapes decoded, well-formed UTF-8 only.
  std::string string() {
    p_++;
    std::string s;
    for (;;) {
      if (p_ == end_) fail("invalid string: missing closing quote");
      uint8_t c = (uint8_t)*p_;
      if (c == '"') {
        p_++;
        return s;
      }
      if (c < 0x20) fail("invalid string: control character must be escaped");
      if (c == '\\') {
        p_++;
        if (p_ == end_) fail("invalid string: missing closing quote");
        char e = *p_++;
        switch (e) {
          case '"': s += '"'; break;
          case '\\': s += '\\'; break;
          case '/': s += '/'; break;
          case 'b': s += '\b'; break;
          case 'f': s += '\f'; break;
          case 'n': s += '\n'; break;
          case 'r': s += '\r'; break;
          case 't': s += '\t'; break;
          case 'u': {
            unsigned cp = hex4();
            if (cp >= 0xD800 && cp <= 0xDBFF) {  // a high surrogate: a low one must follow
              if (end_ - p_ < 2 || p_[0] != '\\' || p_[1] != 'u') fail("invalid string: surrogate U+D800..U+DBFF must be followed by U+DC00..U+DFFF");
              p_ += 2;
              unsigned lo = hex4();
              if (lo < 0xDC00 || lo > 0xDFFF) fail("invalid string: surrogate U+D800..U+DBFF must be followed by U+DC00..U+DFFF");
              cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
              fail("invalid string: surrogate U+DC00..U+DFFF must follow U+D800..U+DBFF");
            }
            appendUtf8(s, cp);
            break;
          }
          default: fail("invalid string: forbidden character after backslash");
        }
        continue;
      }
      if (c < 0x80) {
        s += (char)c;
        p_++;
        continue;
      }
      // a multi-byte code point: well-formed UTF-8 only
      uint8_t state = kAccept;
      uint32_t cp = 0;
      const char* start = p_;
      do {
        if (p_ == end_ || decodeUtf8(state, cp, (uint8_t)*p_) == kReject) fail("invalid string: ill-formed UTF-8 byte");
        p_++;
      } while (state != kAccept);
      s.append(start, (size_t)(p_ - start));
    }
  }

  Json number() {
    const char* start = p_;
    bool negative = *p_ == '-', integral = true;
    if (negative) p_++;
    auto digits = [&]() {
      const char* d = p_;
      while (p_ != end_ && *p_ >= '0' && *p_ <= '9') p_++;
      return p_ - d;
    };
    if (p_ == end_ || !(*p_ >= '0' && *p_ <= '9')) fail("syntax error: invalid number");
    if (*p_ == '0') p_++;
    else digits();
    if (p_ != end_ && *p_ == '.') {
      p_++;
      integral = false;
      if (digits() == 0) fail("syntax error: invalid number; expected a digit after '.'");
    }
    if (p_ != end_ && (*p_ == 'e' || *p_ == 'E')) {
      p_++;
      integral = false;
      if (p_ != end_ && (*p_ == '+' || *p_ == '-')) p_++;
      if (digits() == 0) fail("syntax error: invalid number; expected a digit in the exponent");
    }
    Json j;
    if (integral) {  // an integer when it fits 64 bits (unsigned when not negative), else a double
      uint64_t magnitude = 0;
      bool fits = true;
      for (const char* d = start + negative; d != p_ && fits; d++) {
        const unsigned digit = (unsigned)(*d - '0');
        fits = magnitude <= (UINT64_MAX - digit) / 10;
        magnitude = magnitude * 10 + digit;
      }
      if (fits && !negative) {
        j.t_ = Json::value_t::number_unsigned;
        j.n_.u = magnitude;
        return j;
      }
      if (fits && magnitude <= (uint64_t)1 << 63) {
        j.t_ = Json::value_t::number_integer;
        j.n_.i = (int64_t)(0 - magnitude);
        return j;
      }
    }
    double d = parseDecimal(start, (size_t)(p_ - start));
    if (!std::isfinite(d)) throw Json::exception("number overflow parsing '" + std::string(start, (size_t)(p_ - start)) + "'");
    j.t_ = Json::value_t::number_float;
    j.n_.d = d;
    return j;
  }

  const char* begin_;
  const char* p_;
  const char* end_;
};

Json Json::parse(const std::string& text, std::nullptr_t, bool allowExceptions) {
  try {
    return JsonParser(text).document();
  } catch (const exception&) {
    if (allowExceptions) throw;
    Json j;
    j.t_ = value_t::discarded;
    return j;
  }
}

// ---------------------------------------------------------------------------- writing

void JsonWriter::grow(size_t n) {
  size_t want = std::max<size_t>(std::max<size_t>(out_.size() * 2, 256), len_ + n);
  out_.resize(want);
}

JsonWriter& JsonWriter::beginObject() {
  separate();
  put('{');
  comma_ = false;
  openObjects_.push_back(members_.size());
  return *this;
}

JsonWriter& JsonWriter::beginOrderedObject() {
  separate();
  put('{');
  comma_ = false;
  openObjects_.push_back(kOrdered);
  return *this;
}

JsonWriter& JsonWriter::endObject() {
  size_t first = openObjects_.back();
  openObjects_.pop_back();
  if (first != kOrdered) {
    sortMembers(first);
    members_.resize(first);
  }
  put('}');
  comma_ = true;
  return *this;
}

void JsonWriter::quoted(std::string_view s) {
  if (plainPrefix(s) == s.size()) {
    char* p = room(s.size() + 2);
    p[0] = '"';
    if (!s.empty()) std::memcpy(p + 1, s.data(), s.size());
    p[s.size() + 1] = '"';
    return;
  }
  std::string text;
  appendJsonString(text, s);
  put(text);
}

JsonWriter& JsonWriter::sortedKey(std::string_view k) {
  separate();
  size_t start = len_;
  quoted(k);
  size_t len = len_ - start - 2;
  members_.push_back({start, len, len != k.size()});
  put(':');
  comma_ = false;
  return *this;
}

JsonWriter& JsonWriter::value(std::string_view s) {
  separate();
  quoted(s);
  comma_ = true;
  return *this;
}

JsonWriter& JsonWriter::idValue(std::string_view name, std::string_view sep, int64_t n) {
  char digits[24];
  char* d = digitsBefore(digits + sizeof digits, n < 0 ? 0 - (uint64_t)n : (uint64_t)n);
  if (n < 0) *--d = '-';
  const size_t nd = (size_t)(digits + sizeof digits - d);
  if (plainPrefix(name) != name.size() || plainPrefix(sep) != sep.size()) {
    std::string text(name);
    text.append(sep).append(d, nd);
    return value(std::string_view(text));
  }
  separate();
  char* p = room(name.size() + sep.size() + nd + 2);
  *p++ = '"';
  std::memcpy(p, name.data(), name.size());
  p += name.size();
  std::memcpy(p, sep.data(), sep.size());
  p += sep.size();
  std::memcpy(p, d, nd);
  p[nd] = '"';
  comma_ = true;
  return *this;
}

JsonWriter& JsonWriter::value(double d) {
  std::string text;
  appendDouble(text, d);
  return scalar(text);
}

JsonWriter& JsonWriter::integer(int64_t v, bool isUnsigned) {
  char buf[24];
  char* p = digitsBefore(buf + sizeof buf, isUnsigned || v >= 0 ? (uint64_t)v : 0 - (uint64_t)v);
  if (!isUnsigned && v < 0) *--p = '-';
  return scalar(std::string_view(p, (size_t)(buf + sizeof buf - p)));
}

JsonWriter& JsonWriter::value(const Json& j) {
  using V = Json::value_t;
  switch (j.t_) {
    case V::null: return null();
    case V::boolean: return value(j.n_.b);
    case V::string: return value(std::string_view(j.s_));
    case V::number_integer: return integer(j.n_.i, false);
    case V::number_unsigned: return integer((int64_t)j.n_.u, true);
    case V::number_float: return value(j.n_.d);
    case V::array:
      beginArray();
      for (const Json& e : j.items_) value(e);
      return endArray();
    case V::object:
      beginObject();
      for (size_t i = 0; i < j.keys_.size(); i++) key(j.keys_[i]).value(j.items_[i]);
      return endObject();
    default:
      return scalar("<discarded>");
  }
}

namespace {
// A key as written (escaped) back to its bytes, to compare keys as nlohmann::json's map did.
std::string unescapeKey(std::string_view k) {
  std::string s;
  for (size_t i = 0; i < k.size(); i++) {
    if (k[i] != '\\' || i + 1 >= k.size()) { s += k[i]; continue; }
    char e = k[++i];
    switch (e) {
      case 'b': s += '\b'; break;
      case 'f': s += '\f'; break;
      case 'n': s += '\n'; break;
      case 'r': s += '\r'; break;
      case 't': s += '\t'; break;
      case 'u': {  // \u00XX: a control character
        uint64_t cp = 0;
        parseHex16(std::string(k.substr(i + 1, 4)), cp);
        s += (char)cp;
        i += 4;
        break;
      }
      default: s += e;  // \" and \\ (appendJsonString writes no other escape)
    }
  }
  return s;
}
}  // namespace

bool JsonWriter::memberLess(const Member& a, const Member& b) const {
  std::string_view ka = keyOf(a), kb = keyOf(b);
  if (!a.escaped && !b.escaped) return ka < kb;
  return unescapeKey(ka) < unescapeKey(kb);
}

void JsonWriter::sortMembers(size_t first) {
  size_t n = members_.size() - first;
  bool sorted = true;
  for (size_t i = first + 1; i < members_.size() && sorted; i++) sorted = memberLess(members_[i - 1], members_[i]);
  if (sorted) return;
  // each member's text: from its key to the comma before the next one
  std::vector<std::pair<size_t, size_t>> spans(n);  // (start, end) in out_
  for (size_t i = 0; i < n; i++)
    spans[i] = {members_[first + i].start, i + 1 < n ? members_[first + i + 1].start - 1 : len_};
  struct Ctx {
    const JsonWriter* w;
    size_t first;
  } ctx{this, first};
  std::vector<uint32_t> order = stableOrder(n, [](const void* c, size_t a, size_t b) {
    const Ctx& x = *(const Ctx*)c;
    return x.w->memberLess(x.w->members_[x.first + a], x.w->members_[x.first + b]);
  }, &ctx);
  auto less = [&](size_t a, size_t b) { return memberLess(members_[first + a], members_[first + b]); };
  std::string text;
  text.reserve(len_ - spans[0].first);
  for (size_t i = 0; i < n; i++) {
    // of equal keys, the one written last (as an assignment to a map)
    if (i + 1 < n && !less(order[i], order[i + 1])) continue;
    if (!text.empty()) text += ',';
    text.append(out_, spans[order[i]].first, spans[order[i]].second - spans[order[i]].first);
  }
  len_ = spans[0].first;  // (equal keys dropped: the text may be shorter)
  put(text);
}

}  // namespace rulestack
