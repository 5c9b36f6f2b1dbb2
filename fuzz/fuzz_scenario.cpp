// The scenario runner: runScenario on the input (a scenario, JSON text, its game inlined).
#include "fuzz_common.h"
#include "rulestack/session.h"

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t maxSize, unsigned seed) {
  return fuzz::mutate(data, size, maxSize, seed, false);
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string out = rulestack::runScenario(std::string(reinterpret_cast<const char*>(data), size));
  auto r = nlohmann::json::parse(out, nullptr, false);
  if (r.is_discarded() || !r.is_object() || !r.contains("ok") || !r["ok"].is_boolean() || !r.contains("failures"))
    fuzz::fail("runScenario: not {ok, steps, failures}: " + out);
  if (!r["ok"].get<bool>() && r["failures"].empty()) fuzz::fail("runScenario: not ok without a failure");
  return 0;
}
