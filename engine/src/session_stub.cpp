// TEMPORARY stub so the build plumbing can be wired up; replaced by the real engine.
#include "rulestack/session.h"
#include <nlohmann/json.hpp>
#include <cstdio>

namespace rulestack {
class Game {
 public:
  std::string name;
  double seed = 0;
};
Session::Session() = default;
Session::~Session() = default;
std::string Session::load(const std::string& def, double seed) {
  auto j = nlohmann::json::parse(def, nullptr, false);
  if (j.is_discarded() || !j.is_object())
    return R"({"errors":[{"path":"","message":"the definition is not a JSON object"}]})";
  game_ = std::make_unique<Game>();
  game_->name = j.value("name", "");
  game_->seed = seed;
  return "";
}
bool Session::loaded() const { return game_ != nullptr; }
std::string Session::view(const std::string&) const { return "{}"; }
std::string Session::legalMoves(const std::string&) const { return "[]"; }
std::string Session::apply(const std::string&, const std::string&) {
  return R"({"ok":false,"reason":"not_implemented","message":"stub"})";
}
bool Session::undo() { return false; }
std::string Session::log() const { return "[]"; }
std::string Session::stateHash() const {
  unsigned long long h = 1469598103934665603ULL;
  std::string s = game_ ? game_->name + "/" + std::to_string((long long)game_->seed) : "";
  for (unsigned char c : s) { h ^= c; h *= 1099511628211ULL; }
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", h);
  return buf;
}
std::string Session::snapshot() const { return "{}"; }
std::string Session::restore(const std::string& d, const std::string&) { return load(d, 0); }
std::string Session::botChoose(const std::string&, const std::string&) { return "null"; }
std::string validateDefinition(const std::string& def) {
  Session s;
  std::string e = s.load(def, 0);
  return e.empty() ? R"({"errors":[]})" : e;
}
std::string runScenario(const std::string&) { return R"({"ok":false,"steps":0,"failures":[]})"; }
std::string simulate(const std::string&, const std::string&) { return "{}"; }
const char* version() { return "0.1.0"; }
}  // namespace rulestack
