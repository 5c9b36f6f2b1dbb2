// Whether a move is legal (legalMoves lists it, or it is past the cap of that list) and, when
// it is not, why: the machine-readable reason and a message. Cold code: a bot's moves are
// legal by construction and are applied unchecked.
#include <algorithm>

#include "rulestack/game.h"
#include "combinations.h"

namespace rulestack {

namespace {
// Whether `picked` (sorted, so that a repeat is next to itself) is from `lo` to `hi` distinct
// slots of `cands`.
bool pickedFrom(const std::vector<Slot>& picked, const std::vector<Slot>& cands, int lo, int hi) {
  const int k = (int)picked.size();
  if (k < lo || k > hi) return false;
  for (int i = 0; i < k; i++)
    if ((i > 0 && picked[i] == picked[i - 1]) || std::find(cands.begin(), cands.end(), picked[i]) == cands.end())
      return false;
  return true;
}

// An enumeration lists at most kMaxMovesPerAction moves for one action and source, or for one
// decision: a choice past them is legal all the same. Whether the enumeration of `m` stopped
// at that cap (so that its action and source, or its decision, are offered).
bool pastCap(const Move& m, const std::vector<Move>& listed) {
  size_t same = 0;
  for (const Move& l : listed)
    same += l.kind == m.kind && (m.kind == Move::Take ? l.action == m.action && l.source == m.source
                                                      : l.decision == m.decision && l.accept);
  return same >= kMaxMovesPerAction;
}
}  // namespace

// Whether the targets of an answer that accepts `dec` are a choice it offers.
bool Game::answerPicked(int player, const Decision& dec, const std::vector<Slot>& picked) const {
  std::vector<Slot> cands;
  if (dec.kind == DecisionKind::Discard) {
    std::vector<int32_t> opts;
    discardOptions(dec, opts);
    for (int32_t e : opts) cands.push_back(Slot{e, VK::Ent});
    const int k = std::min<int>(dec.count, (int)opts.size());
    return pickedFrom(picked, cands, k, k);
  }
  Event ev;
  Ctx c;
  const TargetSpec* spec = nullptr;
  if (!offerSpec(player, dec, ev, c, spec) || !spec) return false;
  targetCandidates(*spec, c, cands);
  return pickedFrom(picked, cands, spec->min, spec->max);
}

std::string Game::check(int player, const Move& given, std::string* message) const {
  const Def& d = *def_;
  auto fail = [&](const char* reason, const std::string& msg) {
    if (message) *message = msg;
    return std::string(reason);
  };
  Move m = given;
  sortSlots(m.targets);
  if (st_.over()) return fail("game_over", "the game is over");
  if (player < 0 || player >= d.numPlayers()) return fail("malformed_move", "unknown player");
  std::vector<Move> legal;
  legalMoves(player, legal);
  for (const Move& l : legal)
    if (l == m) return "";
  // why not?
  if (!st_.decisions.empty()) {
    if (m.kind != Move::Answer) return fail("decision_pending", "a decision must be answered first");
    auto di = std::find_if(st_.decisions.begin(), st_.decisions.end(), [&](const Decision& x) { return x.id == m.decision; });
    if (di == st_.decisions.end()) return fail("unknown_decision", "no pending decision has that id");
    if (di->player != player) return fail("not_your_decision", "that decision belongs to player " + d.playerIds[di->player]);
    if (player != decisionTurnPlayer()) return fail("not_your_decision", "another player's decisions are answered first");
    if (!m.accept && !di->optional)
      return fail("must_accept", di->kind == DecisionKind::Discard ? "this discard is not optional: choose the cards to discard"
                                 : di->kind == DecisionKind::Reaction ? "this reaction is not optional"
                                                                      : "this triggered action is not optional");
    if (m.accept && pastCap(m, legal) && answerPicked(player, *di, m.targets)) return "";
    return fail("bad_target", "those targets are not a legal choice for this decision");
  }
  if (m.kind == Move::Answer) return fail("unknown_decision", "no decision is pending");
  if (player != st_.priority) return fail("not_your_priority", "player " + d.playerIds[player] + " does not have priority");
  if (m.kind == Move::Pass) return fail("must_act", "in phase " + d.phases[st_.phase].name + " a player who can act must act");
  if (m.action < 0 || m.action >= (int)d.actions.size()) return fail("unknown_action", "no such action");
  const Action& a = d.actions[m.action];
  const auto& va = d.phases[st_.phase].actions;
  if (std::find(va.begin(), va.end(), m.action) == va.end())
    return fail("not_in_phase", "'" + a.name + "' is not a valid action in phase " + d.phases[st_.phase].name);
  if (a.tmpl >= 0 || a.source.present() || a.anySource) {
    if (m.source < 0 || m.source >= (int)st_.ents.size() || !st_.ents[m.source].alive)
      return fail("bad_source", "'" + a.name + "' needs a source entity");
    if (a.tmpl >= 0 && (st_.ents[m.source].tmpl != a.tmpl || st_.ents[m.source].controller != player))
      return fail("bad_source", "that entity cannot take '" + a.name + "' for this player");
    if ((a.tmpl >= 0 || a.anySource) &&
        (st_.ents[m.source].zone < 0 || !d.zones[zoneDefOf(st_.ents[m.source].zone)].actions))
      return fail("bad_source", "that entity is in a zone without actions");
    if (a.anySource && st_.ents[m.source].controller != player)
      return fail("bad_source", "player " + d.playerIds[player] + " does not control that entity");
    if (a.tmpl < 0 && !a.anySource) {
      Ctx c;
      c.player = player;
      std::vector<Value> sources;
      evalList(a.source, c, sources);
      if (std::find(sources.begin(), sources.end(), Value::ent(m.source)) == sources.end())
        return fail("bad_source", "that entity is not a possible source of '" + a.name + "'");
    }
  } else if (m.source >= 0) {
    return fail("bad_source", "'" + a.name + "' takes no source");
  }
  if (!a.modes.empty() && (m.mode < 0 || m.mode >= (int)a.modes.size()))
    return fail("bad_mode", "'" + a.name + "' needs a mode from 0 to " + std::to_string(a.modes.size() - 1));
  if (a.modes.empty() && m.mode >= 0) return fail("bad_mode", "'" + a.name + "' has no modes");
  // as enumerateAction: X's range read before a mode or X is chosen, the condition and the
  // cost before any target is
  Move none;
  Ctx c = actionCtx(player, m.source, none);
  if (a.hasX) {
    if (!m.hasX) return fail("bad_x", "'" + a.name + "' needs x");
    int32_t lo = 0, hi = 0;
    xRange(a, c, lo, hi);
    if (m.x < lo || m.x > hi)
      return fail("bad_x", lo > hi ? "'" + a.name + "' has no x it can take now (its max is below its min)"
                                   : "x must be from " + std::to_string(lo) + " to " + std::to_string(hi) +
                                         " (at most 21 values, from its min)");
  } else if (m.hasX) {
    return fail("bad_x", "'" + a.name + "' has no x");
  }
  c.mode = m.mode;
  c.x = a.hasX ? m.x : 0;
  if (a.condition.present() && !test(a.condition, c))
    return fail("condition_false", "the condition of '" + a.name + "' does not hold now");
  if (!canPay(a, c)) return fail("cannot_pay", "the cost of '" + a.name + "' cannot be paid");
  if (pastCap(m, legal)) {
    const TargetSpec* spec = a.targetSpec(m.mode);
    std::vector<Slot> cands;
    if (spec) targetCandidates(*spec, c, cands);
    if (spec ? pickedFrom(m.targets, cands, spec->min, spec->max) : m.targets.empty()) return "";
  }
  return fail("bad_target", "those targets are not a legal choice for '" + a.name + "'");
}

}  // namespace rulestack
