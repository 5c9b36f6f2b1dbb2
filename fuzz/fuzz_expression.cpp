// The expression compiler: the input (raw text) compiled directly (compileExpr), then as the
// one condition of a game (the Duel's first action, else the first example's): the definition
// loaded, a game started, its legal moves enumerated (which evaluates the condition) and a
// few moves played.
#include "fuzz_play.h"
#include "loader.h"
#include "rulestack/expr.h"
#include "session_impl.h"

namespace {

const nlohmann::json& baseDefinition() {
  static nlohmann::json base = [] {
    const auto& ex = fuzz::examples();
    const fuzz::Example* pick = &ex[0];
    for (auto& e : ex)
      if (e.name == "duel") pick = &e;
    return nlohmann::json::parse(pick->text);
  }();
  return base;
}

// Where the condition goes: the first action of the first entity that has one.
nlohmann::json* conditionSlot(nlohmann::json& def) {
  if (!def.contains("entities")) return nullptr;
  for (auto& e : def["entities"])
    if (e.contains("actions") && e["actions"].is_array() && !e["actions"].empty()) return &e["actions"][0]["condition"];
  return nullptr;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  {
    rulestack::Symbols syms;
    rulestack::NameIndex zones;
    zones.set("Deck", 0);
    zones.set("Hand", 1);
    zones.set("Discard", 2);
    rulestack::CompileEnv env{&syms, &zones};
    rulestack::Nodes nodes;
    rulestack::Expr e;
    rulestack::CompileError err;
    if (rulestack::compileExpr(text, nodes, env, e, err)) {
      if (e.root < 0 || (size_t)e.root >= nodes.nodes.size()) fuzz::fail("compileExpr: root outside the nodes");
    } else if (err.column < 1 || err.message.empty()) {
      fuzz::fail("compileExpr: an error without a column or message");
    }
  }
  nlohmann::json def = baseDefinition();
  nlohmann::json* slot = conditionSlot(def);
  if (!slot) return 0;
  // the definition's text path: invalid UTF-8 would not parse, so it is replaced like the
  // facade's error messages do
  *slot = nlohmann::json::parse(nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
  std::vector<rulestack::DefError> errs;
  std::shared_ptr<rulestack::Def> d;
  try {
    d = rulestack::loadDefinition(rulestack::Json::parse(def.dump()), errs);
  } catch (const std::exception& ex) {
    fuzz::fail(std::string("loadDefinition threw: ") + ex.what());
  }
  if (!d) return 0;
  fuzz::Lcg pick(data, size);
  auto g = rulestack::startGame(d, 1, errs);
  if (!g) return 0;
  fuzz::playout(*g, pick, 8);
  return 0;
}
