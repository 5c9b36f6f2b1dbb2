// Starting a game: the state a seed gives, in a new Game or in one restarted in place (a
// simulation's games one after another). Once per game, so compiled for size in wasm.
#include "rulestack/game.h"

namespace rulestack {

namespace {
constexpr int kMaxKeptSteps = 100000;
}  // namespace

struct Game::SetupStart {
  State st;
  uint64_t endDirty = ~0ull, falseGuards = 0;
  bool propsVary = false;
  int eventsThisMove = 0;
  int32_t quietCause = -1;
  int64_t steps = 0;
};

void Game::restart(uint64_t seed) {
  freshRun();
  extra_.clear();
  if (logging || trace) {  // (the part kept would miss its log and trace)
    init(seed);
  } else if (setupStart_) {
    const SetupStart& k = *setupStart_;
    st_ = k.st;
    endDirty_ = k.endDirty;
    falseGuards_ = k.falseGuards;
    propsVary_ = k.propsVary;
    eventsThisMove_ = k.eventsThisMove;
    quietCause_ = k.quietCause;
    steps_ = k.steps;
    seedRng(seed);
    advance();
  } else {
    init(seed, true);
  }
}

// The setup stepped while it has not drawn from the RNG, the state kept before each step: the
// last one kept is where the setup's course starts to depend on the seed. (Kept only while
// nothing but the state has changed: no mutation lists added, no item failed.)
void Game::keepSetupStart() {
  auto k = std::make_shared<SetupStart>();
  const Rng seeded = st_.rng;
  bool kept = false;
  for (int i = 0; i < kMaxKeptSteps && extra_.empty() && failed_.empty(); i++) {
    kept = true;
    k->st = st_;
    k->endDirty = endDirty_;
    k->falseGuards = falseGuards_;
    k->propsVary = propsVary_;
    k->eventsThisMove = eventsThisMove_;
    k->quietCause = quietCause_;
    k->steps = steps_;
    if (st_.stack.empty() || !st_.decisions.empty() || st_.over()) break;
    step();
    if (st_.rng.s != seeded.s) break;
  }
  if (kept) setupStart_ = std::move(k);
}

// The RNG and the handles' salt: all that the seed decides.
void Game::seedRng(uint64_t seed) {
  st_.rng.seed(seed);
  Rng salt = st_.rng;  // the handles' salt: from the seed, without drawing from the game's RNG
  salt.s ^= 0x5A17ED5A17ED5A17ULL;
  st_.salt = salt.next();
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

void Game::init(uint64_t seed, bool keepStart) {
  const Def& d = *def_;
  int np = d.numPlayers();
  size_t nprops = d.propNames.size();
  renew(st_);
  propsVary_ = false;
  entsIndexed_ = false;
  st_.ents.resize(np);
  for (int p = 0; p < np; p++) {
    st_.ents[p].owner = st_.ents[p].controller = p;
  }
  st_.props.assign((size_t)np * nprops, Slot{});
  for (int p = 0; p < np; p++) {
    for (auto& kv : d.playerProps) st_.props[(size_t)p * nprops + kv.first] = kv.second;
    for (auto& kv : d.perTurn) st_.props[(size_t)p * nprops + kv.first] = kv.second;
  }
  if (st_.zones.size() != (size_t)d.numZoneInstances) st_.zones = std::vector<Zone>((size_t)d.numZoneInstances);  // (each empty)
  st_.serials.assign(d.templates.size(), 0);
  seedRng(seed);
  st_.active = d.firstPlayer;
  eventsThisMove_ = 0;
  FrameCtx k;
  k.player = d.firstPlayer;
  pushMuts(LK::Setup, -1, -1, std::move(k));
  st_.started = true;
  if (keepStart) keepSetupStart();
  advance();
}

}  // namespace rulestack
