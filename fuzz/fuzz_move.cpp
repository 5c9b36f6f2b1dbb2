// Move JSON: Session::apply of fuzzed move text on a started example game. The input is
//   <example name>\n<player> <move JSON>\n<player> <move JSON>\n...
// (each line applied in turn by that player). Oracles: apply answers {"ok":true,...} or
// {"ok":false,"reason",...}; after the moves, every view and log dumps, a snapshot restores
// (through the facade) to the same state hash, and undoing every applied move gives back the
// starting hash and log.
#include <memory>

#include "fuzz_common.h"
#include "rulestack/session.h"
#include "session_impl.h"

namespace {

struct Loaded {
  std::unique_ptr<rulestack::Session> s;
  std::vector<std::string> players;
  std::string hash, log;
};

std::vector<Loaded>& games() {
  static std::vector<Loaded> all = [] {
    std::vector<Loaded> out;
    for (auto& ex : fuzz::examples()) {
      Loaded l;
      l.s = std::make_unique<rulestack::Session>();
      std::string err = l.s->load(ex.text, "1");
      if (!err.empty()) {
        std::fprintf(stderr, "fuzz_move: example %s does not load: %s\n", ex.name.c_str(), err.c_str());
        std::abort();
      }
      std::vector<rulestack::DefError> errs;
      auto def = rulestack::compileDefinition(ex.text, errs);
      l.players = def->playerIds;
      l.hash = l.s->stateHash();
      l.log = l.s->log();
      out.push_back(std::move(l));
    }
    return out;
  }();
  return all;
}

}  // namespace

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t maxSize, unsigned seed) {
  // a move line's JSON is mutated as JSON half the time
  std::mt19937 rng(seed);
  if (rng() % 2 == 0 || size == 0) return LLVMFuzzerMutate(data, size, maxSize);
  std::string all(reinterpret_cast<char*>(data), size);
  std::vector<size_t> starts;  // the move lines' JSON starts
  for (size_t i = all.find('\n'); i != std::string::npos && i + 1 < all.size(); i = all.find('\n', i + 1)) {
    size_t sp = all.find(' ', i + 1), nl = all.find('\n', i + 1);
    if (sp != std::string::npos && (nl == std::string::npos || sp < nl)) starts.push_back(sp + 1);
  }
  if (starts.empty()) return LLVMFuzzerMutate(data, size, maxSize);
  size_t b = starts[rng() % starts.size()];
  size_t e = all.find('\n', b);
  if (e == std::string::npos) e = all.size();
  std::string line = all.substr(b, e - b);
  if (!fuzz::mutateJsonText(line, rng)) return LLVMFuzzerMutate(data, size, maxSize);
  std::string out = all.substr(0, b) + line + all.substr(e);
  if (out.size() > maxSize) return LLVMFuzzerMutate(data, size, maxSize);
  std::memcpy(data, out.data(), out.size());
  return out.size();
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string body;
  size_t gi = fuzz::splitExample(data, size, body);
  Loaded& l = games()[gi];
  rulestack::Session& s = *l.s;
  int applied = 0;
  size_t pos = 0;
  for (int lines = 0; pos <= body.size() && lines < 64; lines++) {
    size_t nl = body.find('\n', pos);
    std::string line = body.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos);
    pos = nl == std::string::npos ? body.size() + 1 : nl + 1;
    size_t sp = line.find(' ');
    std::string player = sp == std::string::npos ? std::string() : line.substr(0, sp);
    std::string move = sp == std::string::npos ? line : line.substr(sp + 1);
    std::string r = s.apply(player, move);
    auto rj = nlohmann::json::parse(r, nullptr, false);
    if (rj.is_discarded() || !rj.is_object() || !rj.contains("ok")) fuzz::fail("apply: not {ok,...}: " + r);
    if (rj["ok"] == true) {
      applied++;
      if (!rj.contains("events") || !rj["events"].is_array()) fuzz::fail("apply ok without events: " + r);
    } else if (!rj.contains("reason") || !rj["reason"].is_string()) {
      fuzz::fail("apply failed without a reason: " + r);
    }
  }
  if (applied > 0) {
    fuzz::Lcg pick(data, size);
    uint32_t v = pick.below((uint32_t)l.players.size() + 1);
    std::string viewer = v < l.players.size() ? l.players[v] : std::string();
    (void)s.view(viewer);
    (void)s.logFor(viewer);
    for (auto& p : l.players) (void)s.legalMoves(p);
    if (pick.below(4) == 0) {  // (restore compiles the definition again: a quarter of the time)
      rulestack::Session back;
      std::string err = back.restore(fuzz::examples()[gi].text, s.snapshot());
      if (!err.empty()) fuzz::fail("a snapshot does not restore: " + err);
      if (back.stateHash() != s.stateHash()) fuzz::fail("a restored snapshot has another state hash");
    }
    for (int i = 0; i < applied; i++)
      if (!s.undo()) fuzz::fail("undo refused with moves to undo");
    if (s.undo()) fuzz::fail("undo past the start");
    if (s.stateHash() != l.hash) fuzz::fail("undoing every move does not give back the starting hash");
    if (s.log() != l.log) fuzz::fail("undoing every move does not give back the starting log");
  }
  return 0;
}
