// embind bindings: the JSON-text facade of engine/include/rulestack/session.h, as is.
// Strings in and out (a seed too: its JSON text). No game logic here.
#include <emscripten/bind.h>

#include <string>

#include "rulestack/session.h"

using rulestack::Session;

namespace {
std::string versionString() { return rulestack::version(); }
}  // namespace

EMSCRIPTEN_BINDINGS(rulestack) {
  emscripten::class_<Session>("Session")
      .constructor<>()
      .function("load", &Session::load)
      .function("loaded", &Session::loaded)
      .function("view", &Session::view)
      .function("legalMoves", &Session::legalMoves)
      .function("apply", &Session::apply)
      .function("setTrace", &Session::setTrace)
      .function("undo", &Session::undo)
      .function("log", &Session::log)
      .function("logFor", &Session::logFor)
      .function("stateHash", &Session::stateHash)
      .function("snapshot", &Session::snapshot)
      .function("restore", &Session::restore)
      .function("botChoose", &Session::botChoose);

  emscripten::function("validateDefinition", &rulestack::validateDefinition);
  emscripten::function("runScenario", &rulestack::runScenario);
  emscripten::function("simulate", &rulestack::simulate);
  emscripten::function("languageKeys", &rulestack::languageKeys);
  emscripten::function("version", &versionString);
}
