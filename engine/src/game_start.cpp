// Starting a game: the state a seed gives, in a new Game or in one restarted in place (a
// simulation's games one after another). Once per game, so compiled for size in wasm.
#include "rulestack/game.h"

namespace rulestack {

void Game::restart(uint64_t seed) {
  freshRun();
  extra_.clear();
  init(seed);
}

namespace {
// A new State that keeps the memory of the old one's lists (each emptied).
void renew(State& s) {
  State old = std::move(s);
  s = State{};
  auto reuse = [](auto& to, auto& from) {
    from.clear();
    to = std::move(from);
  };
  reuse(s.ents, old.ents);
  reuse(s.props, old.props);
  for (auto& z : old.zones) z.clear();
  s.zones = std::move(old.zones);
  reuse(s.serials, old.serials);
  reuse(s.queue, old.queue);
  reuse(s.recent, old.recent);
  reuse(s.decisions, old.decisions);
  reuse(s.stack, old.stack);
  reuse(s.customIds, old.customIds);
}
}  // namespace

void Game::init(uint64_t seed) {
  const Def& d = *def_;
  int np = d.numPlayers();
  size_t nprops = d.propNames.size();
  renew(st_);
  st_.ents.resize(np);
  for (int p = 0; p < np; p++) {
    st_.ents[p].owner = st_.ents[p].controller = p;
  }
  st_.props.assign((size_t)np * nprops, Slot{});
  for (int p = 0; p < np; p++) {
    for (auto& kv : d.playerProps) st_.props[(size_t)p * nprops + kv.first] = kv.second;
    for (auto& kv : d.perTurn) st_.props[(size_t)p * nprops + kv.first] = kv.second;
  }
  st_.zones.resize(d.numZoneInstances);  // (each empty)
  st_.serials.assign(d.templates.size(), 0);
  st_.rng.seed(seed);
  Rng salt = st_.rng;  // the handles' salt: from the seed, without drawing from the game's RNG
  salt.s ^= 0x5A17ED5A17ED5A17ULL;
  st_.salt = salt.next();
  st_.active = d.firstPlayer;
  eventsThisMove_ = 0;
  FrameCtx k;
  k.player = d.firstPlayer;
  pushMuts(LK::Setup, -1, -1, std::move(k));
  st_.started = true;
  advance();
}

}  // namespace rulestack
