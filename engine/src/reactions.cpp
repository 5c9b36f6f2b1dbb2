// The resolution machine's reaction step (resolve.cpp holds the rest of the machine): for an
// event, a cursor over everything that may react to it or trigger on it, in a fixed order.
// Only games with reactions or triggered actions run it, so it is compiled for size in wasm.
#include <algorithm>

#include "rulestack/game.h"

namespace rulestack {

// For each player from the active one in turn order: the game's own reactions (for the
// event's player) and those listed in global actions (for whoever could take the action), then that player's entities' reactions, then triggered actions. Each
// is looked at when the cursor reaches it, so it sees what the ones before it did.

void Game::stepReact(int fi) {
  const Def& d = *def_;
  Frame& f = st_.stack[fi];
  const int32_t evf = f.a;
  const Event& ev = st_.stack[evf].ev;
  // A $Before half whose event a reaction before this one cancelled (or whose action, for an
  // action's own events): it will not happen, so nothing more is asked about it, and a
  // cancelled card goes to the cancel zone now, not after the other players were asked.
  if (f.before && (ev.cancelled || ((ev.type == Ev::ActionPlayed || ev.type == Ev::Named) && itemCancelled(ev.item)))) {
    st_.stack.pop_back();
    return;
  }
  const int key = Def::key(f.before, ev.type);
  const auto& reactions = d.reactionsByKey[key];
  const auto& triggered = d.triggeredByKey[key];
  const auto& to = d.turnOrder;
  const int32_t np = d.numPlayers();
  auto start = std::find(to.begin(), to.end(), st_.active);
  size_t s0 = start == to.end() ? 0 : (size_t)(start - to.begin());
  const int32_t evPlayer = ev.player >= 0 && ev.player < np ? ev.player : st_.active;

  auto ready = [&](int ri, int32_t p, int32_t self) {
    const Reaction& r = d.reactions[ri];
    Ctx c;
    c.player = p;
    c.self = c.selected = self;
    c.event = &st_.stack[evf].ev;
    if (r.condition.present() && !test(r.condition, c)) return false;
    if (r.action >= 0) {
      // the action must be one its controller could take now (condition, cost)
      const Action& a = d.actions[r.action];
      if (a.condition.present() && !test(a.condition, c)) return false;
      if (!canPay(a, c)) return false;
    }
    return true;
  };
  auto act = [&](int ri, int32_t p, int32_t self) {
    const Reaction& r = d.reactions[ri];
    if (r.optional || r.target.present) {
      offer(DecisionKind::Reaction, p, ri, self, r.optional, &st_.stack[evf].ev).evFrame = evf;
      return;
    }
    startReaction(ri, p, self, evf, {});
  };
  // a triggered action: true when offered
  auto trigger = [&](int ti, int32_t p, int32_t self, int32_t defaultPlayer) {
    const Triggered& t = d.triggered[ti];
    Ctx c;
    c.player = defaultPlayer;
    c.self = c.selected = self;
    c.event = &st_.stack[evf].ev;
    int32_t who = defaultPlayer;
    if (t.player.present()) {
      Value w = eval(t.player, c);
      if (w.k() != VK::Ent) return false;
      who = w.v() < np ? w.v() : st_.ents[w.v()].controller;
    }
    if (who != p) return false;
    c.player = who;
    if (t.condition.present() && !test(t.condition, c)) return false;
    offer(DecisionKind::Trigger, who, ti, self, t.optional, &st_.stack[evf].ev).evFrame = evf;
    return true;
  };

  while (f.k < (int32_t)to.size()) {
    int32_t p = to[(s0 + f.k) % to.size()];
    if (f.part == 0) {  // the game's own reactions
      while (f.idx < (int32_t)reactions.size()) {
        int ri = reactions[f.idx++];
        const Reaction& r = d.reactions[ri];
        // (one listed in a global action: any player who could take that action may answer with it)
        if (r.tmpl >= 0 || (r.action < 0 && p != evPlayer) || (r.event == Ev::Named && r.namedAction != ev.named)) continue;
        if (ready(ri, p, -1)) return act(ri, p, -1);
      }
      f.part = 1;
      f.idx = 0;
      f.e = np;
    }
    if (f.part == 1) {  // the player's entities' reactions
      while (f.idx < (int32_t)reactions.size()) {
        int ri = reactions[f.idx];
        const Reaction& r = d.reactions[ri];
        if (r.tmpl >= 0 && (r.event != Ev::Named || r.namedAction == ev.named)) {
          for (auto [at, end] = entitiesOfType(d.tmplType[r.tmpl], f.e); at != end; at++) {
            int32_t e = *at;
            f.e = e + 1;
            const Entity& en = st_.ents[e];
            if (!en.alive || en.tmpl != r.tmpl || en.controller != p || en.zone < 0) continue;
            // live in an active zone; one listed in an action, where that action can be taken
            const ZoneDef& zd = d.zones[zoneDefOf(en.zone)];
            if (!(r.action >= 0 ? zd.actions : zd.active)) continue;
            if (ready(ri, p, e)) return act(ri, p, e);
          }
        }
        f.idx++;
        f.e = np;
      }
      f.part = 2;
      f.idx = 0;
      f.e = np;
    }
    while (f.idx < (int32_t)triggered.size()) {  // triggered actions
      int ti = triggered[f.idx];
      const Triggered& t = d.triggered[ti];
      if (t.event != Ev::Named || t.namedAction == ev.named) {
        if (t.tmpl < 0) {
          f.idx++;
          f.e = np;
          if (trigger(ti, p, -1, evPlayer)) return;
          continue;
        }
        for (auto [at, end] = entitiesOfType(d.tmplType[t.tmpl], f.e); at != end; at++) {
          int32_t e = *at;
          f.e = e + 1;
          const Entity& en = st_.ents[e];
          if (!en.alive || en.tmpl != t.tmpl || en.zone < 0 || !d.zones[zoneDefOf(en.zone)].active) continue;
          if (trigger(ti, p, e, en.controller)) return;
        }
      }
      f.idx++;
      f.e = np;
    }
    f.k++;
    f.part = 0;
    f.idx = 0;
    f.e = np;
  }
  st_.stack.pop_back();
}

// Whether the item with that id was cancelled (being taken, executing, queued or gone).
bool Game::itemCancelled(int32_t id) const {
  const Item* it = id >= 0 ? findItem(id) : nullptr;
  return it && it->cancelled;
}

// A reaction goes ahead (mandatory, or accepted): on the queue, or its mutations now — for a
// reaction declared in an action, that action's cost, the reaction's and the action's
// mutations, in that order. They see the live event: a $Before one can change or cancel it.
void Game::startReaction(int ri, int32_t player, int32_t self, int32_t evFrame, const std::vector<Slot>& targets) {
  const Reaction& r = def_->reactions[ri];
  if (r.queue) {
    Item it = newItem(ItemKind::Reaction, ri, player, self, evFrame >= 0 ? &st_.stack[evFrame].ev : nullptr);
    it.targets = targets;
    pushItem(std::move(it));
    st_.passes = 0;
    return;
  }
  FrameCtx k;
  k.player = player;
  k.self = k.selected = self;
  k.evFrame = evFrame;
  k.targets = targets;
  if (r.action < 0) {
    pushMuts(LK::Reaction, ri, -1, std::move(k));
    return;
  }
  // three lists in that order: all at once, or all as frames (pushed last first). Not each
  // list as it can: one run at once while another waits as a frame would run out of order.
  const LK order[3] = {LK::Cost, LK::Reaction, LK::Action};
  const int32_t index[3] = {r.action, ri, r.action};
  // A played card (play: true) is played by answering: it goes to its owner's discard_zone
  // first, as it would go to the queue when taken (its move and that move's reactions before
  // the lists, whether they run at once or as frames).
  int32_t to = -1;
  if (def_->actions[r.action].play && self >= 0 && def_->discardZone >= 0 && st_.ents[self].zone >= 0) {
    to = playerZone(def_->discardZone, ownerOf(self));
    if (to == st_.ents[self].zone) to = -1;
  }
  bool atOnce = !trace && (to < 0 || quietKind(Ev::OnZoneEnter, 3));
  for (int i = 0; i < 3 && atOnce; i++) {
    const std::vector<Mutation>& ms = listOf(order[i], index[i], -1);
    atOnce = ms.empty() || def_->runsAtOnce(ms);
  }
  if (!atOnce)
    for (int i = 2; i >= 0; i--)
      if (!listOf(order[i], index[i], -1).empty()) pushMutsFrame(order[i], index[i], -1, FrameCtx(k));
  if (to >= 0) emit(moveEvent(self, to, player), 3, 0);  // (at once, or its frames above the lists')
  if (atOnce)
    for (int i = 0; i < 3; i++) pushMuts(order[i], index[i], -1, FrameCtx(k));  // (each runs now)
}

}  // namespace rulestack
