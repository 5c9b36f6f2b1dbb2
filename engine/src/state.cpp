// The state hash: FNV-1a over every field, written field by field (never raw struct bytes,
// whose padding differs) so native and wasm agree.
#include "rulestack/state.h"

namespace rulestack {
namespace {
struct Hasher {
  uint64_t h = 1469598103934665603ULL;
  void byte(uint8_t b) { h ^= b; h *= 1099511628211ULL; }
  void i32(int32_t v) { for (int i = 0; i < 4; i++) byte((uint8_t)((uint32_t)v >> (8 * i))); }
  void u64(uint64_t v) { for (int i = 0; i < 8; i++) byte((uint8_t)(v >> (8 * i))); }
  void slot(const Slot& s) { byte((uint8_t)s.k); i32(s.v); }
  void event(const Event& e) {
    byte((uint8_t)e.type); i32(e.named); i32(e.player); slot(e.entity); slot(e.zone); slot(e.from);
    slot(e.source); i32(e.damage); i32(e.phase); i32(e.item); i32(e.winner); i32(e.turn); byte(e.cancelled);
  }
  void item(const Item& it) {
    i32(it.id); byte((uint8_t)it.kind); i32(it.def); i32(it.player); i32(it.source); i32(it.self);
    i32(it.mode); i32(it.x); byte(it.hasX); byte(it.cancelled);
    i32((int32_t)it.targets.size());
    for (auto& t : it.targets) slot(t);
    i32((int32_t)it.props.size());
    for (auto& p : it.props) { i32(p.first); slot(p.second); }
    event(it.event);
  }
  void frame(const Frame& f) {
    byte((uint8_t)f.kind); byte(f.stage); byte(f.halves); byte(f.before); byte((uint8_t)f.lk);
    i32(f.li); i32(f.lj); i32(f.next); i32(f.pos); i32(f.a); i32(f.b); i32(f.c);
    i32(f.k); i32(f.idx); i32(f.e); byte(f.part);
    const FrameCtx& k = f.ctx;
    i32(k.player); i32(k.self); i32(k.selected); i32(k.mode); i32(k.x); slot(k.item);
    i32(k.evFrame); byte(k.evInItem); i32(k.itemFrame);
    i32((int32_t)k.targets.size());
    for (auto& t : k.targets) slot(t);
    event(f.ev);
    item(f.item);
    i32((int32_t)f.values.size());
    for (auto& v : f.values) slot(v);
  }
};
}  // namespace

uint64_t hashState(const State& s) {
  Hasher h;
  h.i32((int32_t)s.ents.size());
  for (auto& e : s.ents) {
    h.i32(e.tmpl); h.i32(e.idTmpl); h.i32(e.serial); h.i32(e.owner); h.i32(e.controller);
    h.i32(e.zone); h.i32(e.host); h.i32(e.handle); h.i32(e.prevHandle); h.byte(e.alive);
    if (e.goneHidden | e.goneFaceDown) { h.byte(e.goneHidden); h.byte(e.goneFaceDown); }  // (the hashes of before them kept)
  }
  for (auto& p : s.props) h.slot(p);
  h.i32((int32_t)s.zones.size());
  for (auto& z : s.zones) {
    h.i32((int32_t)z.size());
    for (int32_t e : z) h.i32(e);
  }
  h.i32((int32_t)s.queue.size());
  for (auto& it : s.queue) h.item(it);
  h.i32((int32_t)s.decisions.size());
  for (auto& d : s.decisions) {
    h.i32(d.id); h.byte((uint8_t)d.kind); h.i32(d.player); h.i32(d.def); h.i32(d.self); h.byte(d.optional);
    h.event(d.event); h.i32(d.count); h.i32(d.dest); h.i32(d.evFrame);
    for (int32_t o : d.options) h.i32(o);
  }
  // the suspended resolution (empty whenever a player has priority: hashes as before)
  if (!s.stack.empty()) {
    h.i32((int32_t)s.stack.size());
    for (auto& f : s.stack) h.frame(f);
  }
  for (int32_t v : s.serials) h.i32(v);
  for (auto& c : s.customIds) { h.i32(c.first); for (char ch : c.second) h.byte((uint8_t)ch); }
  h.i32(s.turn); h.i32(s.phase); h.i32(s.active); h.i32(s.priority); h.i32(s.passes);
  h.i32(s.nextItemId); h.i32(s.nextDecisionId); h.i32(s.nextHandle); h.u64(s.salt); h.i32(s.result);
  h.byte(s.phaseStarted); h.byte(s.endTurn); h.byte(s.started);
  h.u64(s.rng.s);
  return h.h;
}

}  // namespace rulestack
