// Snapshot restore: the input is "<example name>\n<snapshot JSON>", restored into a game of
// that example as Session::restore does (the depth guard, JSON parse, restoreSnapshot; the
// definitions are compiled once, not per input). A restored game is then used: views, legal
// moves of every player, a snapshot round trip, a few moves (fuzz_play.h's oracles).
#include "fuzz_play.h"
#include "loader.h"
#include "rulestack/session.h"
#include "session_impl.h"

namespace {

const std::vector<std::shared_ptr<rulestack::Def>>& defs() {
  static std::vector<std::shared_ptr<rulestack::Def>> all = [] {
    std::vector<std::shared_ptr<rulestack::Def>> out;
    for (auto& ex : fuzz::examples()) {
      std::vector<rulestack::DefError> errs;
      auto d = rulestack::compileDefinition(ex.text, errs);
      if (!d) {
        std::fprintf(stderr, "fuzz_snapshot: example %s does not compile\n", ex.name.c_str());
        std::abort();
      }
      out.push_back(d);
    }
    return out;
  }();
  return all;
}

}  // namespace

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t maxSize, unsigned seed) {
  return fuzz::mutate(data, size, maxSize, seed, true);
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string body;
  size_t gi = fuzz::splitExample(data, size, body);
  if (rulestack::nestedDeeper(body, rulestack::kMaxInputDepth)) return 0;
  auto sj = rulestack::Json::parse(body, nullptr, false);  // the engine's parser, as restore()
  if (sj.is_discarded()) return 0;
  rulestack::Game g(defs()[gi]);
  std::string err;
  if (!rulestack::restoreSnapshot(g, sj, err)) {
    if (err.empty()) fuzz::fail("restoreSnapshot failed without a message");
    return 0;
  }
  (void)g.hash();
  (void)g.nextToAct();
  std::vector<rulestack::Move> moves;
  for (int p = 0; p < g.def().numPlayers(); p++) g.legalMoves(p, moves);
  fuzz::Lcg pick(data, size);
  fuzz::playout(g, pick, 6);
  return 0;
}
