// embind bindings: the JSON-text facade of engine/include/rulestack/session.h, as is.
// Strings in and out (a seed too: its JSON text); a view's text as bytes. No game logic here.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <string>

#include "rulestack/session.h"

using rulestack::Session;

namespace {
std::string versionString() { return rulestack::version(); }

// The view's UTF-8 text where the session keeps it, as a Uint8Array over the module's memory:
// no copy and no byte-by-byte string conversion (embind's std::string return costs ~6 us of a
// 2 KB view; this, with the wrapper's TextDecoder, ~0.4). Good until the next call.
emscripten::val viewBytes(const Session& s, const std::string& player) {
  const std::string& text = s.keptView(player);
  return emscripten::val(emscripten::typed_memory_view(text.size(), (const unsigned char*)text.data()));
}
}  // namespace

EMSCRIPTEN_BINDINGS(rulestack) {
  emscripten::class_<Session>("Session")
      .constructor<>()
      .function("load", &Session::load)
      .function("loaded", &Session::loaded)
      .function("viewBytes", &viewBytes)
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
