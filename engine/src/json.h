// The engine's own JSON (the shipped module carries no JSON library):
//   Json        a small read-only value for what comes in (definitions, moves, snapshots,
//               scenarios, options), with the part of nlohmann::json's API the engine used;
//   JsonWriter  what goes out (views, events, moves, snapshots, traces), written straight
//               into a string, no tree.
// Both keep nlohmann::json's text as the engine wrote it before: object keys sorted (bytewise),
// compact, control characters as \u00XX, invalid UTF-8 replaced by U+FFFD, numbers formatted
// alike (integers exactly, doubles shortest-round-trip: 0.5, 3.0, 1e+20).
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>  // std::less<> for stableSort
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace rulestack {

class Json {
 public:
  enum class value_t : uint8_t { null, object, array, string, boolean, number_integer, number_unsigned, number_float, discarded };
  // Parse errors ("parse error at line L, column C: ..."), a number beyond double, a value read
  // as the wrong type, at() of a missing key or index.
  struct exception : std::runtime_error {
    using std::runtime_error::runtime_error;
  };

  Json() = default;
  Json(std::nullptr_t) {}
  Json(bool b) : t_(value_t::boolean) { n_.b = b; }
  template <class T, std::enable_if_t<std::is_integral<T>::value && !std::is_same<T, bool>::value, int> = 0>
  Json(T v) {
    if (std::is_signed<T>::value) t_ = value_t::number_integer, n_.i = (int64_t)v;
    else t_ = value_t::number_unsigned, n_.u = (uint64_t)v;
  }
  Json(double d) : t_(value_t::number_float) { n_.d = d; }
  Json(const char* s) : t_(value_t::string), s_(s) {}
  Json(std::string s) : t_(value_t::string), s_(std::move(s)) {}

  // Parses JSON text (a UTF-8 BOM skipped). Throws Json::exception on an error, or, with
  // allowExceptions false, returns a discarded value.
  static Json parse(const std::string& text, std::nullptr_t = nullptr, bool allowExceptions = true);

  value_t type() const { return t_; }
  bool is_null() const { return t_ == value_t::null; }
  bool is_object() const { return t_ == value_t::object; }
  bool is_array() const { return t_ == value_t::array; }
  bool is_string() const { return t_ == value_t::string; }
  bool is_boolean() const { return t_ == value_t::boolean; }
  bool is_number() const { return is_number_integer() || t_ == value_t::number_float; }
  bool is_number_integer() const { return t_ == value_t::number_integer || t_ == value_t::number_unsigned; }
  bool is_number_unsigned() const { return t_ == value_t::number_unsigned; }
  bool is_number_float() const { return t_ == value_t::number_float; }
  bool is_discarded() const { return t_ == value_t::discarded; }
  const char* type_name() const;

  // Elements of an array or members of an object; 0 for null, 1 for any other value.
  size_t size() const;
  bool empty() const { return size() == 0; }
  bool contains(std::string_view key) const { return find(key) != nullptr; }
  const Json* find(std::string_view key) const;  // null when absent (or not an object)
  // A missing key or index reads as null; a key of a non-object or an index of a non-array throws.
  const Json& operator[](std::string_view key) const;
  const Json& operator[](const char* key) const { return (*this)[std::string_view(key)]; }
  const Json& operator[](size_t i) const;
  const Json& at(std::string_view key) const;  // throws when missing
  const Json& at(size_t i) const;
  // The value under a JSON pointer ("/zones/Deck/count"), null when there is none.
  const Json* pointer(std::string_view ptr) const;

  // The key's value as T, or `def` when the object has no such key (throws on a non-object).
  Json value(std::string_view key, const Json& def) const;
  std::string value(std::string_view key, const char* def) const;
  bool value(std::string_view key, bool def) const;

  template <class T>
  T get() const {
    T out;
    getTo(out);
    return out;
  }
  template <class T, std::enable_if_t<std::is_arithmetic<T>::value, int> = 0>
  operator T() const {
    return get<T>();
  }

  std::string dump() const;

  // Iterates an array's elements or an object's values in key order (key()), a scalar once.
  class const_iterator {
   public:
    const_iterator(const Json* j, size_t i) : j_(j), i_(i) {}
    const Json& operator*() const { return j_->element(i_); }
    const Json* operator->() const { return &j_->element(i_); }
    const_iterator& operator++() { ++i_; return *this; }
    bool operator==(const const_iterator& o) const { return i_ == o.i_; }
    bool operator!=(const const_iterator& o) const { return i_ != o.i_; }
    const std::string& key() const { return j_->keys_.at(i_); }
    const Json& value() const { return **this; }

   private:
    const Json* j_;
    size_t i_;
  };
  const_iterator begin() const { return {this, 0}; }
  const_iterator end() const { return {this, size()}; }

  friend bool operator==(const Json& a, const Json& b);
  friend bool operator!=(const Json& a, const Json& b) { return !(a == b); }
  // (exact overloads: Json also converts to bool, and "x" to bool as well)
  friend bool operator==(const Json& a, std::string_view s) { return a.is_string() && a.s_ == s; }
  friend bool operator==(const Json& a, const char* s) { return a == std::string_view(s); }
  friend bool operator==(const Json& a, const std::string& s) { return a == std::string_view(s); }
  friend bool operator!=(const Json& a, const char* s) { return !(a == s); }
  friend bool operator!=(const Json& a, const std::string& s) { return !(a == s); }

 private:
  friend class JsonParser;
  friend class JsonWriter;
  const Json& element(size_t i) const { return is_array() || is_object() ? items_[i] : *this; }
  [[noreturn]] void typeError(const char* want) const;
  void getTo(bool& out) const;
  void getTo(std::string& out) const;
  void getTo(double& out) const;
  void getTo(float& out) const;
  // (one call out of line, not a switch at each of the many fields a snapshot or a definition reads)
  template <class T, std::enable_if_t<std::is_integral<T>::value && !std::is_same<T, bool>::value, int> = 0>
  void getTo(T& out) const {
    out = std::is_unsigned<T>::value ? (T)asUnsigned() : (T)asSigned();
  }
  int64_t asSigned() const;     // a number (or boolean) as an integer; else a type error
  uint64_t asUnsigned() const;
  template <class T>
  void getTo(std::vector<T>& out) const {
    if (!is_array()) typeError("array");
    out.clear();
    for (const Json& e : items_) out.push_back(e.get<T>());
  }

  value_t t_ = value_t::null;
  union {
    bool b;
    int64_t i;
    uint64_t u;
    double d;
  } n_{};
  std::string s_;                  // a string
  std::vector<Json> items_;        // an array's elements, an object's values (in key order)
  std::vector<std::string> keys_;  // an object's keys, sorted, one each
};

// Writes JSON text into one string: begin/end containers, key() before each member, a value
// after it. Members may come in any order: endObject() sorts them by key (the last of equal
// keys kept), so writing them sorted only saves that copy.
class JsonWriter {
 public:
  std::string_view str() const { return std::string_view(out_.data(), len_); }
  std::string take() {
    out_.resize(len_);
    len_ = 0;
    return std::move(out_);
  }
  void reserve(size_t bytes) {
    if (out_.size() < bytes) out_.resize(bytes);
  }

  JsonWriter& beginObject();
  // An object whose keys the caller writes in order (bytewise), distinct and printable ASCII
  // but '"' and '\\' (what a view writes): they are written as they are, not kept to sort.
  JsonWriter& beginOrderedObject();
  JsonWriter& endObject();
  JsonWriter& beginArray() {
    separate();
    put('[');
    comma_ = false;
    return *this;
  }
  JsonWriter& endArray() {
    put(']');
    comma_ = true;
    return *this;
  }
  JsonWriter& key(std::string_view k) {
    if (openObjects_.empty() || openObjects_.back() != kOrdered) return sortedKey(k);
    char* p = room(k.size() + 3 + comma_);
    if (comma_) *p++ = ',';
    *p++ = '"';
    std::memcpy(p, k.data(), k.size());
    p[k.size()] = '"';
    p[k.size() + 1] = ':';
    comma_ = false;
    return *this;
  }

  JsonWriter& null() { return scalar("null"); }
  JsonWriter& value(std::nullptr_t) { return null(); }
  JsonWriter& value(bool b) { return scalar(b ? std::string_view("true") : std::string_view("false")); }
  JsonWriter& value(std::string_view s);
  JsonWriter& value(const char* s) { return value(std::string_view(s)); }
  JsonWriter& value(const std::string& s) { return value(std::string_view(s)); }
  JsonWriter& value(double d);
  template <class T, std::enable_if_t<std::is_integral<T>::value && !std::is_same<T, bool>::value, int> = 0>
  JsonWriter& value(T v) {
    if (std::is_signed<T>::value) return integer((int64_t)v, false);
    return integer((int64_t)(uint64_t)v, true);
  }
  template <class T>
  JsonWriter& value(const std::vector<T>& v) {
    beginArray();
    for (const T& e : v) value(e);
    return endArray();
  }
  JsonWriter& value(const Json& j);
  // Text that is already JSON: a value, or in an ordered object members ("a":1,"b":2).
  JsonWriter& raw(std::string_view json) { return scalar(json); }
  // The string name + sep + n ("Bolt#3", "q12") without building it first.
  JsonWriter& idValue(std::string_view name, std::string_view sep, int64_t n);
  // key(k) then value(v)
  template <class T>
  JsonWriter& field(std::string_view k, const T& v) {
    key(k);
    return value(v);
  }

 private:
  struct Member {
    size_t start;   // where the member's key (its opening quote) begins in out_
    size_t keyLen;  // the key's escaped length
    bool escaped;   // written otherwise than its bytes (an escape or a replaced byte: longer)
  };
  // n bytes to write at the end: the text is out_'s first len_ bytes, the rest is room, so a
  // write is a bounds test and a copy (no std::string append call per piece)
  char* room(size_t n) {
    if (out_.size() - len_ < n) grow(n);
    char* p = &out_[0] + len_;
    len_ += n;
    return p;
  }
  void grow(size_t n);
  void put(char c) { *room(1) = c; }
  void put(std::string_view s) {
    if (!s.empty()) std::memcpy(room(s.size()), s.data(), s.size());
  }
  void separate() {
    if (comma_) put(',');
  }
  JsonWriter& scalar(std::string_view text) {
    separate();
    put(text);
    comma_ = true;
    return *this;
  }
  JsonWriter& sortedKey(std::string_view k);
  void quoted(std::string_view s);
  JsonWriter& integer(int64_t v, bool isUnsigned);
  void sortMembers(size_t first);
  bool memberLess(const Member& a, const Member& b) const;
  std::string_view keyOf(const Member& m) const { return std::string_view(out_).substr(m.start + 1, m.keyLen); }

  std::string out_;
  size_t len_ = 0;                    // the bytes of out_ written
  bool comma_ = false;                // a value was written in the open container
  std::vector<Member> members_;       // the members of every open object, innermost last
  std::vector<size_t> openObjects_;   // members_.size() when each open object began, or kOrdered
  static constexpr size_t kOrdered = ~(size_t)0;
};

// The indexes 0..n-1 sorted stably by less(ctx, a, b): one small merge sort that every sort
// of keys shares (each std::stable_sort instantiation costs the module kilobytes).
std::vector<uint32_t> stableOrder(size_t n, bool (*less)(const void* ctx, size_t a, size_t b), const void* ctx);

// v sorted stably by less(a, b) through stableOrder (cold code's sorts: no std::sort or
// std::stable_sort instantiation per element type).
template <class T, class Less>
void stableSort(std::vector<T>& v, Less less) {
  struct Ctx {
    const std::vector<T>* v;
    Less* less;
  } ctx{&v, &less};
  std::vector<uint32_t> order = stableOrder(v.size(), [](const void* c, size_t a, size_t b) {
    const Ctx& x = *static_cast<const Ctx*>(c);
    return (bool)(*x.less)((*x.v)[a], (*x.v)[b]);
  }, &ctx);
  std::vector<T> sorted;
  sorted.reserve(v.size());
  for (uint32_t i : order) sorted.push_back(std::move(v[i]));
  v.swap(sorted);
}

// The parts joined into one string, for the cold code's messages: one call and one allocation
// where `a + b + c` builds and frees a temporary per `+` at each call site (and, where code
// unwinds, a cleanup for each).
std::string cat(std::initializer_list<std::string_view> parts);

// Appends s as a JSON string (quoted and escaped; invalid UTF-8 becomes U+FFFD).
void appendJsonString(std::string& out, std::string_view s);
// Whether s is written as it is between the quotes (printable ASCII but '"' and '\\').
bool plainJsonText(std::string_view s);

}  // namespace rulestack
