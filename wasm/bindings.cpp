// embind bindings: the JSON-text facade of engine/include/rulestack/session.h, as is.
// Strings in and out (a seed too: its JSON text); a view's text as bytes. No game logic here.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cstdlib>
#include <new>
#include <string>

#include "rulestack/session.h"

using rulestack::Session;

namespace {
std::string versionString() { return rulestack::version(); }

// embind copies a returned std::string into a block it allocates without checking it: with the
// module's memory full it would write the answer through a null pointer, over the module's own
// data. So each answer is first checked to fit; one that cannot is an out-of-memory exception
// (the package: an engine crash, answered by a fresh instance), never a corrupted module.
std::string copyable(std::string s) {
  void* probe = std::malloc(s.size() + 16);  // (embind's block: the length, then the text)
  if (!probe) throw std::bad_alloc();
  std::free(probe);
  return s;
}
template <auto F>
struct Checked;
template <class C, class... P, std::string (C::*F)(P...)>
struct Checked<F> {
  static std::string call(C& c, P... p) { return copyable((c.*F)(p...)); }
};
template <class C, class... P, std::string (C::*F)(P...) const>
struct Checked<F> {
  static std::string call(const C& c, P... p) { return copyable((c.*F)(p...)); }
};
template <class... P, std::string (*F)(P...)>
struct Checked<F> {
  static std::string call(P... p) { return copyable(F(p...)); }
};

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
      .function("load", &Checked<&Session::load>::call)
      .function("loaded", &Session::loaded)
      .function("viewBytes", &viewBytes)
      .function("legalMoves", &Checked<&Session::legalMoves>::call)
      .function("apply", &Checked<&Session::apply>::call)
      .function("setTrace", &Session::setTrace)
      .function("undo", &Session::undo)
      .function("log", &Checked<&Session::log>::call)
      .function("logFor", &Checked<&Session::logFor>::call)
      .function("stateHash", &Checked<&Session::stateHash>::call)
      .function("snapshot", &Checked<&Session::snapshot>::call)
      .function("restore", &Checked<&Session::restore>::call)
      .function("botChoose", &Checked<&Session::botChoose>::call);

  emscripten::function("validateDefinition", &Checked<&rulestack::validateDefinition>::call);
  emscripten::function("runScenario", &Checked<&rulestack::runScenario>::call);
  emscripten::function("simulate", &Checked<&rulestack::simulate>::call);
  emscripten::function("languageKeys", &Checked<&rulestack::languageKeys>::call);
  emscripten::function("version", &versionString);
}
