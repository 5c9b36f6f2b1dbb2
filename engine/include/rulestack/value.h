// The one value type of expressions, properties and targets: a kind and an integer.
// Strings are interned symbols, entities/zones/queue items are indexes, lists live in a
// scratch buffer owned by the evaluator (offset + length), so a Value never allocates.
#pragma once
#include <cstdint>
#include <vector>

namespace rulestack {

enum class VK : uint8_t { Null, Int, Bool, Str, Ent, Zone, Item, List };

struct Value {
  // One 64-bit word (v | kind << 32 | length << 40): a struct of a single scalar is returned
  // in a register natively and in wasm, where a multi-field struct goes through memory on
  // every expression node's return.
  uint64_t bits;

  Value() : bits((uint64_t)VK::Null << 32) {}
  Value(VK kind, int32_t value, int32_t len)
      : bits((uint64_t)(uint32_t)value | (uint64_t)kind << 32 | (uint64_t)(uint32_t)len << 40) {}

  int32_t v() const { return (int32_t)(uint32_t)bits; }
  VK k() const { return (VK)(uint8_t)(bits >> 32); }
  int32_t n() const { return (int32_t)(bits >> 40); }

  static Value null() { return {}; }
  static Value num(int32_t x) { return {VK::Int, x, 0}; }
  static Value boolean(bool b) { return {VK::Bool, b ? 1 : 0, 0}; }
  static Value str(int32_t sym) { return {VK::Str, sym, 0}; }
  static Value ent(int32_t e) { return {VK::Ent, e, 0}; }
  static Value zone(int32_t z) { return {VK::Zone, z, 0}; }
  static Value item(int32_t id) { return {VK::Item, id, 0}; }
  static Value list(int32_t off, int32_t len) { return {VK::List, off, len}; }

  bool isNull() const { return k() == VK::Null; }
  bool truthy() const {
    switch (k()) {
      case VK::Null: return false;
      case VK::Int: case VK::Bool: return v() != 0;
      case VK::List: return n() > 0;
      default: return true;
    }
  }
  bool operator==(const Value& o) const {
    VK a = k(), b = o.k();
    if (a == VK::List || b == VK::List) return false;
    if ((a == VK::Int || a == VK::Bool) && (b == VK::Int || b == VK::Bool)) return v() == o.v();
    return a == b && v() == o.v();
  }
  bool operator!=(const Value& o) const { return !(*this == o); }
};

// The integer a value stands for in arithmetic and comparisons (booleans are 0/1, the rest 0).
inline int32_t asInt(Value v) { return (v.k() == VK::Int || v.k() == VK::Bool) ? v.v() : 0; }

// A stored value (a property, a target): never a list.
struct Slot {
  int32_t v = 0;
  VK k = VK::Null;
  Value get() const { return {k, v, 0}; }
  static Slot of(Value x) { return {x.v(), x.k() == VK::List ? VK::Null : x.k()}; }
  bool operator==(const Slot& o) const { return v == o.v && k == o.k; }
};

// An order on stored values (target lists are kept sorted).
inline bool slotLess(const Slot& a, const Slot& b) { return a.k != b.k ? a.k < b.k : a.v < b.v; }
// v in slotLess order (legal.cpp): a Shell sort, no allocation and a few dozen bytes of code
// where std::sort's instantiation costs the module kilobytes; what it sorts is short (a move's
// targets, an action's candidates), and slots that compare equal are the same slot.
void sortSlots(std::vector<Slot>& v);

}  // namespace rulestack
