// Mutations (the operations of spec 002 and the language's additions) and the events
// they emit, with the reactions and triggered actions those events set off.
#include <algorithm>

#include "rulestack/game.h"

namespace rulestack {

namespace {
constexpr int kMaxDepth = 64;
constexpr size_t kMaxEntities = 20000;
constexpr int kMaxCreate = 1000;

}  // namespace

int32_t Game::playerZone(int zoneDef, int32_t player) const { return def_->zoneInstance(zoneDef, player); }

void Game::run(const std::vector<Mutation>& ms, Ctx& c) {
  for (const Mutation& m : ms) {
    if (st_.over()) return;
    runOne(m, c);
  }
}

void Game::runOne(const Mutation& m, Ctx& c) {
  if (m.forEach.present()) {
    std::vector<Value> items;
    evalList(m.forEach, c, items);
    for (Value v : items) {
      Ctx c2 = c;
      c2.item = v;
      if (m.condition.present() && !eval(m.condition, c2).truthy()) continue;
      applyOp(m, c2);
      if (st_.over()) return;
    }
    return;
  }
  if (m.condition.present() && !eval(m.condition, c).truthy()) return;
  applyOp(m, c);
}

void Game::setProp(int32_t e, int32_t p, Value v) {
  const Def& d = *def_;
  if (d.endAny || p >= (int32_t)d.endProps.size() || d.endProps[p]) endDirty_ = true;
  st_.props[(size_t)e * def_->propNames.size() + p] = Slot::of(v);
}

void Game::applyOp(const Mutation& m, Ctx& c) {
  const Def& d = *def_;
  auto err = [&](const std::string& msg) { throw RuntimeError("runtime_error", m.path + ": " + msg); };
  // targets: a list of values (zones expand to their entities for entity operations)
  std::vector<Value> targets;
  auto entityTargets = [&]() {
    evalList(m.target, c, targets);
    targets.erase(std::remove_if(targets.begin(), targets.end(),
                                 [&](Value v) { return v.k() != VK::Ent || !st_.ents[v.v()].alive; }),
                  targets.end());
  };
  auto playerTargets = [&]() {
    evalList(m.target, c, targets);
    for (Value& v : targets)
      if (v.k() == VK::Ent && v.v() >= d.numPlayers()) v = Value::ent(st_.ents[v.v()].owner);
    targets.erase(std::remove_if(targets.begin(), targets.end(), [&](Value v) { return v.k() != VK::Ent || v.v() < 0; }),
                  targets.end());
  };
  auto zoneOf = [&](const Expr& e, const char* key) -> int32_t {
    Value z = eval(e, c);
    if (z.k() == VK::Ent && st_.ents[z.v()].zone >= 0) return st_.ents[z.v()].zone;
    if (z.k() != VK::Zone) err(std::string(key) + " is not a zone");
    return z.v();
  };
  if (d.endAny && (m.op == Op::Destroy || m.op == Op::Promote || m.op == Op::Attach || m.op == Op::Shuffle)) endDirty_ = true;
  switch (m.op) {
    case Op::Set: case Op::Add: case Op::Sub: case Op::Mul: case Op::Div: {
      Value v = eval(m.value, c);
      auto combine = [&](int32_t cur) -> Value {
        int32_t x = asInt(v);
        switch (m.op) {
          case Op::Add: return Value::num((int32_t)((uint32_t)cur + (uint32_t)x));
          case Op::Sub: return Value::num((int32_t)((uint32_t)cur - (uint32_t)x));
          case Op::Mul: return Value::num((int32_t)((uint32_t)cur * (uint32_t)x));
          case Op::Div: return Value::num(x == 0 || (cur == INT32_MIN && x == -1) ? 0 : cur / x);
          default: return v;
        }
      };
      if (m.eventField >= 0) {
        if (!c.event) err("$event is only available in a reaction");
        c.event->damage = asInt(combine(c.event->damage));
        return;
      }
      entityTargets();
      for (Value t : targets) {
        Value cur = st_.props[(size_t)t.v() * d.propNames.size() + m.prop].get();
        setProp(t.v(), m.prop, combine(asInt(cur)));
      }
      return;
    }
    case Op::MoveZone: {
      entityTargets();
      if (targets.empty()) return;
      int32_t z = zoneOf(m.destination, "destination");
      std::vector<Value> ts = targets;
      for (Value t : ts) moveEntity(t.v(), z, m.bottom, c);
      return;
    }
    case Op::Destroy: {
      entityTargets();
      for (Value t : targets) {
        Entity& e = st_.ents[t.v()];
        if (e.zone >= 0) {
          auto& z = st_.zones[e.zone];
          z.erase(std::find(z.begin(), z.end(), t.v()));
        }
        e.zone = -1;
        e.alive = false;
        for (int32_t a = d.usesAttach ? d.numPlayers() : (int32_t)st_.ents.size(); a < (int32_t)st_.ents.size(); a++)
          if (st_.ents[a].host == t.v()) {
            st_.ents[a].host = -1;
            if (d.discardZone >= 0) moveEntity(a, playerZone(d.discardZone, st_.ents[a].owner), false, c);
          }
      }
      return;
    }
    case Op::Cancel: {
      if (m.target.present() && d.nodes.nodes[m.target.root].op == N::Event) {
        if (!c.event) err("$event is only available in a reaction");
        c.event->cancelled = true;
        return;
      }
      Value t = eval(m.target, c);
      if (t.k() != VK::Item) return;
      if (Item* q = findQueued(t.v())) {
        Item it = std::move(*q);
        st_.queue.erase(st_.queue.begin() + (q - st_.queue.data()));
        cancelItem(it);
        return;
      }
      if (pending_ && pending_->id == t.v()) { pending_->cancelled = true; return; }
      for (Item* it : executing_)
        if (it->id == t.v()) it->cancelled = true;
      return;
    }
    case Op::RequireDiscard: {
      playerTargets();
      int count = m.count.present() ? asInt(eval(m.count, c)) : 1;
      for (Value p : targets) {
        int32_t from;
        if (m.from.present()) from = zoneOf(m.from, "from");
        else {
          if (d.handZone < 0) err("RequireDiscard without 'from' needs a zone named Hand");
          from = playerZone(d.handZone, p.v());
        }
        int32_t dest;
        if (m.destination.present()) dest = zoneOf(m.destination, "destination");
        else {
          if (d.discardZone < 0) err("RequireDiscard without 'destination' needs settings.discard_zone");
          dest = playerZone(d.discardZone, p.v());
        }
        int n = std::min<int>(count, (int)st_.zones[from].size());
        if (n <= 0) continue;
        Decision& dec = offer(DecisionKind::Discard, p.v(), -1, -1, false, nullptr);
        dec.options = st_.zones[from];
        dec.count = n;
        dec.dest = dest;
      }
      return;
    }
    case Op::Promote: {
      entityTargets();
      const Template& t = d.templates[m.tmpl];
      for (Value v : targets) {
        st_.ents[v.v()].tmpl = m.tmpl;
        for (auto& kv : t.props) setProp(v.v(), kv.first, kv.second.get());
      }
      return;
    }
    case Op::DrawCard: {
      playerTargets();
      int count = m.count.present() ? asInt(eval(m.count, c)) : 1;
      for (Value p : targets) {
        if (!m.from.present() && d.deckZone < 0) err("DrawCard without 'from' needs a zone named Deck");
        if (!m.destination.present() && d.handZone < 0) err("DrawCard without 'destination' needs a zone named Hand");
        int32_t from = m.from.present() ? zoneOf(m.from, "from") : playerZone(d.deckZone, p.v());
        int32_t to = m.destination.present() ? zoneOf(m.destination, "destination") : playerZone(d.handZone, p.v());
        drawCards(p.v(), count, from, to, c);
      }
      return;
    }
    case Op::Create: createEntities(m, c); return;
    case Op::Shuffle: {
      Value z = eval(m.target, c);
      std::vector<int32_t> zoneIds;
      if (z.k() == VK::Zone) zoneIds.push_back(z.v());
      else if (z.k() == VK::List) {
        for (int32_t i = 0; i < z.n(); i++)
          if (scratch_[z.v() + i].k() == VK::Zone) zoneIds.push_back(scratch_[z.v() + i].v());
      }
      for (int32_t zi : zoneIds) {
        auto& v = st_.zones[zi];
        for (size_t i = v.size(); i > 1; i--) std::swap(v[i - 1], v[st_.rng.below((uint32_t)i)]);
      }
      return;
    }
    case Op::Damage: {
      Value amount = eval(m.value, c);
      evalList(m.target, c, targets);
      std::vector<Value> ts = targets;
      for (Value t : ts) {
        if (t.k() != VK::Ent || !st_.ents[t.v()].alive) continue;
        Event ev;
        ev.type = Ev::DamageTaken;
        ev.player = c.player;
        ev.entity = Slot{t.v(), VK::Ent};
        ev.damage = asInt(amount);
        int32_t src = c.selected >= 0 ? c.selected : c.self;
        if (src >= 0) ev.source = Slot{src, VK::Ent};
        fire(ev, true);
        if (ev.cancelled) continue;
        if (ev.damage > 0) {
          Value cur = st_.props[(size_t)t.v() * d.propNames.size() + m.prop].get();
          setProp(t.v(), m.prop, Value::num(asInt(cur) - ev.damage));
        }
        fire(ev, false);
      }
      return;
    }
    case Op::Attach: {
      entityTargets();
      Value h = eval(m.host, c);
      if (h.k() != VK::Ent || !st_.ents[h.v()].alive) err("host is not an entity");
      for (Value t : targets) {
        if (t.v() == h.v()) err("an entity cannot be attached to itself");
        st_.ents[t.v()].host = h.v();
        if (st_.ents[h.v()].zone >= 0 && st_.ents[t.v()].zone != st_.ents[h.v()].zone)
          moveEntity(t.v(), st_.ents[h.v()].zone, false, c);
      }
      return;
    }
    case Op::EndTurn: st_.endTurn = true; return;
    case Op::Win: case Op::Lose: {
      playerTargets();
      if (targets.empty()) return;
      int32_t p = targets[0].v();
      if (m.op == Op::Win) { endGame(p); return; }
      auto& to = d.turnOrder;
      auto it = std::find(to.begin(), to.end(), p);
      endGame((it == to.end() || it + 1 == to.end()) ? to.front() : *(it + 1));
      return;
    }
    case Op::Draw: endGame(-1); return;
  }
}

void Game::moveEntity(int32_t e, int32_t zone, bool bottom, Ctx& c) {
  const Def& d = *def_;
  Entity& en = st_.ents[e];
  Event ev;
  ev.type = Ev::OnZoneEnter;
  ev.player = c.player;
  ev.entity = Slot{e, VK::Ent};
  ev.zone = Slot{zone, VK::Zone};
  if (en.zone >= 0) ev.from = Slot{en.zone, VK::Zone};
  fire(ev, true);
  if (ev.cancelled || !st_.ents[e].alive) return;
  Entity& ent = st_.ents[e];
  if (d.endAny) endDirty_ = true;
  if (ent.zone >= 0) {
    auto& from = st_.zones[ent.zone];
    auto it = std::find(from.begin(), from.end(), e);
    if (it != from.end()) from.erase(it);
  }
  auto& to = st_.zones[zone];
  if (bottom) to.push_back(e);
  else to.insert(to.begin(), e);
  ent.zone = zone;
  if (ent.host >= 0 && st_.ents[ent.host].zone != zone) ent.host = -1;  // moved away from its host
  // attachments follow their host; out of play they are discarded
  bool active = d.zones[zoneDefOf(zone)].active;
  for (int32_t a = d.usesAttach ? d.numPlayers() : (int32_t)st_.ents.size(); a < (int32_t)st_.ents.size(); a++) {
    if (st_.ents[a].host != e || !st_.ents[a].alive) continue;
    if (!active) {
      st_.ents[a].host = -1;
      if (d.discardZone >= 0) moveEntity(a, playerZone(d.discardZone, st_.ents[a].owner), false, c);
      continue;
    }
    auto& az = st_.zones[st_.ents[a].zone];
    az.erase(std::find(az.begin(), az.end(), a));
    st_.zones[zone].push_back(a);
    st_.ents[a].zone = zone;
  }
  fire(ev, false);
}

void Game::drawCards(int32_t player, int count, int32_t fromZone, int32_t toZone, Ctx& c) {
  for (int i = 0; i < count; i++) {
    if (st_.zones[fromZone].empty()) {
      Event ev;
      ev.type = Ev::DrawFailed;
      ev.player = player;
      fire(ev, true);
      fire(ev, false);
      return;
    }
    moveEntity(st_.zones[fromZone].front(), toZone, false, c);
  }
}

void Game::createEntities(const Mutation& m, Ctx& c) {
  const Def& d = *def_;
  auto err = [&](const std::string& msg) { throw RuntimeError("runtime_error", m.path + ": " + msg); };
  int count = m.count.present() ? asInt(eval(m.count, c)) : 1;
  if (count > kMaxCreate) err("Create makes at most 1000 entities at once");
  Value z = eval(m.destination, c);
  if (z.k() != VK::Zone) err("destination is not a zone");
  int32_t owner = -1;
  if (m.owner.present()) {
    Value o = eval(m.owner, c);
    if (o.k() == VK::Ent) owner = o.v() < d.numPlayers() ? o.v() : st_.ents[o.v()].owner;
  }
  if (owner < 0) owner = zoneOwner(z.v());
  if (owner < 0) owner = c.player >= 0 ? c.player : st_.active;
  if (!m.id.empty() && count != 1) err("'id' can only be given when creating one entity");
  if (!m.id.empty() && findEntity(m.id) >= 0) err("an entity with id '" + m.id + "' already exists");
  const Template& t = d.templates[m.tmpl];
  size_t np = d.propNames.size();
  for (int i = 0; i < count; i++) {
    if (st_.ents.size() >= kMaxEntities) err("more than 20000 entities");
    Entity e;
    e.tmpl = e.idTmpl = m.tmpl;
    e.owner = e.controller = owner;
    if (!m.id.empty()) {
      e.serial = -1 - (int32_t)st_.customIds.size();
      st_.customIds.push_back({(int32_t)st_.ents.size(), m.id});
    } else {
      e.serial = ++st_.serials[m.tmpl];
    }
    int32_t idx = (int32_t)st_.ents.size();
    st_.ents.push_back(e);
    st_.props.resize(st_.props.size() + np);
    for (auto& kv : t.props) st_.props[(size_t)idx * np + kv.first] = kv.second;
    st_.ents[idx].zone = -1;
    moveEntity(idx, z.v(), true, c);
  }
}

// ---- events ----

void Game::logEvent(const Event& ev, bool before) {
  if (logging) log.push_back(LogEntry{ev, before, cause_});
}

void Game::countEvent() {
  if (++eventsThisMove_ > def_->maxEvents) {
    std::string names;
    for (size_t i = chain_.size() > 6 ? chain_.size() - 6 : 0; i < chain_.size(); i++)
      names += (names.empty() ? "" : " -> ") + (chain_[i]->empty() ? std::string("(unnamed)") : *chain_[i]);
    throw RuntimeError("loop_limit", "more than " + std::to_string(def_->maxEvents) +
                                         " events in one move" + (names.empty() ? "" : "; the chain: " + names));
  }
}

void Game::fire(Event& ev, bool before) {
  countEvent();
  if (logging) logEvent(ev, before);
  // most events have no listener: nothing more to do (the counter still bounds the move)
  if (ev.type == Ev::Count || !def_->listens[Def::key(before, ev.type)]) return;
  react(ev, before);
}

void Game::react(Event& ev, bool before) {
  const Def& d = *def_;
  if (st_.over() && ev.type != Ev::GameOver) return;
  if (++depth_ > kMaxDepth) {
    std::string names;
    for (size_t i = chain_.size() > 6 ? chain_.size() - 6 : 0; i < chain_.size(); i++)
      names += (names.empty() ? "" : " -> ") + (chain_[i]->empty() ? std::string("(unnamed)") : *chain_[i]);
    depth_ = 0;
    throw RuntimeError("loop_limit", "reactions nested more than 64 deep; the chain: " + names);
  }
  struct Dec { int& d; ~Dec() { d--; } } dec{depth_};

  // Named (@Action) triggers listen to the Named event only.
  int key = Def::key(before, ev.type);
  const auto& reactions = d.reactionsByKey[key];
  const auto& triggered = d.triggeredByKey[key];

  // holders in order: the active player's entities first, then in turn order
  auto& to = d.turnOrder;
  auto start = std::find(to.begin(), to.end(), st_.active);
  size_t s0 = start == to.end() ? 0 : (size_t)(start - to.begin());
  for (size_t k = 0; k < to.size(); k++) {
    int32_t p = to[(s0 + k) % to.size()];
    for (int ri : reactions) {
      const Reaction& r = d.reactions[ri];
      if (r.event == Ev::Named && r.namedAction != ev.named) continue;
      for (int32_t e = d.numPlayers(); e < (int32_t)st_.ents.size(); e++) {
        const Entity& en = st_.ents[e];
        if (!en.alive || en.tmpl != r.tmpl || en.controller != p || en.zone < 0) continue;
        if (!d.zones[zoneDefOf(en.zone)].active) continue;
        Ctx c;
        c.player = p;
        c.self = c.selected = e;
        c.event = &ev;
        if (r.condition.present() && !eval(r.condition, c).truthy()) continue;
        if (r.optional) {
          if (r.action >= 0) {
            // the action must be one its controller could take now (cost, condition)
            if (d.actions[r.action].condition.present() && !eval(d.actions[r.action].condition, c).truthy()) continue;
            if (!canPay(d.actions[r.action].cost, c)) continue;
          }
          offer(DecisionKind::Reaction, p, ri, e, true, &ev);
        } else if (r.queue) {
          pushItem(newItem(ItemKind::Reaction, ri, p, e, &ev));
          st_.passes = 0;
        } else {
          chain_.push_back(&r.name);
          run(r.mutations, c);
          chain_.pop_back();
        }
        if (st_.over()) return;
      }
    }
    for (int ti : triggered) {
      const Triggered& t = d.triggered[ti];
      if (t.event == Ev::Named && t.namedAction != ev.named) continue;
      auto offerTrigger = [&](int32_t self, int32_t defaultPlayer) {
        Ctx c;
        c.player = defaultPlayer;
        c.self = c.selected = self;
        c.event = &ev;
        int32_t who = defaultPlayer;
        if (t.player.present()) {
          Value w = eval(t.player, c);
          if (w.k() != VK::Ent) return;
          who = w.v() < d.numPlayers() ? w.v() : st_.ents[w.v()].controller;
        }
        if (who != p) return;
        c.player = who;
        if (t.condition.present() && !eval(t.condition, c).truthy()) return;
        offer(DecisionKind::Trigger, who, ti, self, t.optional, &ev);
      };
      if (t.tmpl < 0) {
        offerTrigger(-1, ev.player >= 0 ? ev.player : st_.active);
      } else {
        for (int32_t e = d.numPlayers(); e < (int32_t)st_.ents.size(); e++) {
          const Entity& en = st_.ents[e];
          if (!en.alive || en.tmpl != t.tmpl || en.zone < 0 || !d.zones[zoneDefOf(en.zone)].active) continue;
          offerTrigger(e, en.controller);
        }
      }
    }
  }
}

}  // namespace rulestack
