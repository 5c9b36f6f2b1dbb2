// The definition loader: validateDefinition on the input (JSON text), and when it compiles,
// a game started and played a few moves (fuzz_play.h's oracles).
#include "fuzz_play.h"
#include "rulestack/session.h"
#include "session_impl.h"

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t maxSize, unsigned seed) {
  return fuzz::mutate(data, size, maxSize, seed, false);
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  std::string result = rulestack::validateDefinition(text);
  auto r = nlohmann::json::parse(result, nullptr, false);
  if (r.is_discarded() || !r.contains("errors") || !r["errors"].is_array()) fuzz::fail("validateDefinition: not {errors:[...]}: " + result);
  std::vector<rulestack::DefError> errs;
  auto def = rulestack::compileDefinition(text, errs);
  if (!def) {
    if (r["errors"].empty()) fuzz::fail("validateDefinition said valid, compileDefinition failed");
    return 0;
  }
  fuzz::Lcg pick(data, size);
  auto g = rulestack::startGame(def, pick.below(1000), errs);
  if (!g) return 0;
  fuzz::playout(*g, pick, 24);
  return 0;
}
