// Bench only (not shipped): the same facade, plus views and legal moves handed to JS as
// emscripten::val objects instead of JSON text, to measure which way across is cheaper.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <nlohmann/json.hpp>

#include "rulestack/session.h"

using emscripten::val;
using rulestack::Session;

namespace {

val toVal(const nlohmann::json& j) {
  switch (j.type()) {
    case nlohmann::json::value_t::null: return val::null();
    case nlohmann::json::value_t::boolean: return val(j.get<bool>());
    case nlohmann::json::value_t::string: return val(j.get<std::string>());
    case nlohmann::json::value_t::array: {
      val a = val::array();
      for (size_t i = 0; i < j.size(); i++) a.set(i, toVal(j[i]));
      return a;
    }
    case nlohmann::json::value_t::object: {
      val o = val::object();
      for (auto it = j.begin(); it != j.end(); ++it) o.set(it.key(), toVal(it.value()));
      return o;
    }
    default: return val(j.get<double>());
  }
}

// The JSON the engine would otherwise print, kept as a tree: building the JS objects from it
// is the whole cost of the val route (a fair lower bound: a val route would still have to
// walk the state and build the same objects).
nlohmann::json held;

void hold(const std::string& text) { held = nlohmann::json::parse(text); }
val heldAsVal() { return toVal(held); }
std::string heldAsJson() { return held.dump(); }

}  // namespace

EMSCRIPTEN_BINDINGS(rulestack_val_bench) {
  emscripten::class_<Session>("Session")
      .constructor<>()
      .function("load", &Session::load)
      .function("view", &Session::view)
      .function("legalMoves", &Session::legalMoves)
      .function("apply", &Session::apply)
      .function("botChoose", &Session::botChoose);
  emscripten::function("hold", &hold);
  emscripten::function("heldAsVal", &heldAsVal);
  emscripten::function("heldAsJson", &heldAsJson);
}
