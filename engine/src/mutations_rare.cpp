// The operations a game runs rarely (setup, decisions, attachments, the end), apart from the hot
// path so that they can be compiled for size (CMakeLists.txt: RULESTACK_COLD_SOURCES).
#include <algorithm>

#include "rulestack/game.h"
#include "json.h"  // stableSort

namespace rulestack {

namespace {
constexpr int kMaxCreate = 1000;
}  // namespace

int32_t Game::playerOf(Value v) const {
  if (v.k() == VK::List && v.n() > 0) v = scratch_[v.v()];
  return v.k() == VK::Ent && st_.ents[v.v()].alive ? st_.ents[v.v()].owner : -1;
}

void Game::applyRareOp(const Mutation& m, Ctx& c, std::vector<Value>& targets) {
  const Def& d = *def_;
  switch (m.op) {
    case Op::RequireDiscard: {
      // one decision per player, active player first then turn order, each after the last
      opTargets(m, c, targets, true);
      int count = m.count.present() ? number(m.count, c) : 1;
      auto& to = d.turnOrder;
      auto turnPos = [&](int32_t p) {
        long i = std::find(to.begin(), to.end(), p) - to.begin();
        long s0 = std::find(to.begin(), to.end(), st_.active) - to.begin();
        return (i - s0 + (long)to.size()) % (long)to.size();
      };
      stableSort(targets, [&](Value a, Value b) { return turnPos(a.v()) < turnPos(b.v()); });
      std::vector<Slot> asked;  // player, from, destination
      for (Value p : targets) {
        int32_t from;
        if (m.from.present()) from = opZone(m, c, m.from, "from");
        else {
          if (d.handZone < 0) opError(m, "RequireDiscard without 'from' needs a zone named Hand");
          from = playerZone(d.handZone, p.v());
        }
        int32_t dest;
        if (m.destination.present()) dest = opZone(m, c, m.destination, "destination");
        else {
          if (d.discardZone < 0) opError(m, "RequireDiscard without 'destination' needs settings.discard_zone");
          dest = playerZone(d.discardZone, p.v());
        }
        asked.push_back(Slot{p.v(), VK::Ent});
        asked.push_back(Slot{from, VK::Zone});
        asked.push_back(Slot{dest, VK::Zone});
      }
      if (count <= 0 || asked.empty()) return;
      Frame& f = pushFrame(FK::Discard);
      f.a = count;
      f.values = std::move(asked);
      return;
    }
    case Op::Promote: {
      opTargets(m, c, targets, false);
      noPlayerAmong(m, targets);
      const Template& t = d.templates[m.tmpl];
      for (Value v : targets) {
        st_.ents[v.v()].tmpl = m.tmpl;
        entsIndexed_ = false;
        propsVary_ = true;  // (what its new template does not declare, it keeps)
        // (the handle stays: a card changes in place, as everyone saw; a new handle would tell
        // a player which cards of a hidden hand were promoted)
        for (auto& kv : t.props) setProp(v.v(), kv.first, kv.second.get());
      }
      return;
    }
    case Op::Create: {
      int count = m.count.present() ? number(m.count, c) : 1;
      if ((unsigned)count > (unsigned)kMaxCreate) opError(m, "Create makes from 0 to 1000 entities at once, found " + std::to_string(count));
      const Value z = Value::zone(opZone(m, c, m.destination, "destination"));  // (an entity: its zone)
      int32_t owner = -1;
      if (m.owner.present()) {
        Value o = eval(m.owner, c);
        if (o.k() == VK::Ent) owner = o.v() < d.numPlayers() ? o.v() : st_.ents[o.v()].owner;
      }
      if (owner < 0) owner = zoneOwner(z.v());
      if (owner < 0) owner = c.player >= 0 ? c.player : st_.active;
      if (!m.id.empty()) {
        if (count != 1) opError(m, "'id' can only be given when creating one entity");
        if (findEntity(m.id) >= 0) opError(m, "an entity with id '" + m.id + "' already exists");
        createOne(m.tmpl, z.v(), owner, &m.id, c.player);
        return;
      }
      if (count <= 0) return;
      Frame& f = pushFrame(FK::Create);  // one entity a step: each arrives before the next exists
      f.a = m.tmpl;
      f.b = z.v();
      f.c = owner;
      f.next = count;
      f.ctx.player = c.player;
      return;
    }
    case Op::Shuffle: {
      Value z = eval(m.target, c);
      std::vector<int32_t> zoneIds;
      if (z.k() == VK::Zone) zoneIds.push_back(z.v());
      else if (z.k() == VK::List) {
        for (int32_t i = 0; i < z.n(); i++)
          if (scratch_[z.v() + i].k() == VK::Zone) zoneIds.push_back(scratch_[z.v() + i].v());
      }
      for (int32_t zi : zoneIds) shuffleZone(zi);
      return;
    }
    case Op::Attach: {
      opTargets(m, c, targets, false);
      noPlayerAmong(m, targets);
      Value h = eval(m.host, c);
      if (h.k() != VK::Ent || !st_.ents[h.v()].alive || h.v() < d.numPlayers()) opError(m, "host is not an entity (a player cannot be a host)");
      std::vector<Event>& moving = evScratch_;
      moving.clear();
      for (Value t : targets) {
        if (t.v() == h.v()) opError(m, "an entity cannot be attached to itself");
        st_.ents[t.v()].host = h.v();
        if (st_.ents[h.v()].zone >= 0 && st_.ents[t.v()].zone != st_.ents[h.v()].zone)
          moving.push_back(moveEvent(t.v(), st_.ents[h.v()].zone, c.player));
      }
      emitAll(moving, 3, 0);
      return;
    }
    case Op::Give: {  // (no event: the cards stay where they are, theirs now)
      opTargets(m, c, targets, false);
      noPlayerAmong(m, targets);
      const int32_t p = playerOf(eval(m.owner, c));
      if (p < 0) opError(m, "owner is not a player (or an entity: its owner)");
      for (Value t : targets) st_.ents[t.v()].owner = st_.ents[t.v()].controller = p;
      endDirty_ |= Def::kEndEnts | Def::kEndOther;  // (.owner, .controller, and effects: their controller's)
      return;
    }
    case Op::Win: case Op::Lose: {
      opTargets(m, c, targets, true);
      if (targets.empty()) return;
      int32_t p = targets[0].v();
      endGame(m.op == Op::Win ? p : nextInTurn(p));
      return;
    }
    default: return;
  }
}

}  // namespace rulestack
