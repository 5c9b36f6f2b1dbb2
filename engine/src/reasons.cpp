// Why a move is not legal: the machine-readable reason and a message. Only rejected moves
// come here (a move is legal exactly when legalMoves lists it), so this is cold code.
#include <algorithm>

#include "rulestack/game.h"

namespace rulestack {

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
    if (!m.accept && !di->optional) return fail("must_accept", "this triggered action is not optional");
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
  Ctx c = actionCtx(player, m.source, m);
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
  if (a.condition.present() && !test(a.condition, c))
    return fail("condition_false", "the condition of '" + a.name + "' does not hold now");
  if (!canPay(a, c)) return fail("cannot_pay", "the cost of '" + a.name + "' cannot be paid");
  return fail("bad_target", "those targets are not a legal choice for '" + a.name + "'");
}

}  // namespace rulestack
