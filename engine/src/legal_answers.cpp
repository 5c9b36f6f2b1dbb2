// The answers a player may give to the decisions offered to them (a choice of targets, a
// discard, accepting or declining), and what an answer does: rarer than actions, so compiled
// for size in wasm.
#include <algorithm>

#include "rulestack/game.h"
#include "combinations.h"

namespace rulestack {

// A discard's options: its entities still where they were offered from.
void Game::discardOptions(const Decision& dec, std::vector<int32_t>& opts) const {
  opts.clear();
  for (int32_t e : dec.options)
    if (st_.ents[e].alive && st_.ents[e].zone >= 0 &&
        std::find(st_.zones[st_.ents[e].zone].begin(), st_.zones[st_.ents[e].zone].end(), e) != st_.zones[st_.ents[e].zone].end())
      opts.push_back(e);
}

// What accepting an offered reaction or triggered action asks: false when it cannot be
// accepted (its action's cost); else `spec`, its targets (null: none), chosen in the context
// `c` (which reads `ev`).
bool Game::offerSpec(int player, const Decision& dec, Event& ev, Ctx& c, const TargetSpec*& spec) const {
  const Def& d = *def_;
  c = Ctx{};
  c.player = player;
  c.self = c.selected = dec.self;
  // the live event when it is still being resolved (a $Before answer sees its changes)
  ev = dec.evFrame >= 0 && dec.evFrame < (int32_t)st_.stack.size() ? st_.stack[dec.evFrame].ev : dec.event;
  c.event = &ev;
  if (dec.kind == DecisionKind::Reaction) {
    const Reaction& r = d.reactions[dec.def];
    spec = r.target.ifPresent();
    return r.action < 0 || canPay(d.actions[r.action], c);
  }
  spec = d.triggered[dec.def].target.ifPresent();
  return true;
}

void Game::collectAnswers(int player, std::vector<Move>& out) const {
  std::vector<Slot> cands;
  std::vector<int32_t> opts;
  for (const Decision& dec : st_.decisions) {
    if (dec.player != player) continue;
    Move m;
    m.kind = Move::Answer;
    m.decision = dec.id;
    if (dec.kind == DecisionKind::Discard) {
      discardOptions(dec, opts);
      int k = std::min<int>(dec.count, (int)opts.size());
      size_t start = out.size();
      combinations((int)opts.size(), k, [&](const std::vector<int>& idx) {
        m.targets.clear();
        for (int i : idx) m.targets.push_back(Slot{opts[i], VK::Ent});
        sortSlots(m.targets);
        out.push_back(m);
        return out.size() - start < kMaxMovesPerAction;
      });
      continue;
    }
    Event ev;
    Ctx c;
    const TargetSpec* spec = nullptr;
    if (offerSpec(player, dec, ev, c, spec)) {
      if (spec) {
        targetCandidates(*spec, c, cands);
        sortSlots(cands);
        size_t start = out.size();
        for (int k = spec->min; k <= spec->max && k <= (int)cands.size() && out.size() - start < kMaxMovesPerAction; k++) {
          combinations((int)cands.size(), k, [&](const std::vector<int>& idx) {
            m.targets.clear();
            for (int i : idx) m.targets.push_back(cands[i]);
            m.accept = true;
            out.push_back(m);
            return out.size() - start < kMaxMovesPerAction;
          });
        }
      } else {
        m.accept = true;
        m.targets.clear();
        out.push_back(m);
      }
    }
    bool acceptListed = !out.empty() && out.back().decision == dec.id && out.back().accept;
    if (dec.optional || !acceptListed) {
      m.accept = false;
      m.targets.clear();
      out.push_back(m);
    }
  }
}

void Game::answer(int player, const Move& m) {
  const Def& d = *def_;
  auto di = std::find_if(st_.decisions.begin(), st_.decisions.end(), [&](const Decision& x) { return x.id == m.decision; });
  Decision dec = *di;
  st_.decisions.erase(di);
  if (!m.accept) return;  // declined: nothing changes, the machine goes on
  bool live = dec.evFrame >= 0 && dec.evFrame < (int32_t)st_.stack.size();
  std::vector<Slot> targets = m.targets;  // ($target: the first as the player is shown them)
  if (targets.size() > 1 && dec.kind != DecisionKind::Discard) inOrderSeen(targets, player);
  switch (dec.kind) {
    case DecisionKind::Discard: {
      std::vector<Event> moves;
      for (const Slot& t : m.targets) moves.push_back(moveEvent(t.v, dec.dest, player));
      emitAll(moves, 3, 0);
      return;
    }
    case DecisionKind::Reaction:
      startReaction(dec.def, player, dec.self, live ? dec.evFrame : -1, targets);
      return;
    case DecisionKind::Trigger: {
      const Triggered& t = d.triggered[dec.def];
      Item it = newItem(ItemKind::Triggered, dec.def, player, dec.self, live ? &st_.stack[dec.evFrame].ev : &dec.event);
      it.targets = std::move(targets);
      if (t.queue) {
        pushItem(std::move(it));
        st_.passes = 0;
        // (a step still resolving below gives priority when it ends: an action being taken,
        // an item executing, a chain; until then it stays where it is)
        if (st_.priority >= 0 && !priorityGivenLater()) st_.priority = nextInTurn(player);
      } else {
        pushExec(std::move(it), -1);
      }
      return;
    }
  }
}

// Whether a frame on the stack gives priority when it ends (stepTake, an Exec frame's
// priorityTo, stepChain, a Priority frame).
bool Game::priorityGivenLater() const {
  for (const Frame& f : st_.stack)
    if (f.kind == FK::Take || f.kind == FK::Chain || f.kind == FK::Priority || (f.kind == FK::Exec && f.a >= 0)) return true;
  return false;
}

}  // namespace rulestack
