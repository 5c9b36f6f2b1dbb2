// The one value type of expressions, properties and targets: a kind and an integer.
// Strings are interned symbols, entities/zones/queue items are indexes, lists live in a
// scratch buffer owned by the evaluator (offset + length), so a Value never allocates.
#pragma once
#include <cstdint>

namespace rulestack {

enum class VK : uint8_t { Null, Int, Bool, Str, Ent, Zone, Item, List };

struct Value {
  VK k = VK::Null;
  int32_t v = 0;
  int32_t n = 0;  // list length (List only)

  static Value null() { return {}; }
  static Value num(int32_t x) { return {VK::Int, x, 0}; }
  static Value boolean(bool b) { return {VK::Bool, b ? 1 : 0, 0}; }
  static Value str(int32_t sym) { return {VK::Str, sym, 0}; }
  static Value ent(int32_t e) { return {VK::Ent, e, 0}; }
  static Value zone(int32_t z) { return {VK::Zone, z, 0}; }
  static Value item(int32_t id) { return {VK::Item, id, 0}; }
  static Value list(int32_t off, int32_t len) { return {VK::List, off, len}; }

  bool isNull() const { return k == VK::Null; }
  bool truthy() const {
    switch (k) {
      case VK::Null: return false;
      case VK::Int: case VK::Bool: return v != 0;
      case VK::List: return n > 0;
      default: return true;
    }
  }
  bool operator==(const Value& o) const {
    if (k == VK::List || o.k == VK::List) return false;
    if ((k == VK::Int || k == VK::Bool) && (o.k == VK::Int || o.k == VK::Bool)) return v == o.v;
    return k == o.k && v == o.v;
  }
  bool operator!=(const Value& o) const { return !(*this == o); }
};

// A stored value (a property, a target): never a list.
struct Slot {
  int32_t v = 0;
  VK k = VK::Null;
  Value get() const { return {k, v, 0}; }
  static Slot of(Value x) { return {x.v, x.k == VK::List ? VK::Null : x.k}; }
  bool operator==(const Slot& o) const { return v == o.v && k == o.k; }
};

}  // namespace rulestack
