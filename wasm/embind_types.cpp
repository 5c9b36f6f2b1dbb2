// The types embind knows before any binding names them. Emscripten's own list (its
// system/lib/embind/bind.cpp, MIT licence) registers 40 of them: every integer and float
// width, 64-bit integers, wide and UTF-16/32 strings and a typed-array view of each, all
// of which the module would carry with their JavaScript converters (~0.9 KB gzip of module
// and glue). Defining its two functions here keeps the library's copy out of the link, and
// registers only what bindings.cpp passes: a binding with another type fails when the
// module starts ("unbound types"), which every suite would see.
#include <emscripten/bind.h>
#include <emscripten/emscripten.h>

#include <cstring>
#include <string>

using namespace emscripten;
using namespace emscripten::internal;

extern "C" {
// embind's name of a type in its error messages: built without run-time type information
// (CMakeLists.txt), a type has no name to give
const char* EMSCRIPTEN_KEEPALIVE __getTypeName(const void*) { return strdup("a type the bindings do not register"); }

EMSCRIPTEN_KEEPALIVE __attribute__((constructor)) void __embind_register_native_and_builtin_types() {
  _embind_register_void(TypeID<void>::get(), "void");
  _embind_register_bool(TypeID<bool>::get(), "bool", sizeof(bool), true, false);
  _embind_register_std_string(TypeID<std::string>::get(), "std::string");
  _embind_register_emval(TypeID<val>::get(), "emscripten::val");
  // viewBytes' Uint8Array (1: Uint8Array in embind's list of typed arrays)
  _embind_register_memory_view(TypeID<memory_view<unsigned char>>::get(), 1, "emscripten::memory_view<unsigned char>");
}
}
